// `$"…"` strings: bash looks them up in a message catalog and expands the translation, so their finding
// is raised wherever one stands, including the spots the parser keeps as one leaf. Pure.
import type { SNode } from "./parser.ts"

// bash looks `$"..."` up in the message catalog of $TEXTDOMAIN under $TEXTDOMAINDIR (both may be inherited)
// and expands the translation as a double-quoted string: its `$(..)` would run
export const TRANSLATED = Object.freeze({
  name: "translated-string", level: "medium" as const,
  reason: "a $\"...\" string is replaced by its translation from a message catalog (TEXTDOMAIN, TEXTDOMAINDIR), whose $(..) bash runs",
})

// tree-sitter reads an argument `$"..."` as a lone `$` before a string (an assignment's value as translated_string)
export function translated(src: string, node: SNode): boolean {
  return node.type === "$" && src.charCodeAt(node.end) === 34
}

// a `$"` in src[start, end) outside quotes (inside '…' or "…" it is text)
export function translatedIn(src: string, start: number, end: number): boolean {
  let quote = ""
  for (let i = start; i < end; i++) {
    const c = src[i]!
    if (quote) {
      if (c === quote) quote = ""
      else if (c === "\\" && quote === '"') i++
    } else if (c === "\\") i++
    else if (c === "$" && src[i + 1] === '"') return true
    else if (c === "'" || c === '"') quote = c
  }
  return false
}
