// The one-line status at a terminal: redrawn in place, so it must never be wider than the terminal
// (a wrapped line leaves a stale copy behind on every redraw). Pure: the width is passed in.
import { terminalSafe } from "./safe-text.ts"

/** Segments of text with their colour; the last ones are cut first. Width counts visible characters. */
export function fitLine(segments: { text: string; paint?: (text: string) => string }[], width: number): string {
  let room = Math.max(0, width - 1) // the last column would wrap the cursor on some terminals
  const out: string[] = []
  for (const { text, paint } of segments) {
    if (room <= 0) break
    const chars = [...terminalSafe(text.replace(/[\r\n\t]+/g, " "))]
    const shown = chars.length <= room ? chars.join("") : `${chars.slice(0, Math.max(0, room - 1)).join("")}…`
    room -= [...shown].length
    out.push(paint ? paint(shown) : shown)
  }
  return out.join("")
}
