// What a step hands to later steps: `key=value` lines (and GitHub's `key<<DELIM` ... `DELIM`
// multi-line form) in the file named by $CCODE_OUTPUT. Pure parsing; the caller reads the file.

/** The file may hold at most this much; more is a failed step, never a silently cut value. */
export const MAX_OUTPUT_BYTES = 1024 * 1024
const KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/

export class OutputFileError extends Error {}

export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null)
  const lines = text.split("\n")
  if (lines.at(-1) === "") lines.pop()
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, "")
    if (line.trim() === "") continue
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line)
    const eq = line.indexOf("=")
    if (heredoc && (eq < 0 || heredoc[1]!.length < eq)) {
      const [, key, delimiter] = heredoc
      checkKey(key!, i)
      const body: string[] = []
      let closed = false
      for (i++; i < lines.length; i++) {
        const next = lines[i]!.replace(/\r$/, "")
        if (next === delimiter) {
          closed = true
          break
        }
        body.push(next)
      }
      if (!closed) throw new OutputFileError(`$CCODE_OUTPUT: "${key}<<${delimiter}" has no closing "${delimiter}" line`)
      out[key!] = body.join("\n")
      continue
    }
    if (eq <= 0) throw new OutputFileError(`$CCODE_OUTPUT line ${i + 1}: expected key=value or key<<DELIMITER`)
    const key = line.slice(0, eq)
    checkKey(key, i)
    out[key] = line.slice(eq + 1)
  }
  return out
}

function checkKey(key: string, line: number): void {
  if (!KEY.test(key)) throw new OutputFileError(`$CCODE_OUTPUT line ${line + 1}: "${key.slice(0, 40)}" is not a valid output name (letters, digits, '_', '-')`)
}

/** A plugin tool's structured result, as outputs: its top-level scalar fields (objects as JSON). */
export function outputsOfData(data: unknown): Record<string, string> {
  const out: Record<string, string> = Object.create(null)
  if (!data || typeof data !== "object" || Array.isArray(data)) return out
  for (const [key, value] of Object.entries(data)) {
    if (!KEY.test(key) || value === undefined) continue
    out[key] = typeof value === "string" ? value : JSON.stringify(value)
  }
  return out
}
