// Texts tree-sitter-bash reads differently from bash: the parser would hand the walk a different script
// than the one bash runs, so commands could go unjudged. A pure pre-check over the raw text, run before
// either reader; a hit makes the command unresolvable (critical), like a parse error. It over-matches
// inside quotes on purpose (fail closed): these spellings are rare in real commands.
import type { SNode } from "./parser.ts"

/** Why the parser cannot be trusted on this text, or undefined when no known misreading applies. */
export function parserDivergence(text: string): string | undefined {
  // every check below needs one of these characters: most commands hold none and are read once, not per check
  if (!ANY_TRIGGER.test(text)) return undefined
  // bash does not take a vertical tab, form feed or carriage return as a blank (`ls\v#; cat x` runs cat),
  // tree-sitter does; a CRLF line end is refused the same way
  if (/[\v\f\r]/.test(text)) return "the command holds a vertical tab, form feed or carriage return, which bash does not read as a blank"
  // bash joins `a\<newline>#x` into one word; tree-sitter reads a comment
  if (text.includes("\\\n#")) return "a line continuation before # joins a word in bash but reads as a comment to the parser"
  if (text.includes("\\\n") && continuationJoins(text)) return "a line continuation after $ or inside an operator ($\\⏎( , $\\⏎', <\\⏎<), which bash removes before it reads the text: the parser reads other tokens"
  // bash 5.3 runs `${ CMD; }` and `${| CMD; }` in the current shell; the parser reads a parameter expansion
  if (/\$\{[\s|]/.test(text)) return "`${` followed by a blank or `|` is a command substitution run in the current shell (bash 5.3), which the parser reads as a parameter expansion"
  // `_=x cmd`, `_+=v cmd`: the parser takes an assignment to `_` for the command's name
  if (text.includes("_") && /(^|[\s;&|(){}`])_\+?=/.test(text)) return "an assignment to _ (_=v), which the parser reads as a command name"
  if (text.includes("$'") && ansiEndsInBackslash(text)) return "a $'…' string with an escaped backslash, which the parser reads past its end"
  if (text.includes("<<") && oddHeredocDelimiter(text)) return "a here-document delimiter with quotes inside it, which bash and the parser end at different lines"
  return undefined
}

// \v \f \r; the backslash of a continuation; `$` of `${` and `$'`; `_` of `_=`; `<` of `<<`
const ANY_TRIGGER = /[\v\f\r\\$_<]/

const JOINED = new Set(["<<", "<&", "<>", "<(", ">>", ">&", ">|", ">(", "&>", "&&", "||", "|&", ";;", ";&"])

// a backslash-newline (or a run of them) right after `$`, or between the two characters of an operator:
// bash joins them (`$\⏎(cmd)` is a command substitution, also inside double quotes), the parser does not.
// Inside single quotes too (fail closed: rare there).
function continuationJoins(text: string): boolean {
  for (let at = text.indexOf("\\\n"); at >= 0; at = text.indexOf("\\\n", at + 1)) {
    let next = at
    while (text.startsWith("\\\n", next)) next += 2
    const prev = text[at - 1]
    if (prev === "$" || JOINED.has(`${prev}${text[next] ?? ""}`)) return true
  }
  return false
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
export function treeDivergence(node: SNode, src: string, inBraces = false): Divergence | undefined {
  const why = nodeDivergence(node, src, inBraces)
  if (why) return typeof why === "string" ? { why } : why
  if (node.type === "command_substitution") inBraces = false
  else if (node.type === "expansion") inBraces = true
  for (const c of node.children) {
    const found = treeDivergence(c, src, inBraces)
    if (found) return found
  }
  return undefined
}

export interface Divergence {
  why: string
  /** the offset of a line end (or the blank before a comment) where bash ends a command of assignments
   *  alone and the parser reads on: a `;` there means the same to bash, and the parser reads it too */
  lineEnd?: number
}

// the misreading at this node itself (its children are checked by the caller)
function nodeDivergence(node: SNode, src: string, inBraces: boolean): string | Divergence | undefined {
  // a backquote in a word, pattern or string text (not quoted text, a comment or a here-document's)
  if (!node.children.length && !LITERAL_LEAVES.has(node.type) && unescaped(src, node.start, node.end, "`")) return BACKQUOTE_AS_TEXT
  switch (node.type) {
    case "word":
      if (!inBraces && unescapedSplit(src, node.start, node.end)) return "a word the parser reads across a line end, blank or operator (a line that starts with a backslash joins the line above), where bash starts a new word or command"
      break
    case "heredoc_redirect":
      if (heredocLineRunsOn(node, src)) return "a here-document whose first body line is a line continuation: the parser joins it to the command line, bash reads it as the body (and may end the body there)"
      if (heredocBackquote(node, src)) return BACKQUOTE_AS_TEXT
      if (heredocEndMoves(node, src)) return "a here-document whose body has a line continuation: bash joins the lines before it looks for the delimiter (EO\\ and F end it), so it ends the body at another line than the parser"
      break
    case "command":
      for (let i = 1; i < node.children.length; i++) {
        if (unescaped(src, node.children[i - 1]!.end, node.children[i]!.start, "\n")) return commandPastLineEnd(node.children, i, src)
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
      break
  }
  return undefined
}

const PAST_LINE_END = "a command the parser reads on past a line end (a line that is only a backslash), where bash ends it"

// tree-sitter-bash reads a line of two or more assignments alone (`A=1 B=2`, newline, `echo $A`) as one
// command running on into the next line; bash ends it at the line end. When everything before the gap
// is assignments (then at most a comment) the parser read well, the gap holds only blanks and line
// continuations before a real line end, and no here-document body or alias could start there, the
// place bash ends the command is given for a repair; anything else stays a misreading.
function commandPastLineEnd(children: SNode[], gapAfter: number, src: string): Divergence {
  const comment = children[gapAfter - 1]!.type === "comment" ? children[gapAfter - 1]! : undefined
  const assignments = children.slice(0, comment ? gapAfter - 1 : gapAfter)
  if (!assignments.length || assignments.some((c) => c.type !== "variable_assignment")) return { why: PAST_LINE_END }
  for (const c of assignments) {
    const inner = treeDivergence(c, src)
    if (inner) return { why: inner.why }
  }
  const last = assignments.at(-1)!
  const end = comment ? comment.start : firstUnescaped(src, last.end, "\n")
  const gap = src.slice(last.end, end + (comment ? 0 : 1))
  const fits = comment ? /^(?:[ \t]|\\\n)*[ \t]$/.test(gap) : /^(?:[ \t]|\\\n)*\n$/.test(gap)
  const at = comment ? end - 1 : end
  if (!fits || /(^|[^\\])(\\\\)*\\$/.test(src.slice(last.start, last.end)) || /<<|alias/i.test(src.slice(0, at).replace(/<<<+/g, ""))) return { why: PAST_LINE_END }
  return { why: PAST_LINE_END, lineEnd: at }
}

const LITERAL_LEAVES = new Set(["`", "raw_string", "ansi_c_string", "comment", "heredoc_start", "heredoc_body", "heredoc_content", "heredoc_end"])

const BACKQUOTE_AS_TEXT = "a backquoted substitution the parser reads as text (inside ${…} or an unquoted here-document), which bash runs"

// words the parser gives the `<<WORD` line past a line end: a first body line that is only `\` makes it
// join the next body line to the command line, where bash starts the body at that line end
function heredocLineRunsOn(node: SNode, src: string): boolean {
  const start = node.children.findIndex((c) => c.type === "heredoc_start")
  if (start < 0) return false
  const end = node.children.findIndex((c) => c.type === "heredoc_body" || c.type === "heredoc_end")
  return runsOn(node.children.slice(start, end < 0 ? undefined : end), src)
}

// an unescaped line end between these nodes, or between the parts of a redirection or word among them
function runsOn(nodes: SNode[], src: string): boolean {
  for (let i = 0; i < nodes.length; i++) {
    const c = nodes[i]!
    if (i > 0 && unescaped(src, nodes[i - 1]!.end, c.start, "\n")) return true
    if ((c.type.endsWith("_redirect") || c.type === "concatenation") && runsOn(c.children, src)) return true
  }
  return false
}

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
  return firstUnescaped(src, start, char, end) < end
}

// the offset of the first `char` from start on (before end) not escaped by a backslash, or end
function firstUnescaped(src: string, start: number, char: string, end = src.length): number {
  for (let i = start; i < end; i++) {
    if (src[i] === "\\") i++
    else if (src[i] === char) return i
  }
  return end
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
