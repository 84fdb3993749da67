// Wiring shared by `run` and `resume`: the store, reporters, the person (or nobody), signals.
import { ccodeHome, openRunDb } from "./paths.ts"
import type { RunEnv } from "../core/runner/lifecycle.ts"
import type { RunResult } from "../core/runner/finish.ts"
import { humanReporter, jsonReporter } from "./ui/reporters.ts"
import { nobody, terminalHuman } from "./ui/human.ts"
import { style } from "./ui/style.ts"
import { killAllNow } from "../core/tools/process/kill.ts"
import { colorWanted, panelFallback, type TerminalFacts } from "./ui/panel/eligible.ts"
import { openPanel } from "./ui/panel/panel.ts"

export interface SessionFlags {
  db?: string
  json?: boolean
  quiet?: boolean
  verbose?: boolean
  nonInteractive?: boolean
}

export function isInteractive(flags: SessionFlags): boolean {
  const ci = process.env.CI === "true" || process.env.CI === "1"
  // --json keeps stdout for events only, so it never prompts
  return !flags.nonInteractive && !flags.json && !ci && Boolean(process.stdin.isTTY) && Boolean(process.stderr.isTTY)
}

function terminalFacts(flags: SessionFlags, batch: boolean): TerminalFacts {
  return {
    interactive: isInteractive(flags), stdoutTTY: Boolean(process.stdout.isTTY), batch, quiet: Boolean(flags.quiet),
    term: process.env.TERM, panelEnv: process.env.CCODE_PANEL, columns: process.stderr.columns, rows: process.stderr.rows,
  }
}

export async function openSession(flags: SessionFlags, batch = false): Promise<RunEnv & { close(): Promise<void> }> {
  const { store, local } = await openRunDb(flags.db)
  const interrupt = new AbortController()
  // the live panel at a terminal (docs/panel.md); anywhere else, today's line output
  const panel = panelFallback(terminalFacts(flags, batch)) === undefined
    ? openPanel({ interrupt: () => onSignal("SIGINT"), color: colorWanted(process.env) })
    : undefined
  const reporter = flags.json
    ? jsonReporter()
    : panel?.reporter ?? humanReporter({ tty: Boolean(process.stderr.isTTY), quiet: Boolean(flags.quiet), verbose: Boolean(flags.verbose), batch })
  let signals = 0
  const onSignal = (signal: NodeJS.Signals) => {
    signals++
    if (signals > 1) {
      // a second Ctrl-C: SIGKILL every running step's group and escapes now, then leave; the calls
      // stay in flight and resume asks a person what became of them
      killAllNow()
      process.exit(130)
    }
    if (!panel) process.stderr.write(`\n${signal}: stopping; the running step is ended and left for \`ccode resume\` to ask about (again to force)\n`)
    interrupt.abort(signal)
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)
  // Ctrl-C at a prompt arrives as a keypress, not a signal: it interrupts the run the same way
  const human = panel?.human ?? (isInteractive(flags) ? terminalHuman(() => onSignal("SIGINT")) : nobody)
  return {
    store, local, home: ccodeHome(), human, reporter, env: process.env, interrupt: interrupt.signal, control: panel?.control,
    async close() {
      panel?.close()
      process.off("SIGINT", onSignal)
      process.off("SIGTERM", onSignal)
      if ("stop" in reporter) (reporter as { stop(): void }).stop()
      await store.close()
    },
  }
}

/** What to do next, for a person: pending requests and the commands that settle them. */
export function nextSteps(result: RunResult): string {
  if (result.status === "paused" && result.pending.length) {
    const lines = result.pending.map((p) => `  ${style.cyan(p.id)} ${p.kind}: ${p.title}`)
    const first = result.pending[0]!
    const how = first.kind === "question" ? `ccode answer ${result.runId} ${first.id} "..."` : `ccode approve ${result.runId} ${first.id}`
    return [`waiting for a person:`, ...lines, `to continue: ${how}  (or deny), then  ccode resume ${result.runId}`].join("\n")
  }
  if (["stopped", "interrupted", "denied"].includes(result.status)) return `to continue: ccode resume ${result.runId}`
  return ""
}

const PRIORITY = [2, 1, 5, 4, 3, 130, 0]

/** A batch exits with the highest-priority code among its runs: bad input (2) over failure (1), over
 *  the run-state codes (5, 4, 3), over interrupted (130), over success (0). */
export function batchExitCode(codes: number[]): number {
  for (const code of PRIORITY) if (codes.includes(code)) return code
  return codes.length ? Math.max(...codes) : 0
}
