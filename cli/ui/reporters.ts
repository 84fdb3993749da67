// Reporters: --json prints committed events as JSON lines on stdout (nothing else goes there);
// a TTY gets a live status line and a per-step log on stderr; anything else gets plain lines.
import type { Reporter, RunEvent } from "../../core/runner/events.ts"
import { formatDuration } from "../../core/base/duration.ts"
import { RISK_STYLE, style } from "./style.ts"
import { out } from "../out.ts"
import { lastLines } from "../../core/runner/output.ts"
import { fitLine } from "./status-line.ts"
import { terminalSafe } from "./safe-text.ts"

const FAILED_TAIL_LINES = 10

export function jsonReporter(write: (line: string) => void = (l) => out(l)): Reporter {
  return { event: (event) => write(`${JSON.stringify(event)}\n`), output() {} }
}

export interface HumanReporterOptions {
  tty: boolean
  quiet: boolean
  verbose: boolean
  /** several runs at once: prefix lines with the task name */
  batch?: boolean
}

export function humanReporter(opts: HumanReporterOptions): Reporter & { stop(): void } {
  const err = (text: string) => process.stderr.write(text)
  const calls = new Map<string, { run: string; step?: string; tool: string; started: number; title: string }>()
  const labels = new Map<string, string>()
  // step i/n in the status line: steps of the run, and steps finished ok so far (this segment)
  const progress = new Map<string, { total: number; done: Set<string> }>()
  // agent runs show every call with its decision: the model's choices are what a person follows
  const agentRuns = new Set<string>()
  let status = ""
  let timer: ReturnType<typeof setInterval> | undefined
  const clear = () => {
    if (opts.tty && status) err("\r\x1b[2K")
  }
  const draw = () => {
    if (!opts.tty || opts.quiet) return
    const active = [...calls.values()]
    if (!active.length) return clear()
    const c = active[active.length - 1]!
    const p = progress.get(c.run)
    const count = p && p.total > 0 && !agentRuns.has(c.run) ? `${Math.min(p.done.size + 1, p.total)}/${p.total} ` : ""
    status = fitLine([
      { text: "▶ ", paint: style.cyan }, { text: `${count}${c.step ?? c.tool} ` },
      { text: `${c.tool} · ${formatDuration(Date.now() - c.started)} `, paint: style.gray }, { text: c.title, paint: style.dim },
    ], process.stderr.columns || 80)
    err(`\r\x1b[2K${status}`)
  }
  const line = (runId: string, text: string) => {
    clear()
    const label = opts.batch ? labels.get(runId) : undefined
    // output, titles and messages come from steps and models: they must not drive the terminal
    err(`${label ? style.gray(`[${label}] `) : ""}${terminalSafe(text, true)}\n`)
    draw()
  }
  // the last lines of each step whose final attempt failed, shown again when its run ends
  const failures = new Map<string, Map<string, { tool: string; lines: string[] }>>()
  const remember = (e: RunEvent) => {
    const f = e as Record<string, unknown>
    const key = String(f.step ?? calls.get(String(f.call))?.tool ?? f.call)
    const byStep = failures.get(e.run) ?? new Map<string, { tool: string; lines: string[] }>()
    failures.set(e.run, byStep)
    byStep.delete(key)
    const output = typeof f.output === "string" ? f.output : ""
    if (f.status === "error" && output.trim()) byStep.set(key, { tool: calls.get(String(f.call))?.tool ?? "", lines: lastLines(output, FAILED_TAIL_LINES) })
  }
  const reportFailures = (runId: string) => {
    for (const [step, failure] of failures.get(runId) ?? []) {
      line(runId, style.red(`── ${step} failed; last lines of its output (ccode runs logs ${runId} ${step}):`))
      for (const text of failure.lines) line(runId, `  ${text}`)
    }
    failures.delete(runId)
  }
  if (opts.tty && !opts.quiet) timer = setInterval(draw, 250)
  timer?.unref()
  return {
    event(e: RunEvent) {
      const f = e as Record<string, unknown>
      if (e.type === "run.started") {
        labels.set(e.run, String(f.task))
        progress.set(e.run, { total: Number(f.steps ?? 0), done: new Set() })
      }
      if (e.type === "step.finished") remember(e)
      if (e.type === "run.finished") reportFailures(e.run)
      if (opts.quiet && e.type !== "run.finished") return
      if (e.type === "step.finished" && f.status === "ok") {
        const step = calls.get(String(f.call))?.step
        if (step) progress.get(e.run)?.done.add(step)
      }
      const driver = (e as Record<string, unknown>).driver
      if (((e.type === "run.started" || e.type === "run.resumed") && driver === "agent") || e.type === "agent.message") agentRuns.add(e.run)
      describe(e, calls, line, agentRuns.has(e.run))
    },
    output(runId, _callId, chunk) {
      if (opts.quiet) return
      for (const text of chunk.replace(/\n$/, "").split("\n")) line(runId, style.gray(`  │ ${text}`))
    },
    stop() {
      if (timer) clearInterval(timer)
      clear()
    },
  }
}

function describe(
  e: RunEvent,
  calls: Map<string, { run: string; step?: string; tool: string; started: number; title: string }>,
  line: (runId: string, text: string) => void,
  agent = false,
): void {
  const f = e as Record<string, unknown>
  switch (e.type) {
    case "run.started":
      line(e.run, `${style.bold("ccode")} run ${style.cyan(e.run)} ${String(f.task)} ${style.gray(`(${agent ? "agent" : `${f.steps} steps`}, ${f.workdir})`)}`)
      return
    case "run.resumed":
      line(e.run, `${style.bold("ccode")} resuming ${style.cyan(e.run)} ${style.gray(`(was ${f.from_status})`)}`)
      return
    case "step.started": {
      const args = f.args as Record<string, unknown> | undefined
      const title = String(args?.command ?? args?.path ?? args?.pattern ?? "")
      calls.set(String(f.call), { run: e.run, step: f.step as string | undefined, tool: String(f.tool), started: Date.now(), title })
      return
    }
    case "decision": {
      if (f.decision === "allow" && f.by !== "user" && !agent) return
      const c = calls.get(String(f.call))
      const risk = String(f.risk)
      const paint = f.decision === "deny" ? style.red : f.decision === "ask" ? style.yellow : style.green
      if (agent) {
        const why = f.decision === "allow" && f.by !== "user" ? "" : ` ${style.gray(String(f.reason))}`
        line(e.run, `  ${paint(String(f.decision))} ${c?.tool ?? ""} ${style.dim(c?.title.slice(0, 120) ?? "")} ${(RISK_STYLE[risk] ?? String)(risk)}${why}`)
        return
      }
      line(e.run, `  ${paint(String(f.decision))} ${c?.step ?? ""} ${style.gray(c?.tool ?? "")} ${(RISK_STYLE[risk] ?? String)(risk)} ${style.gray(String(f.reason))}`)
      return
    }
    case "step.finished": {
      const c = calls.get(String(f.call))
      calls.delete(String(f.call))
      const ok = f.status === "ok"
      const error = f.error as { message?: string } | null
      const mark = ok ? style.green("✓") : style.red("✗")
      line(e.run, `${mark} ${(agent ? c?.tool : c?.step) ?? c?.tool ?? ""} ${style.gray(formatDuration(Number(f.duration_ms ?? 0)))}${ok ? "" : ` ${style.red(error?.message ?? "failed")}`}`)
      return
    }
    case "step.skipped":
      line(e.run, `${style.gray("–")} ${String(f.step)} ${style.gray(`skipped: ${String(f.reason)}`)}`)
      return
    case "request.created":
      line(e.run, `${style.yellow("⏸")} ${String(f.kind)} needed ${style.gray(String(f.req))} ${String(f.step ?? f.tool ?? "")}`)
      return
    case "guard":
      line(e.run, `${style.red("■")} guard ${style.bold(String(f.guard))}: ${String(f.reason)}`)
      return
    case "sandbox":
      if (f.message) line(e.run, `${style.yellow("!")} ${String(f.message)}`)
      return
    case "policy.warning":
    case "tool.warning":
      line(e.run, `${style.yellow("!")} ${String(f.message)}`)
      return
    case "agent.message": {
      const text = String(f.text ?? "").trim().split("\n")[0]?.slice(0, 200) ?? ""
      const calls = (f.calls as unknown[] | undefined)?.length ?? 0
      line(e.run, `${style.cyan("◆")} ${style.bold(`turn ${f.turn}`)} ${text || style.gray(calls ? `${calls} tool call${calls > 1 ? "s" : ""}` : "(no text)")}`)
      return
    }
    case "agent.retry":
      line(e.run, `${style.yellow("↻")} model request failed (${String(f.kind)}${f.status ? ` ${f.status}` : ""}): retrying in ${formatDuration(Number(f.delay_ms ?? 0))} ${style.gray(String(f.message ?? ""))}`)
      return
    case "run.finished": {
      const statusText = String(f.status)
      const paint = statusText === "completed" ? style.green : statusText === "paused" ? style.yellow : style.red
      line(e.run, `${paint(statusText)} ${style.gray(`exit ${f.exit_code} · ${f.steps} ${agent ? "turns" : "steps done"} · ${f.denied} denied`)}${f.message ? ` — ${String(f.message)}` : ""}`)
      line(e.run, style.gray(`summary: ${String(f.summary_path)}`))
      return
    }
    default:
      return
  }
}
