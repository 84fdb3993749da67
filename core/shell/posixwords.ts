// The words of a script for a shell other than bash, after quote removal: the checks of grammars.ts
// must not depend on how a word is spelled (`\alias`, `al""ias`, `ev''al`, `\:`, `"".*`, a line
// continuation), since that shell removes the quotes before it looks a command up or globs a word. A
// small reader, not a parser: where it is unsure it reads more words as command names (fail closed). Pure.
import { codeOnly } from "./posixlex.ts"

/** What a script does that a shell other than bash reads otherwise, found on quote-removed words. */
export interface WordFacts {
  alias?: boolean
  /** eval or trap runs quoted text as code */
  evalText?: boolean
  /** eval or trap runs text with an expansion in it: what that shell reads there is known only at run time */
  evalExpanded?: boolean
  /** NAME=value before a special builtin */
  specialAssign?: boolean
  /** echo with a backslash in its arguments, piped on */
  echoPiped?: boolean
  /** a glob word (or path part) whose quote-removed text starts with `.` and then a glob character */
  dotGlob?: boolean
  /** a glob word (or path part) that starts with an expansion (`$x*`: x may be `.`) */
  expansionGlob?: boolean
}

interface Word {
  raw: string
  value: string
  /** per character of value: true when it was unquoted (a glob character there globs) */
  bare: boolean[]
  /** value indexes where an expansion starts (a `$` or backquote outside single quotes), with its end */
  expansions: Map<number, number>
}

interface Command {
  words: Word[]
  piped: boolean
}

const SEPARATOR = " \t\n;&|()<>"
const KEYWORDS = new Set(["if", "then", "do", "else", "elif", "while", "until", "!", "{", "}", "time", "fi", "done"])
const SPECIAL = new Set([":", ".", "eval", "exit", "export", "readonly", "return", "set", "shift", "times", "trap", "unset", "break", "continue", "exec"])
const ASSIGNMENT = /^[A-Za-z_]\w*=/

/** The index after a balanced `$(…)`, `${…}` or backticked group that starts at `i`: quotes inside it (a
 *  `)` in `"…"`), and the groups nested in them, are followed (comments are blanked before, posixlex.ts). */
function groupEnd(s: string, i: number, nesting = 0): number {
  // past 100 nested groups the group runs to the end of the text (no stack grows without bound)
  if (nesting > 100) return s.length
  if (s[i] === "`") {
    let j = i + 1
    while (j < s.length && s[j] !== "`") j += s[j] === "\\" ? 2 : 1
    return Math.min(j + 1, s.length)
  }
  const open = s[i + 1]!
  const close = open === "(" ? ")" : "}"
  let depth = 0
  for (let j = i + 1; j < s.length; j++) {
    const c = s[j]
    if (c === "\\") j++
    else if (c === "'") {
      const k = s.indexOf("'", j + 1)
      j = k < 0 ? s.length : k
    } else if (c === '"') j = quotedEnd(s, j, nesting + 1) - 1
    else if (c === "`" || (c === "$" && (s[j + 1] === "(" || s[j + 1] === "{"))) j = groupEnd(s, j, nesting + 1) - 1
    else if (c === open) depth++
    else if (c === close && --depth === 0) return j + 1
  }
  return s.length
}

/** The index after the double-quoted string that starts at `i`. */
function quotedEnd(s: string, i: number, depth: number): number {
  let j = i + 1
  while (j < s.length && s[j] !== '"') {
    if (s[j] === "\\") j += 2
    else if (s[j] === "`" || (s[j] === "$" && (s[j + 1] === "(" || s[j + 1] === "{"))) j = groupEnd(s, j, depth + 1)
    else j++
  }
  return Math.min(j + 1, s.length)
}

/** One word from `i`: its raw text, quote-removed value and which characters were unquoted. */
function readWord(s: string, i: number, nested: string[]): { word: Word; end: number } {
  let value = ""
  const bare: boolean[] = []
  const expansions = new Map<number, number>()
  const expansion = (text: string) => {
    expansions.set(value.length, value.length + text.length)
    add(text, false)
  }
  const add = (text: string, unquoted: boolean) => {
    value += text
    for (let k = 0; k < text.length; k++) bare.push(unquoted)
  }
  const start = i
  while (i < s.length && !SEPARATOR.includes(s[i]!)) {
    const c = s[i]!
    if (c === "\\") {
      if (s[i + 1] !== "\n") add(s[i + 1] ?? "", false)
      i += 2
    } else if (c === "'") {
      const k = s.indexOf("'", i + 1)
      const end = k < 0 ? s.length : k
      add(s.slice(i + 1, end), false)
      i = end + 1
    } else if (c === '"') {
      let j = i + 1
      while (j < s.length && s[j] !== '"') {
        if (s[j] === "\\" && j + 1 < s.length) {
          if (s[j + 1] !== "\n") add('$`"\\'.includes(s[j + 1]!) ? s[j + 1]! : s.slice(j, j + 2), false)
          j += 2
        } else if ((s[j] === "$" && (s[j + 1] === "(" || s[j + 1] === "{")) || s[j] === "`") {
          const e = groupEnd(s, j)
          nested.push(s.slice(j + (s[j] === "`" ? 1 : 2), e - 1))
          expansion(s.slice(j, e))
          j = e
        } else if (s[j] === "$" && /[\w@*#?$!-]/.test(s[j + 1] ?? "")) {
          const m = /^\$(?:[A-Za-z_]\w*|.)/.exec(s.slice(j, j + 64))!
          expansion(m[0])
          j += m[0].length
        } else add(s[j++]!, false)
      }
      i = j + 1
    } else if ((c === "$" && (s[i + 1] === "(" || s[i + 1] === "{")) || c === "`") {
      const e = groupEnd(s, i)
      nested.push(s.slice(i + (c === "`" ? 1 : 2), e - 1))
      expansion(s.slice(i, e))
      i = e
    } else if (c === "$" && /[\w@*#?$!-]/.test(s[i + 1] ?? "")) {
      const m = /^\$(?:[A-Za-z_]\w*|.)/.exec(s.slice(i, i + 64))!
      expansion(m[0])
      i += m[0].length
    } else add(s[i++]!, true)
  }
  return { word: { raw: s.slice(start, Math.min(i, s.length)), value, bare, expansions }, end: Math.max(i, start + 1) }
}

/** The simple commands of a script, each with its words (redirect targets left out). */
function commands(s: string, nested: string[]): Command[] {
  const out: Command[] = []
  let cur: Command = { words: [], piped: false }
  const end = (piped: boolean) => {
    cur.piped = piped
    if (cur.words.length) out.push(cur)
    cur = { words: [], piped: false }
  }
  let i = 0
  while (i < s.length) {
    const c = s[i]!
    if (c === " " || c === "\t") i++
    else if (c === "\\" && s[i + 1] === "\n") i += 2
    else if (c === "|") {
      end(s[i + 1] !== "|")
      i += s[i + 1] === "|" ? 2 : 1
    } else if ("\n;&()".includes(c)) {
      end(false)
      i++
    } else if (c === "<" || c === ">") {
      // a redirect: its target is no word of the command
      while (i < s.length && "<>&|-".includes(s[i]!)) i++
      while (s[i] === " " || s[i] === "\t") i++
      if (i < s.length && !SEPARATOR.includes(s[i]!)) i = readWord(s, i, nested).end
    } else if (c === "#") {
      // a `#` that starts a word starts a comment (after a command's words too: `: # it's`)
      while (i < s.length && s[i] !== "\n") i++
    } else {
      const { word, end: next } = readWord(s, i, nested)
      // digits right before a redirect are its descriptor
      if (!(/^\d+$/.test(word.raw) && (s[next] === "<" || s[next] === ">"))) cur.words.push(word)
      i = next
    }
  }
  end(false)
  return out
}

/** A glob whose quote-removed text has a path part starting with `.` that can match `..` (`.*`, `..*`,
 *  `.?`, `.[.]`, `.*.`, the dot quoted or not; `.[!.]*` cannot). A bracket other than `[!.]` is taken to
 *  match any character (fail closed). */
function dotGlob(w: Word): boolean {
  const v = w.value
  for (let p = v.indexOf("."); p >= 0; p = v.indexOf(".", p + 1)) {
    if (p > 0 && !"/=:".includes(v[p - 1]!)) continue
    let end = v.indexOf("/", p)
    if (end < 0) end = v.length
    let re = ""
    let glob = false
    for (let k = p; k < end; k++) {
      const c = v[k]!
      const close = c === "[" && w.bare[k] ? v.indexOf("]", k + 2) : -1
      if (w.bare[k] && (c === "*" || c === "?")) re += c === "*" ? "[^]*" : "[^]"
      else if (close > 0 && close < end) {
        re += v.slice(k, close + 1) === "[!.]" ? "[^.]" : "[^]"
        k = close
      } else {
        re += c.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&")
        continue
      }
      glob = true
    }
    if (glob && new RegExp(`^${re}$`).test("..")) return true
  }
  return false
}

/** A glob whose path part starts with an expansion (`$x*`, `dir/${x}?`): dash globs `.*` from it. */
function expansionGlob(w: Word): boolean {
  for (const [at, end] of w.expansions) {
    if (at > 0 && !"/=:".includes(w.value[at - 1]!)) continue
    let k = end
    while (w.expansions.has(k)) k = w.expansions.get(k)!
    if (w.bare[k] && "*?[".includes(w.value[k]!)) return true
  }
  return false
}

/** The facts of a script read as a POSIX shell reads it; `depth` bounds the texts eval and trap run. */
export function wordFacts(text: string, depth = 0): WordFacts {
  const facts: WordFacts = {}
  // comments and here-document bodies are no words: an apostrophe there would open a quote
  const script = codeOnly(text)
  // the commands of $(…), `…` and ${…} (whose text may hold a $(…)) are read too
  const nested: string[] = []
  for (const cmd of commands(script, nested)) {
    let k = 0
    let assigns = 0
    while (k < cmd.words.length) {
      const w = cmd.words[k]!
      if (ASSIGNMENT.test(w.raw)) assigns++
      else if (!(KEYWORDS.has(w.raw))) break
      k++
    }
    for (const w of cmd.words) {
      if (dotGlob(w)) facts.dotGlob = true
      if (expansionGlob(w)) facts.expansionGlob = true
    }
    if (k >= cmd.words.length) continue
    // `command NAME`, `builtin NAME` look NAME up the same way
    while (k + 1 < cmd.words.length && (cmd.words[k]!.value === "command" || cmd.words[k]!.value === "builtin")) {
      k++
      while (k + 1 < cmd.words.length && cmd.words[k]!.value.startsWith("-")) k++
    }
    const name = cmd.words[k]!.value
    const args = cmd.words.slice(k + 1)
    if (name === "alias") facts.alias = true
    if (name === "eval" || name === "trap") {
      facts.evalText = true
      const ran = name === "eval" ? args : args.filter((a) => a.value !== "--").slice(0, 1)
      if (ran.some((a) => a.expansions.size > 0)) facts.evalExpanded = true
      const text = ran.map((a) => a.value).join(" ")
      if (depth < 8 && text) Object.assign(facts, wordFacts(text, depth + 1), { evalText: true })
    }
    if (assigns > 0 && SPECIAL.has(name) && (name !== "exec" || args.length === 0)) facts.specialAssign = true
    if (name === "echo" && cmd.piped && args.some((a) => a.raw.includes("\\"))) facts.echoPiped = true
  }
  if (depth < 8) for (const text of nested) Object.assign(facts, wordFacts(text, depth + 1))
  return facts
}
