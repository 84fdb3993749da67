// Texts tree-sitter-bash reads differently from bash: the parser would hand the walk a different script
// than the one bash runs, so commands could go unjudged. A pure pre-check over the raw text, run before
// either reader; a hit makes the command unresolvable (critical), like a parse error. It over-matches
// inside quotes on purpose (fail closed): these spellings are rare in real commands.

/** Why the parser cannot be trusted on this text, or undefined when no known misreading applies. */
export function parserDivergence(text: string): string | undefined {
  // bash does not take a vertical tab, form feed or carriage return as a blank (`ls\v#; cat x` runs cat),
  // tree-sitter does; a CRLF line end is refused the same way
  if (/[\v\f\r]/.test(text)) return "the command holds a vertical tab, form feed or carriage return, which bash does not read as a blank"
  // bash joins `a\<newline>#x` into one word; tree-sitter reads a comment
  if (text.includes("\\\n#")) return "a line continuation before # joins a word in bash but reads as a comment to the parser"
  if (text.includes("$'") && ansiEndsInBackslash(text)) return "a $'…' string with an escaped backslash, which the parser reads past its end"
  if (text.includes("<<") && oddHeredocDelimiter(text)) return "a here-document delimiter with quotes inside it, which bash and the parser end at different lines"
  return undefined
}

// any $'…' string holding a `\\` escape (the parser takes `\\'` for an escaped quote and reads on)
function ansiEndsInBackslash(text: string): boolean {
  for (let at = text.indexOf("$'"); at >= 0; at = text.indexOf("$'", at + 1)) {
    for (let i = at + 2; i < text.length && text[i] !== "'"; i++) {
      if (text[i] !== "\\") continue
      if (text[i + 1] === "\\") return true
      i++
    }
  }
  return false
}

const WORD_END = new Set([" ", "\t", "\n", ";", "&", "|", "<", ">", "(", ")"])

// a `<<` / `<<-` (not `<<<`) whose delimiter holds quotes other than one pair around the whole word,
// or any $'…' / $"…": bash removes the quotes, the parser ends the body at the literal line
function oddHeredocDelimiter(text: string): boolean {
  for (let at = text.indexOf("<<"); at >= 0; at = text.indexOf("<<", at + 2)) {
    if (text[at + 2] === "<" || text[at - 1] === "<") {
      at++
      continue
    }
    let i = at + 2
    if (text[i] === "-") i++
    while (text[i] === " " || text[i] === "\t") i++
    const start = i
    while (i < text.length && !WORD_END.has(text[i]!)) {
      const c = text[i]!
      if (c === "\\") i += 2
      else if (c === "'" || c === '"') {
        const close = text.indexOf(c, i + 1)
        i = close < 0 ? text.length : close + 1
      } else i++
    }
    const word = text.slice(start, i)
    if (!/['"]/.test(word)) continue
    if (/^'[^']*'$/.test(word) || /^"[^"$`\\]*"$/.test(word)) continue
    return true
  }
  return false
}
