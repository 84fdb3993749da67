// Texts tree-sitter-bash reads differently from bash: the parser would hand the walk a different script
// than the one bash runs, so commands could go unjudged. A pure pre-check over the raw text, run before
// either reader; a hit makes the command unresolvable (critical), like a parse error. It over-matches
// inside quotes on purpose (fail closed): these spellings are rare in real commands.
import type { SNode } from "./parser.ts"

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

/** Why the parsed tree cannot be what bash reads, or undefined. Shapes found by running bash and the
 *  parser side by side on small texts: a word node never holds a blank, line end or operator character
 *  bash would split at, the parts of one word are never apart, a command never runs past a line end,
 *  and a backquoted substitution holds none of the escapes bash removes before it reads the text again.
 *  Inside `${…}` bash reads on to the closing brace (`${x:-a b}` is one word): no word checks there,
 *  until a command substitution starts a script again. */
export function treeDivergence(node: SNode, src: string, inBraces = false): string | undefined {
  // a backquote in a word, pattern or string text (not quoted text, a comment or a here-document's)
  if (!node.children.length && !LITERAL_LEAVES.has(node.type) && unescaped(src, node.start, node.end, "`")) return BACKQUOTE_AS_TEXT
  switch (node.type) {
    case "word":
      if (!inBraces && unescapedSplit(src, node.start, node.end)) return "a word the parser reads across a line end, blank or operator (a line that starts with a backslash joins the line above), where bash starts a new word or command"
      break
    case "heredoc_redirect":
      if (heredocBackquote(node, src)) return BACKQUOTE_AS_TEXT
      if (heredocEndMoves(node, src)) return "a here-document whose body has a line continuation: bash joins the lines before it looks for the delimiter (EO\\ and F end it), so it ends the body at another line than the parser"
      break
    case "command":
      for (let i = 1; i < node.children.length; i++) {
        if (unescaped(src, node.children[i - 1]!.end, node.children[i]!.start, "\n")) return "a command the parser reads on past a line end (a line that is only a backslash), where bash ends it"
      }
      break
    case "concatenation":
      if (inBraces) break
      for (let i = 1; i < node.children.length; i++) {
        const gap = src.slice(node.children[i - 1]!.end, node.children[i]!.start)
        if (gap && !/^(\\\n)+$/.test(gap)) return "parts the parser joins into one word across a blank (an empty `` substitution), which bash reads as separate words"
      }
      break
    case "command_substitution":
      if (src[node.start] === "`" && /\\[`$\\"]/.test(src.slice(node.start + 1, node.end - 1))) return "a backquoted substitution holding \\`, \\$, \\\\ or \\\": bash removes those backslashes and reads the text again (a nested substitution), the parser does not"
      inBraces = false
      break
    case "expansion":
      inBraces = true
      break
  }
  for (const c of node.children) {
    const why = treeDivergence(c, src, inBraces)
    if (why) return why
  }
  return undefined
}

const LITERAL_LEAVES = new Set(["`", "raw_string", "ansi_c_string", "comment", "heredoc_start", "heredoc_body", "heredoc_content", "heredoc_end"])

const BACKQUOTE_AS_TEXT = "a backquoted substitution the parser reads as text (inside ${…} or an unquoted here-document), which bash runs"

// an unquoted here-document's body holding a backquote outside the substitutions the parser found
function heredocBackquote(node: SNode, src: string): boolean {
  const start = node.children.find((c) => c.type === "heredoc_start")
  const body = node.children.find((c) => c.type === "heredoc_body")
  if (!start || !body || /['"\\]/.test(src.slice(start.start, start.end))) return false
  let at = body.start
  for (const c of body.children) {
    if (c.type === "heredoc_content") continue
    if (unescaped(src, at, c.start, "`")) return true
    at = c.end
  }
  return unescaped(src, at, body.end, "`")
}

// An unquoted here-document: bash removes backslash-newline from the body's lines before comparing them
// with the delimiter, the parser does not. True when bash would end the body at another line than the
// parser's end line (`EO\` + `F` ends it early; `x\` + `EOF` runs on); with `<<-` any continuation.
function heredocEndMoves(node: SNode, src: string): boolean {
  const start = node.children.find((c) => c.type === "heredoc_start")
  const end = node.children.find((c) => c.type === "heredoc_end")
  if (!start || !end || /['"\\]/.test(src.slice(start.start, start.end))) return false
  const body = node.children.find((c) => c.type === "heredoc_body")
  const from = src.lastIndexOf("\n", (body ?? end).start - 1) + 1
  const lines = src.slice(from, end.end).split("\n")
  const continued = (l: string) => /(^|[^\\])(\\\\)*\\$/.test(l)
  if (!lines.slice(0, -1).some(continued)) return false
  if (node.children.some((c) => c.type === "<<-")) return true
  const delimiter = src.slice(start.start, start.end)
  let logical = ""
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (continued(line) && i < lines.length - 1) {
      logical += line.slice(0, -1)
      continue
    }
    logical += line
    if (logical === delimiter) return i !== lines.length - 1 || logical !== line
    logical = ""
  }
  return true
}

// the character `char` in src[start, end), not escaped by a backslash
function unescaped(src: string, start: number, end: number, char: string): boolean {
  for (let i = start; i < end; i++) {
    if (src[i] === "\\") i++
    else if (src[i] === char) return true
  }
  return false
}

// a blank, line end or operator character (; | & < > ( )) in src[start, end) not escaped by a backslash
function unescapedSplit(src: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = src[i]!
    if (c === "\\") i++
    else if (SPLITS.includes(c)) return true
  }
  return false
}

const SPLITS = " \t\n;|&<>()"
