// The fast path: a command of plain words and quotes (no $, `, \, operators, redirects, globs other than
// * and ?, braces or keywords) is split here without waking tree-sitter. Must agree with the walk.
import type { Construct } from "./types.ts"
import type { RawCommand, Walked } from "./raw.ts"
import { exportedVars, loaderIn, type Cwd, type Scope } from "./scope.ts"
import type { Word } from "./word.ts"

// tree-sitter reads these first words as syntax (or as declarations), so they go the slow way
const KEYWORDS = new Set([
  "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do", "done", "in",
  "function", "declare", "typeset", "export", "local", "readonly", "unset",
])

// allowed outside quotes: letters, digits and _-./:=@%+,^~*? plus blanks
const BARE = new Uint8Array(128)
for (const c of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=@%+,^~*? \t") BARE[c.charCodeAt(0)] = 1

/** Plain words and quotes only: safe to split without a parser. */
export function isPlainCommand(command: string): boolean {
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
  if (quote) return false
  const first = firstCommandWord(command)
  return first === undefined || !KEYWORDS.has(first)
}

function firstCommandWord(command: string): string | undefined {
  const words = command.trim().split(/[ \t]+/)
  for (const w of words) if (!ASSIGNMENT.test(w)) return w
  return undefined
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/

/** Split a plain command (see isPlainCommand) into the same form the tree-sitter walk gives. */
export function readPlain(command: string, scope: Scope, cwd: Cwd, context: Construct[]): Walked {
  const words = tokenize(command)
  const assignments: RawCommand["assignments"] = []
  let i = 0
  for (; i < words.length; i++) {
    const raw = words[i]!
    const m = ASSIGNMENT.exec(raw.raw)
    if (!m) break
    const name = m[0].replace(/\+?=$/, "")
    const value = raw.word.value!.slice(m[0].length)
    const tail = raw.raw.slice(m[0].length)
    const word: Word = { text: value, value, expanded: false, hollow: false, glob: raw.glob && tail.replace(/'[^']*'|"[^"]*"/g, "").search(/[*?]/) >= 0, tilde: tail.startsWith("~") }
    assignments.push({ name, value: word })
  }
  if (i === words.length) return { commands: [], bare: [], bareCwd: [] }
  const cmd: RawCommand = {
    words: words.slice(i).map((w) => w.word),
    assignments,
    redirects: [],
    context,
    text: command.trim(),
    cwd,
    loader: loaderIn(scope),
  }
  const exported = exportedVars(scope)
  if (exported.size) cmd.exported = exported
  return { commands: [cmd], bare: [], bareCwd: [] }
}

interface Token {
  raw: string
  word: Word
  glob: boolean
}

function tokenize(command: string): Token[] {
  const out: Token[] = []
  let i = 0
  const n = command.length
  while (i < n) {
    while (i < n && (command[i] === " " || command[i] === "\t")) i++
    if (i >= n) break
    const start = i
    let value = ""
    let glob = false
    let tilde = false
    let first = true
    while (i < n && command[i] !== " " && command[i] !== "\t") {
      const c = command[i]!
      if (c === "'" || c === '"') {
        const end = command.indexOf(c, i + 1)
        value += command.slice(i + 1, end)
        i = end + 1
      } else {
        const from = i
        while (i < n && command[i] !== " " && command[i] !== "\t" && command[i] !== "'" && command[i] !== '"') i++
        const bare = command.slice(from, i)
        if (bare.includes("*") || bare.includes("?")) glob = true
        if (first && bare.startsWith("~")) tilde = true
        value += bare
      }
      first = false
    }
    out.push({ raw: command.slice(start, i), word: { text: value, value, expanded: false, hollow: false, glob, tilde }, glob })
  }
  return out
}
