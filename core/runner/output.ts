// What events, `runs show`, summaries and the terminal show of a step's output: the redacted text,
// capped to a head and a tail (failures speak at the end), with the full byte count. Pure.

/** Characters of output kept at the start and at the end in a `step.finished` event. */
export const EVENT_HEAD = 2 * 1024
export const EVENT_TAIL = 6 * 1024

export interface OutputExcerpt {
  output: string
  /** some of the output is not in `output` (capped here, or when it was stored) */
  truncated: boolean
  /** bytes the tool produced in all */
  bytes: number
}

/** `text` is already redacted (so its length may differ from `bytes`, the size of everything the tool wrote). */
export function excerpt(text: string, bytes: number, head = EVENT_HEAD, tail = EVENT_TAIL): OutputExcerpt {
  const stored = Buffer.byteLength(text)
  if (text.length <= head + tail) return { output: text, truncated: text.includes(OMITTED), bytes: Math.max(bytes, stored) }
  const dropped = text.length - head - tail
  const output = `${text.slice(0, head)}\n[... ${dropped} characters omitted ...]\n${text.slice(text.length - tail)}`
  return { output, truncated: true, bytes: Math.max(bytes, stored) }
}

// the marker capText (core/tools/envelope.ts) leaves where it cut a large output
const OMITTED = " characters omitted ...]\n"

/** The last `n` non-empty lines of an output, for failure reports. */
export function lastLines(text: string, n: number): string[] {
  const lines = text.replace(/\s+$/, "").split("\n")
  return lines.slice(Math.max(0, lines.length - n)).filter((line, i, all) => line.trim() || i < all.length - 1)
}
