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
// or any $'…' / $"…": bash removes the quotes, the parser ends the body at the literal line. A `<<` inside
// a quoted string is text, not an operator (`echo "notes<<EOF" >> "$CCODE_OUTPUT"`), and is skipped — but
// only while the quoting is certain: after a real here-document (its body is not shell syntax) or a
// command substitution inside double quotes, every later `<<` is checked.
function oddHeredocDelimiter(text: string): boolean {
  let quote: "'" | '"' | "$'" | undefined
  let unsure = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quote === "'") {
      if (c === "'") quote = undefined
      else if (unsure && c === "<" && text.startsWith("<<", i) && odd(text, i)) return true
      continue
    }
    if (c === "\\") {
      i++
      continue
    }
    if (quote === '"' || quote === "$'") {
      if (c === (quote === '"' ? '"' : "'")) quote = undefined
      else if (quote === '"' && (c === "`" || (c === "$" && text[i + 1] === "("))) unsure = true
      else if (unsure && c === "<" && text.startsWith("<<", i) && odd(text, i)) return true
      continue
    }
    if (c === "'") quote = "'"
    else if (c === '"') quote = '"'
    // a comment's quotes are not quotes: from here on nothing is taken as quoted
    else if (c === "#") unsure = true
    else if (c === "$" && text[i + 1] === "'") {
      quote = "$'"
      i++
    } else if (c === "<" && text.startsWith("<<", i)) {
      if (text[i + 2] === "<") {
        i += 2
        continue
      }
      if (odd(text, i)) return true
      unsure = true
      i++
    }
  }
  return false
}

// the delimiter word after the `<<` at `at` holds quotes other than one pair around it all
function odd(text: string, at: number): boolean {
  if (text[at + 2] === "<" || text[at - 1] === "<") return false
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
  if (!/['"]/.test(word)) return false
  return !(/^'[^']*'$/.test(word) || /^"[^"$`\\]*"$/.test(word))
}
