// Whether a run gets the live panel or today's line output. Pure: the terminal's facts are passed in.

export const MIN_COLUMNS = 40
export const MIN_ROWS = 12

export interface TerminalFacts {
  /** a person can answer (not --json, not --non-interactive, not CI, stdin and stderr TTYs) */
  interactive: boolean
  stdoutTTY: boolean
  batch: boolean
  quiet: boolean
  term?: string
  /** CCODE_PANEL=0 turns the panel off */
  panelEnv?: string
  columns?: number
  rows?: number
}

/** undefined: show the panel; otherwise why the line output is used instead. */
export function panelFallback(t: TerminalFacts): string | undefined {
  if (!t.interactive) return "nobody at a terminal"
  if (!t.stdoutTTY) return "stdout is not a terminal"
  if (t.panelEnv === "0") return "CCODE_PANEL=0"
  if (!t.term || t.term === "dumb") return "TERM=dumb"
  if (t.batch) return "a batch of several tasks"
  if (t.quiet) return "--quiet"
  if ((t.columns ?? 0) < MIN_COLUMNS || (t.rows ?? 0) < MIN_ROWS) return `terminal smaller than ${MIN_COLUMNS}x${MIN_ROWS}`
  return undefined
}

/** NO_COLOR (any non-empty value) and TERM=dumb turn colour off. */
export function colorWanted(env: Record<string, string | undefined>): boolean {
  return !env.NO_COLOR && env.TERM !== "dumb"
}
