// The second fast path: plain commands joined by `&&`, `||` and `;` (`git status && ls`) are split here
// without waking tree-sitter (about 40 ms in a fresh process). Anything else — pipes (what a pipe feeds
// a shell or an interpreter is a script of its own), other operators, a command that changes what
// follows it (cd, source, exec, ...), an empty part — goes the slow way.
// Must agree with the walk: the corpus test compares the two on every command this path takes.
import type { Walked } from "./raw.ts"
import type { Cwd } from "./scope.ts"
import type { Construct } from "./types.ts"
import { isBare, isPlainCommand, plainCommandName, readPlain } from "./plain.ts"

type Op = "&&" | "||" | ";"

// commands whose effect reaches the commands after them: the walker follows those, this path does not
const STATEFUL = new Set([
  "cd", "pushd", "popd", "source", ".", "exec", "eval", "set", "shopt", "alias", "unalias", "trap", "builtin",
  "command", "hash", "umask", "ulimit", "enable", "export", "unset", "declare", "typeset", "local", "readonly",
  // set variables the parts after them see (read X, printf -v X, ...); the time keyword runs a builtin in this shell
  "time", "read", "mapfile", "readarray", "printf", "getopts", "wait", "compgen",
])

/** The parts of a simple list, with the operator before each; undefined when this path does not apply. */
export function splitSimpleList(command: string): { text: string; op?: Op }[] | undefined {
  const parts: { text: string; op?: Op }[] = []
  let quote = 0
  let start = 0
  let op: Op | undefined
  let sawOperator = false
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!
    if (quote) {
      if (c.charCodeAt(0) === quote) quote = 0
      continue
    }
    if (c === "'" || c === '"') {
      quote = c.charCodeAt(0)
      continue
    }
    let next: Op | undefined
    if (c === "&") {
      if (command[i + 1] !== "&") return undefined // background, &>, >&: not this path
      next = "&&"
    } else if (c === "|") {
      if (command[i + 1] !== "|") return undefined // a pipe: the walk knows what it feeds
      next = "||"
    } else if (c === ";") {
      if (command[i + 1] === ";") return undefined
      next = ";"
    }
    if (!next) {
      // a newline, a carriage return or a non-ASCII blank outside quotes: trim() below would drop it where
      // bash keeps it in a word or reads it as a separator (`a\n;b` is a syntax error); not this path
      if (!isBare(c.charCodeAt(0))) return undefined
      continue
    }
    parts.push({ text: command.slice(start, i).trim(), op })
    op = next
    sawOperator = true
    i += next.length - 1
    start = i + 1
  }
  if (quote || !sawOperator) return undefined
  parts.push({ text: command.slice(start).trim(), op })
  for (const part of parts) {
    if (!part.text || !isPlainCommand(part.text)) return undefined
    // the name as bash reads it: a quoted blank in an assignment before it does not end a word
    const first = plainCommandName(part.text)
    if (first === undefined || STATEFUL.has(first)) return undefined
  }
  return parts
}

/** The fast path for simple lists: each part read as a plain command, in the construct the walk gives it. */
export function readSimpleList(command: string, loader: string[], inherited: Map<string, string | undefined>, cwd: Cwd, context: Construct[]): Walked | undefined {
  const parts = splitSimpleList(command)
  if (!parts) return undefined
  const out: Walked = { commands: [], bare: [], bareCwd: [] }
  for (const part of parts) {
    const read = readPlain(part.text, loader, inherited, cwd, [...context, "list"])
    if (!read || read.commands.length !== 1) return undefined
    out.commands.push(...read.commands)
  }
  return out
}
