// summary.md of a run: outcome, plan, every call with its decision and result, guards, requests.
// renderSummary is pure; writeSummary gathers rows and writes the file.
import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import type { RunStore } from "../runstore/api.ts"
import type { CallRow } from "../store/calls.ts"
import type { RequestRow } from "../store/requests.ts"
import { TERMINAL, type RunRow } from "../store/runs.ts"
import { formatDuration } from "../base/duration.ts"
import { lastLines } from "./output.ts"

export interface SummaryInput {
  run: RunRow
  plan: { id: string; title: string; state: string; attempts: number }[]
  calls: CallRow[]
  requests: RequestRow[]
  guards: { guard: string; reason: string }[]
  files: string[]
  wallMs: number
  tokens: { input: number; output: number; cost: number }
}

export async function writeSummary(store: RunStore, run: RunRow, path: string, wallMs: number, files: string[] = []): Promise<void> {
  const [guardEvents, usageRows, plan, calls, requests] = await Promise.all([
    store.runEvents(run.id, "guard"), store.usageOf(run.id), store.loadPlan(run.id), store.callsOf(run.id), store.requestsOf(run.id),
  ])
  const input: SummaryInput = {
    run,
    plan,
    calls,
    requests,
    guards: guardEvents as { guard: string; reason: string }[],
    files,
    wallMs,
    tokens: usageRows.reduce((t, u) => ({ input: t.input + u.inputTokens, output: t.output + u.outputTokens, cost: t.cost + u.cost }), { input: 0, output: 0, cost: 0 }),
  }
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, renderSummary(input))
}

/** summary.md of a finished run whose file is missing (a crash right after its last commit, a deleted file): written again from its rows. */
export async function ensureSummary(store: RunStore, run: RunRow, home: string): Promise<string | undefined> {
  const path = join(home, "runs", run.id, "summary.md")
  if (!TERMINAL.includes(run.status) || existsSync(path)) return undefined
  try {
    await writeSummary(store, run, path, (run.finishedAt ?? run.updatedAt) - run.createdAt)
    return path
  } catch {
    return undefined // a read-only home: the run can still be inspected
  }
}

export function renderSummary(s: SummaryInput): string {
  const lines = [
    `# ccode run ${s.run.id}: ${s.run.task}`,
    "",
    `- outcome: **${s.run.status}** (exit code ${s.run.exitCode ?? "-"})${s.run.message ? ` — ${s.run.message}` : ""}`,
    `- task: ${s.run.taskFile}`,
    `- workdir: ${s.run.workdir}`,
    `- started: ${new Date(s.run.createdAt).toISOString()}; time used: ${formatDuration(s.wallMs)}`,
    `- calls: ${s.calls.length} (${count(s.calls, "ok")} ok, ${count(s.calls, "error")} failed, ${count(s.calls, "denied")} denied)`,
  ]
  if (s.tokens.input || s.tokens.output) lines.push(`- tokens: ${s.tokens.input} in, ${s.tokens.output} out; cost ${s.tokens.cost.toFixed(4)}`)
  lines.push("", "## Plan", "", "| step | state | attempts | title |", "|---|---|---|---|")
  for (const item of s.plan) lines.push(`| ${cell(item.id)} | ${item.state} | ${item.attempts} | ${cell(item.title)} |`)
  lines.push("", "## Calls", "", "| # | step | tool | args | decision | risk | result | time |", "|---|---|---|---|---|---|---|---|")
  for (const c of s.calls) {
    const result = c.status === "ok" ? "ok" : `${c.status}${c.errorCode ? ` ${c.errorCode}` : ""}${c.exitCode !== null && c.exitCode !== 0 ? ` (exit ${c.exitCode})` : ""}`
    lines.push(`| ${c.seq} | ${cell(c.itemId ?? "")} | ${c.tool} | ${cell(shortArgs(c.args))} | ${c.decision ?? "-"} (${c.decidedBy ?? "-"}) | ${c.risk ?? "-"} | ${cell(result)} | ${c.durationMs ?? 0}ms |`)
  }
  lines.push(...failedOutputs(s.calls))
  if (s.guards.length) {
    lines.push("", "## Guards", "")
    for (const g of s.guards) lines.push(`- **${g.guard}**: ${g.reason}`)
  }
  if (s.requests.length) {
    lines.push("", "## Requests", "")
    for (const r of s.requests) lines.push(`- \`${r.id}\` ${r.kind} — ${r.status}${r.answer ? ` (${r.answer})` : ""}: ${r.title}`)
  }
  if (s.files.length) {
    lines.push("", "## Files changed", "")
    for (const f of s.files) lines.push(`- ${f}`)
  }
  return `${lines.join("\n")}\n`
}

/** The last lines of every failed call's output: what a person reads first after a failure. */
function failedOutputs(calls: CallRow[]): string[] {
  const failed = calls.filter((c) => c.status === "error" && (c.output ?? "").trim())
  if (!failed.length) return []
  const lines = ["", "## Failed steps: last lines of output", ""]
  for (const c of failed) {
    const tail = lastLines(c.output ?? "", FAILED_TAIL_LINES)
    const fence = "`".repeat(Math.max(3, ...[...(c.output ?? "").matchAll(/`+/g)].map((m) => m[0].length + 1)))
    lines.push(`### ${c.itemId ?? `call ${c.seq}`} (${c.tool}, call ${c.seq}${c.exitCode !== null ? `, exit ${c.exitCode}` : ""})`, "", fence, ...tail, fence, "")
  }
  lines.push(`Full outputs: \`ccode runs logs ${calls[0]!.runId}\``)
  return lines
}

const FAILED_TAIL_LINES = 20

function count(calls: CallRow[], status: string): number {
  return calls.filter((c) => c.status === status).length
}

function shortArgs(json: string): string {
  try {
    const args = JSON.parse(json) as Record<string, unknown>
    const main = args.command ?? args.path ?? args.pattern
    const text = typeof main === "string" ? main : json
    return text.length > 80 ? `${text.slice(0, 77)}...` : text
  } catch {
    return json.slice(0, 80)
  }
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ")
}
