// The code of a script for a POSIX shell, with what that shell never reads as code blanked: comments (a
// `#` that starts a word, to the end of its line) and here-document bodies (the lines after the
// command's line, up to the delimiter line). The text checks of grammars.ts and posixwords.ts read
// quotes and words: an apostrophe in `it's` of a comment or a body would open a "quote" that runs to the
// next one of the script and hide the code between. What an unquoted body expands (`$(…)`, `` `…` ``,
// `${…}`) is code and is kept. Where the reading is unsure it keeps the text (a body whose delimiter line
// never comes stays: the checks then read more, not less). Newlines are kept, so are offsets. Pure.

interface Heredoc {
  delimiter: string
  /** <<- strips leading tabs from the body's lines and the delimiter line */
  tabs: boolean
  /** a quoted delimiter: the body is text, nothing in it expands */
  quoted: boolean
}

interface Lexer {
  s: string
  i: number
  out: string
  pending: Heredoc[]
  /** groups open around the reader; past MAX_DEPTH the rest is kept as it is (read as code) */
  depth: number
  /** where each line starts, by its text (and by its text without leading tabs), built on the first body */
  lines?: { exact: Map<string, number[]>; tabless: Map<string, number[]> }
}

const MAX_DEPTH = 100

/** Past MAX_DEPTH nested groups: the rest of the text is kept as it is (no stack grows without bound). */
function tooDeep(l: Lexer): boolean {
  if (l.depth < MAX_DEPTH) return false
  l.out += l.s.slice(l.i)
  l.i = l.s.length
  return true
}

// characters after which a `#` starts a comment (a word starts there)
const WORD_BREAK = " \t\n;&|()<>"

/** The script with comments and here-document bodies blanked (spaces, newlines kept). */
export function codeOnly(script: string): string {
  if (!script.includes("#") && !script.includes("<<")) return script
  const l: Lexer = { s: script, i: 0, out: "", pending: [], depth: 0 }
  code(l, undefined)
  return l.out
}

function blank(text: string): string {
  return text.replace(/[^\n]/g, " ")
}

function copy(l: Lexer, n: number): void {
  l.out += l.s.slice(l.i, l.i + n)
  l.i += n
}

/** Shell code up to `stop` (`)` of `$(`, a backquote) at depth 0, or the end; the stop is not consumed. */
function code(l: Lexer, stop: ")" | "`" | undefined): void {
  const s = l.s
  let depth = 0
  let wordStart = true
  while (l.i < s.length) {
    const c = s[l.i]!
    if (c === "\\") {
      // a line continuation is not there at all: a `#` after it may still start a word
      if (s[l.i + 1] !== "\n") wordStart = false
      copy(l, 2)
      continue
    }
    if (stop === ")" && c === ")" && depth === 0) return
    if (stop === "`" && c === "`") return
    if (c === "#" && wordStart) {
      // inside backquotes the shell has cut the text at the closing one first: the comment ends there too
      const end = s.indexOf("\n", l.i)
      const tick = stop === "`" ? s.indexOf("`", l.i) : -1
      const stopAt = Math.min(end < 0 ? s.length : end, tick < 0 ? s.length : tick)
      l.out += blank(s.slice(l.i, stopAt))
      l.i = stopAt
      continue
    }
    if (c === "\n") {
      copy(l, 1)
      if (l.pending.length) bodies(l)
      wordStart = true
      continue
    }
    if (c === "'") {
      const end = s.indexOf("'", l.i + 1)
      copy(l, (end < 0 ? s.length : end + 1) - l.i)
    } else if (c === '"') doubleQuoted(l)
    else if (c === "`") nested(l, "`")
    else if (c === "$" && s[l.i + 1] === "(" && s[l.i + 2] === "(") arithmetic(l, 3)
    else if (c === "$" && s[l.i + 1] === "(") nested(l, ")")
    else if (c === "$" && s[l.i + 1] === "{") braced(l)
    else if (c === "(" && s[l.i + 1] === "(" && wordStart) arithmetic(l, 2)
    else if (c === "<" && s[l.i + 1] === "<" && s[l.i + 2] === "<") copy(l, 3)
    else if (c === "<" && s[l.i + 1] === "<") heredoc(l)
    else {
      if (c === "(") depth++
      else if (c === ")") depth--
      copy(l, 1)
    }
    wordStart = WORD_BREAK.includes(c)
  }
}

/** `$(…)` or `` `…` `` from l.i: the opening, the code inside, the closing. A here-document started before
 *  it has its body after the group's line, not inside it; one started inside it and not ended there has
 *  no body (dash: `x=$(cat <<E)` then lines of code): both as dash reads them (checked with dash 0.5). */
function nested(l: Lexer, stop: ")" | "`"): void {
  if (tooDeep(l)) return
  const outer = l.pending
  l.pending = []
  l.depth++
  copy(l, stop === ")" ? 2 : 1)
  code(l, stop)
  if (l.i < l.s.length) copy(l, 1)
  l.depth--
  l.pending = outer
}

/** `$((…))` / `((…))`: arithmetic, where `<<` is a shift and `#` a base; copied to the closing `))`. */
function arithmetic(l: Lexer, open: number): void {
  const s = l.s
  let depth = 0
  let j = l.i + open
  for (; j < s.length; j++) {
    if (s[j] === "(") depth++
    else if (s[j] === ")" && depth > 0) depth--
    else if (s[j] === ")" && s[j + 1] === ")") {
      j += 2
      break
    }
  }
  copy(l, Math.min(j, s.length) - l.i)
}

/** `${…}`: copied to its closing brace, quotes and nested expansions inside followed. */
function braced(l: Lexer): void {
  const s = l.s
  if (tooDeep(l)) return
  l.depth++
  copy(l, 2)
  while (l.i < s.length && s[l.i] !== "}") {
    const c = s[l.i]!
    if (c === "\\") copy(l, 2)
    else if (c === "'") {
      const end = s.indexOf("'", l.i + 1)
      copy(l, (end < 0 ? s.length : end + 1) - l.i)
    } else if (c === '"') doubleQuoted(l)
    else if (c === "`") nested(l, "`")
    else if (c === "$" && s[l.i + 1] === "(") nested(l, ")")
    else if (c === "$" && s[l.i + 1] === "{") braced(l)
    else copy(l, 1)
  }
  if (l.i < s.length) copy(l, 1)
  l.depth--
}

/** `"…"` from l.i: copied, the expansions inside followed (a `)` or `"` inside `$(…)` does not end it). */
function doubleQuoted(l: Lexer): void {
  const s = l.s
  if (tooDeep(l)) return
  l.depth++
  copy(l, 1)
  while (l.i < s.length && s[l.i] !== '"') {
    const c = s[l.i]!
    if (c === "\\") copy(l, 2)
    else if (c === "`") nested(l, "`")
    else if (c === "$" && s[l.i + 1] === "(" && s[l.i + 2] === "(") arithmetic(l, 3)
    else if (c === "$" && s[l.i + 1] === "(") nested(l, ")")
    else if (c === "$" && s[l.i + 1] === "{") braced(l)
    else copy(l, 1)
  }
  if (l.i < s.length) copy(l, 1)
  l.depth--
}

/** `<<WORD` / `<<-WORD`: the operator and the delimiter word are copied; the body is read at the next newline. */
function heredoc(l: Lexer): void {
  const s = l.s
  copy(l, 2)
  const tabs = s[l.i] === "-"
  if (tabs) copy(l, 1)
  while (s[l.i] === " " || s[l.i] === "\t") copy(l, 1)
  let delimiter = ""
  let quoted = false
  while (l.i < s.length && !WORD_BREAK.includes(s[l.i]!)) {
    const c = s[l.i]!
    if (c === "\\") {
      quoted = true
      delimiter += s[l.i + 1] ?? ""
      copy(l, 2)
    } else if (c === "'" || c === '"') {
      quoted = true
      const end = s.indexOf(c, l.i + 1)
      const stopAt = end < 0 ? s.length : end
      delimiter += s.slice(l.i + 1, stopAt)
      copy(l, Math.min(stopAt + 1, s.length) - l.i)
    } else {
      delimiter += c
      copy(l, 1)
    }
  }
  // no delimiter (`<<` at the end, `<< ;`): not a here-document this reader knows; nothing is blanked
  if (delimiter) l.pending.push({ delimiter, tabs, quoted })
}

/** The bodies of the pending here-documents, from the start of the line after their command's line. */
function bodies(l: Lexer): void {
  const s = l.s
  const pending = l.pending
  l.pending = []
  l.lines ??= lineIndex(s)
  for (const h of pending) {
    const found = firstAtOrAfter((h.tabs ? l.lines.tabless : l.lines.exact).get(h.delimiter), l.i)
    // the delimiter line never comes: the shell reads the rest as the body; kept here (fail closed)
    if (found < 0) return
    const body = s.slice(l.i, found)
    l.out += h.quoted ? blank(body) : expansionsOf(body)
    const nl = s.indexOf("\n", found)
    const end = nl < 0 ? s.length : nl + 1
    l.out += blank(s.slice(found, end))
    l.i = end
  }
}

// one pass over the script: a here-document's delimiter line is then looked up, not searched for (a script
// of many here-documents whose delimiter never comes stays linear)
function lineIndex(s: string): { exact: Map<string, number[]>; tabless: Map<string, number[]> } {
  const exact = new Map<string, number[]>()
  const tabless = new Map<string, number[]>()
  const add = (map: Map<string, number[]>, key: string, at: number) => {
    const list = map.get(key)
    if (list) list.push(at)
    else map.set(key, [at])
  }
  for (let at = 0; at <= s.length; ) {
    const nl = s.indexOf("\n", at)
    const end = nl < 0 ? s.length : nl
    const line = s.slice(at, end)
    add(exact, line, at)
    add(tabless, line.replace(/^\t+/, ""), at)
    if (nl < 0) break
    at = nl + 1
  }
  return { exact, tabless }
}

/** The first line start in `starts` (ascending) at or after `from`; -1 when none. */
function firstAtOrAfter(starts: number[] | undefined, from: number): number {
  if (!starts) return -1
  let lo = 0
  let hi = starts.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (starts[mid]! < from) lo = mid + 1
    else hi = mid
  }
  return lo < starts.length ? starts[lo]! : -1
}

/** An unquoted body: its `$(…)`, `` `…` `` and `${…}` kept (they run), the rest blanked. */
function expansionsOf(body: string): string {
  const l: Lexer = { s: body, i: 0, out: "", pending: [], depth: 0 }
  while (l.i < body.length) {
    const c = body[l.i]!
    if (c === "\\") {
      l.out += blank(body.slice(l.i, l.i + 2))
      l.i += 2
    } else if (c === "`") nested(l, "`")
    else if (c === "$" && body[l.i + 1] === "(" && body[l.i + 2] === "(") arithmetic(l, 3)
    else if (c === "$" && body[l.i + 1] === "(") nested(l, ")")
    else if (c === "$" && body[l.i + 1] === "{") braced(l)
    else {
      l.out += c === "\n" ? "\n" : " "
      l.i++
    }
  }
  return l.out
}
