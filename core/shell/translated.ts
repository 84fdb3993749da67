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

// a pattern tree-sitter keeps as one leaf (`${x#$"h"}`, `${x/$"h"/}`, `[[ x =~ $"h" ]]`): bash translates a
// `$"..."` in it all the same
const PATTERN_LEAVES = new Set(["regex", "extglob_pattern", "word"])

/** Whether `c`, a child of `parent`, is a `$"..."` bash translates: an argument, or inside a pattern leaf. */
export function translatedChild(src: string, parent: SNode, c: SNode): boolean {
  if (parent.type !== "string" && translated(src, c)) return true
  return !c.children.length && PATTERN_LEAVES.has(c.type) && translatedIn(src, c.start, c.end)
}
