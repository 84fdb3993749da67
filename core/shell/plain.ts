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
const BARE = new Uint8Array(128)
for (const c of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=@%+,^~*? \t") BARE[c.charCodeAt(0)] = 1

/** Plain words and quotes only: safe to split without a parser. */
export function isPlainCommand(command: string): boolean {
  if (!plainCharacters(command)) return false
  const words = tokenize(command)
  return !startsWithKeyword(words) && !tildeAssignment(words)
}

/** The fast path: the command's single simple command, or undefined when it is not plain. */
export function readPlain(command: string, loader: string[], inherited: Map<string, string | undefined>, cwd: Cwd, context: Construct[]): Walked | undefined {
  if (!plainCharacters(command)) return undefined
  const words = tokenize(command)
  if (startsWithKeyword(words) || tildeAssignment(words)) return undefined
  const assignments: RawCommand["assignments"] = []
  let i = 0
  for (; i < words.length; i++) {
    const raw = words[i]!
    const m = ASSIGNMENT.exec(raw.raw)
    if (!m) break
    const name = m[0].replace(/\+?=$/, "")
    const value = raw.word.value!.slice(m[0].length)
    const tail = raw.raw.slice(m[0].length)
    const word: Word = { text: value, value, expanded: false, hollow: false, glob: raw.word.glob && tail.replace(/'[^']*'|"[^"]*"/g, "").search(/[*?]/) >= 0, tilde: tail.startsWith("~") }
    assignments.push({ name, value: word })
  }
  if (i === words.length) return { commands: [], bare: [], bareCwd: [] }
  const cmd: RawCommand = {
    words: i ? words.slice(i).map((w) => w.word) : words.map((w) => w.word),
    assignments,
    redirects: [],
    context,
    text: command.trim(),
    cwd,
    loader,
  }
  if (inherited.size) cmd.exported = inherited
  return { commands: [cmd], bare: [], bareCwd: [] }
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/

// bash expands ~ in an assignment's value (after = and each :): the walk does that
function tildeAssignment(words: { raw: string }[]): boolean {
  for (const w of words) {
    if (!ASSIGNMENT.test(w.raw)) return false
    if (w.raw.includes("~")) return true
  }
  return false
}

function plainCharacters(command: string): boolean {
  let quote = 0
  for (let i = 0; i < command.length; i++) {
    const c = command.charCodeAt(i)
    if (quote === 39) {
      if (c === 39) quote = 0
      continue
    }
    if (quote === 34) {
      if (c === 34) quote = 0
      else if (c === 36 || c === 96 || c === 92) return false // $ ` \
      continue
    }
    if (c === 39 || c === 34) quote = c
    else if (c >= 128 || !BARE[c]) return false
  }
  return quote === 0
}

function startsWithKeyword(tokens: Token[]): boolean {
  for (const t of tokens) if (!ASSIGNMENT.test(t.raw)) return KEYWORDS.has(t.raw)
  return false
}

interface Token {
  raw: string
  word: Word
}

const SPACE = 32, TAB = 9, SQ = 39, DQ = 34, STAR = 42, QMARK = 63, TILDE = 126

function tokenize(command: string): Token[] {
  const out: Token[] = []
  const n = command.length
  let i = 0
  while (i < n) {
    let c = command.charCodeAt(i)
    while (c === SPACE || c === TAB) c = command.charCodeAt(++i)
    if (i >= n) break
    const start = i
    let value = ""
    let glob = false
    const tilde = c === TILDE
    let from = i
    while (i < n) {
      c = command.charCodeAt(i)
      if (c === SPACE || c === TAB) break
      if (c === SQ || c === DQ) {
        value += command.slice(from, i)
        const end = command.indexOf(c === SQ ? "'" : '"', i + 1)
        value += command.slice(i + 1, end)
        i = from = end + 1
        continue
      }
      if (c === STAR || c === QMARK) glob = true
      i++
    }
    value += command.slice(from, i)
    out.push({ raw: command.slice(start, i), word: { text: value, value, expanded: false, hollow: false, glob, tilde } })
  }
  return out
}
