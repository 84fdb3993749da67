// The fast path: a command of plain words and quotes (no $, `, \, operators, redirects, globs other than
// * and ?, braces or keywords) is split here without waking tree-sitter. Must agree with the walk.
import type { Construct } from "./types.ts"
import type { RawCommand, Walked } from "./raw.ts"
import type { Cwd } from "./scope.ts"
import type { Word } from "./word.ts"

// tree-sitter reads these first words as syntax (or as declarations), so they go the slow way
const KEYWORDS = new Set([
  "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do", "done", "in",
  "function", "declare", "typeset", "export", "local", "readonly", "unset", "let",
])

// allowed outside quotes: letters, digits and _-./:=@%+,^~*? plus blanks
const BARE = charSet("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=@%+,^~*? \t")

/** A character a plain command may hold outside quotes (blanks included). */
export function isBare(code: number): boolean {
  return code < 128 && BARE[code] === 1
}

/** Plain words and quotes only: safe to split without a parser. */
export function isPlainCommand(command: string): boolean {
  const raws: string[] = []
  if (!tokenize(command, raws, [])) return false
  const first = firstCommandWord(raws)
  return !KEYWORDS.has(raws[first] ?? "") && !tildeAssignment(raws, first)
}

/** The name of a plain command as bash passes it (after any NAME=value words, quotes removed):
 *  `x='a b' cd` runs cd. undefined when the command is not plain or has no name. */
export function plainCommandName(command: string): string | undefined {
  const raws: string[] = []
  const words: Word[] = []
  if (!tokenize(command, raws, words)) return undefined
  return words[firstCommandWord(raws)]?.value
}

/** The fast path: the command's single simple command, or undefined when it is not plain. */
export function readPlain(command: string, loader: string[], inherited: Map<string, string | undefined>, cwd: Cwd, context: Construct[]): Walked | undefined {
  const raws: string[] = []
  const words: Word[] = []
  if (!tokenize(command, raws, words)) return undefined
  const first = firstCommandWord(raws)
  if (KEYWORDS.has(raws[first] ?? "") || tildeAssignment(raws, first)) return undefined
  const assignments: RawCommand["assignments"] = []
  for (let i = 0; i < first; i++) {
    const raw = raws[i]!
    const m = ASSIGNMENT.exec(raw)!
    const name = m[0].replace(/\+?=$/, "")
    const value = words[i]!.value!.slice(m[0].length)
    const tail = raw.slice(m[0].length)
    const word: Word = { text: value, value, expanded: false, hollow: false, glob: words[i]!.glob && tail.replace(/'[^']*'|"[^"]*"/g, "").search(/[*?]/) >= 0, tilde: tail.startsWith("~") }
    assignments.push({ name, value: word })
  }
  if (first === words.length) return { commands: [], bare: NO_BARE, bareCwd: NO_BARE_CWD }
  const cmd: RawCommand = {
    words: first ? words.slice(first) : words,
    assignments,
    redirects: [],
    context,
    text: command.trim(),
    cwd,
    loader,
  }
  if (inherited.size) cmd.exported = inherited
  return { commands: [cmd], bare: NO_BARE, bareCwd: NO_BARE_CWD }
}

// a plain command has no redirect without a command: shared, never added to (the walk's own are its own)
const NO_BARE: Walked["bare"] = []
const NO_BARE_CWD: Walked["bareCwd"] = []

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/

// bash expands ~ in an assignment's value (after = and each :), and in an argument that looks like one
// (`cat x=~/.netrc`): the walk does that
function tildeAssignment(raws: readonly string[], first: number): boolean {
  for (let i = 0; i < raws.length; i++) if (raws[i]!.includes("~") && (i < first || ASSIGNMENT.test(raws[i]!))) return true
  return false
}

/** The index of the first word that is not an assignment (`FOO=1 BAR=2 cmd`): the command's name. */
function firstCommandWord(raws: readonly string[]): number {
  let i = 0
  // an assignment has an `=`: most words are told apart without the regex
  while (i < raws.length && raws[i]!.includes("=") && ASSIGNMENT.test(raws[i]!)) i++
  return i
}

const SPACE = 32, TAB = 9, SQ = 39, DQ = 34, STAR = 42, QMARK = 63, TILDE = 126, DOLLAR = 36, BACKQUOTE = 96, BACKSLASH = 92

/** Split into words as written (`raws`) and as bash passes them (quotes removed); false when the
 *  command is not plain: a character outside BARE unquoted, `$` `\` or a backquote inside double quotes,
 *  a quote not closed. One pass: most commands are plain. */
function tokenize(command: string, raws: string[], words: Word[]): boolean {
  const n = command.length
  let i = 0
  while (i < n) {
    let c = command.charCodeAt(i)
    while (c === SPACE || c === TAB) c = command.charCodeAt(++i)
    if (i >= n) break
    const start = i
    let value: string | undefined // set once the word has quotes
    let glob = false
    const tilde = c === TILDE
    let from = i
    while (i < n) {
      c = command.charCodeAt(i)
      if (c === SPACE || c === TAB) break
      if (c === SQ || c === DQ) {
        let end = i + 1
        if (c === SQ) end = command.indexOf("'", end)
        else {
          for (; end < n; end++) {
            const d = command.charCodeAt(end)
            if (d === DQ) break
            if (d === DOLLAR || d === BACKQUOTE || d === BACKSLASH) return false
          }
        }
        if (end < 0 || end >= n) return false
        value = (value ?? "") + command.slice(from, i) + command.slice(i + 1, end)
        i = from = end + 1
        continue
      }
      if (c >= 128 || !BARE[c]) return false
      if (c === STAR || c === QMARK) glob = true
      i++
    }
    const raw = command.slice(start, i)
    if (value === undefined) value = raw
    else value += command.slice(from, i)
    raws.push(raw)
    words.push({ text: value, value, expanded: false, hollow: false, glob, tilde })
  }
  return true
}

// a loop in a function, not at the top of the module: a loop there makes the engine JIT-compile the
// top-level code of the whole bundled chunk (~5 ms per start of the hook; docs/hosts.md)
function charSet(chars: string): Uint8Array {
  const set = new Uint8Array(128)
  for (const c of chars) set[c.charCodeAt(0)] = 1
  return set
}
