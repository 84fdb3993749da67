// CCODE_TRACE_STARTUP=1: where a budgeted command's start-up time goes (`ccode hook`, `ccode policy
// check`), one line per stage on stderr (docs/hosts.md). Off, a mark costs one comparison.
import { writeSync } from "node:fs"

const TRACE = process.env.CCODE_TRACE_STARTUP === "1"
let last = 0

/** Wall time since the previous mark (since the process's time origin for the first one). */
export function mark(stage: string): void {
  if (!TRACE) return
  const now = performance.now()
  writeSync(2, `startup ${stage.padEnd(12)} +${(now - last).toFixed(2)} ms (at ${now.toFixed(2)})\n`)
  last = performance.now() // the trace's own writing is not counted
}
