// A part: one command a rule must cover, with what the expansion learnt about it. Plus the small
// helpers the expander and the runners share. Pure.
import type { Construct } from "./types.ts"
import type { Finding, RawRedirect, Stdin } from "./raw.ts"
import type { Cwd } from "./scope.ts"
import type { GitView } from "./git.ts"
import type { FdTable } from "./fds.ts"
import { dynamicWord, literalWord, type Word } from "./word.ts"

export interface Part {
  text: string
  /** program and arguments after transparent wrappers (and git's global options) are removed */
  words: Word[]
  program: string
  /** the program as written, when it had a directory (`./rm`, `/usr/bin/rm`) */
  programPath?: string
  assignments: { name: string; value: Word }[]
  redirects: RawRedirect[]
  context: Construct[]
  wrappers: string[]
  cwd: Cwd
  /** loader/config variables in effect */
  loader: string[]
  stdin?: Stdin
  findings: Finding[]
  unresolved?: string
  /** operands are added at run time (xargs without -I) */
  appended?: boolean
  /** what xargs reads the words it appends from (its own stdin) */
  appendedInput?: Stdin
  /** xargs splits its input only at NULs (-0) or a delimiter (-d), removing no quotes; unset: at blanks
   *  and newlines after removing quotes and backslashes */
  appendedSplit?: "nul" | "delimiter"
  /** xargs -I's placeholder: the words that start with it start with an input item */
  appendedPlaceholder?: string
  forkBomb?: boolean
  git?: GitView
  exported?: Map<string, string | undefined>
  /** files a wrapper or runner around the command writes (`time -o F`, `strace -o F`, `script F`) */
  writes?: Word[]
}

/** Analyse a script found inside a command (`sh -c`, `eval`, a heredoc, ...) into its parts. */
/** Options a shell is started with that change how its script reads: `-O cdable_vars`; `+B` (brace
 *  expansion off), or `+o NAME` with a name not known statically (on or off: not known). */
export interface ShellStart {
  cdableVars?: boolean
  braces?: false | "unknown"
  /** run later (a trap handler): the script's variables then have values not known here */
  late?: boolean
}

export type NestedScript = (script: Word, how: { context: Construct[]; cwd: Cwd; loader: string[]; exported?: Map<string, string | undefined>; remote?: boolean } & ShellStart) => Part[]

export interface Expander {
  nested: NestedScript
  home: string
  /** the workspace root: a script sourced from outside it is not the project's own */
  workspace?: string
  out: Part[]
  /** the descriptors the command being expanded has open (fds.ts): a script it runs starts with them */
  fds?: FdTable
}

/** A command another one runs: its own part, in the construct that runs it, with the outer one's environment. */
export function inner(outer: Part, words: Word[], context: Construct): Part {
  return newPart(words.map((w) => quoteText(w.text)).join(" "), words, [], [], [...outer.context, context], outer.cwd, outer.loader, environment(outer))
}

/** The variables exported to what a part runs: its script's exports and its own prefix assignments
 *  (`VAR=x eval ..`, `VAR=x bash -c ..`, `env VAR=x ..`), so a nested script's program checks (man's
 *  MANPATH, mktemp's TMPDIR) see them; a value not known here is undefined. */
export function environment(part: Part): Part["exported"] {
  if (!part.assignments.length) return part.exported
  const env = new Map(part.exported ?? [])
  for (const a of part.assignments) env.set(a.name, a.value.value)
  return env
}

/** A part not yet unwrapped. Every field is present from the start, optional ones undefined: all parts
 *  then share one object shape, and the classifiers that read thousands of them a second stay fast. */
export function newPart(text: string, words: Word[], assignments: Part["assignments"], redirects: RawRedirect[], context: Construct[], cwd: Cwd, loader: string[], exported: Part["exported"]): Part {
  return {
    text, words, program: "", programPath: undefined, assignments, redirects, context, wrappers: [], cwd, loader, stdin: undefined,
    findings: [], unresolved: undefined, appended: undefined, forkBomb: undefined, git: undefined, exported: exported || undefined, writes: undefined,
  }
}

export function basename(path: string): string {
  const i = path.lastIndexOf("/")
  return i < 0 ? path : path.slice(i + 1)
}

export function quoteText(s: string): string {
  return s === "" ? "''" : /^[A-Za-z0-9_@%+=:,./~*?{}-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`
}

/** Split env -S's string the way GNU env does: blanks separate words, '..' and ".." quote, `\_` is a
 *  separator (a blank inside ".."), `\c` and a `#` starting a word end the string, `${NAME}` is replaced
 *  by the variable (outside '..'). `home` is $HOME when known; any other variable makes its word not static. */
export function splitArgs(s: string, home: string | undefined): Word[] {
  const out: Word[] = []
  let cur: string | undefined
  let dynamic = false
  let quote = ""
  const push = () => {
    if (cur !== undefined) out.push(dynamic ? { ...dynamicWord(cur), hollow: false } : literalWord(cur))
    cur = undefined
    dynamic = false
  }
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!
    if (quote === "'") {
      if (c === "'") quote = ""
      else if (c === "\\" && (s[i + 1] === "'" || s[i + 1] === "\\")) cur += s[++i]!
      else cur += c
      continue
    }
    if (c === "$" && s[i + 1] === "{") {
      const close = s.indexOf("}", i + 2)
      const name = close < 0 ? "" : s.slice(i + 2, close)
      if (name === "HOME" && home !== undefined) cur = (cur ?? "") + home
      else {
        cur = (cur ?? "") + (close < 0 ? s.slice(i) : s.slice(i, close + 1))
        dynamic = true
      }
      if (close < 0) break
      i = close
      continue
    }
    if (c === "\\" && i + 1 < s.length) {
      const e = s[++i]!
      if (e === "c") break
      if (e === "_") {
        if (quote) cur += " "
        else push()
      } else cur = (cur ?? "") + (ESCAPES[e] ?? e)
      continue
    }
    if (quote === '"') {
      if (c === '"') quote = ""
      else cur += c
    } else if (c === "'" || c === '"') {
      quote = c
      cur ??= ""
    } else if (c === " " || c === "\t" || c === "\n" || c === "\v" || c === "\f" || c === "\r") push()
    else if (c === "#" && cur === undefined) break
    else cur = (cur ?? "") + c
  }
  push()
  return out
}

const ESCAPES: Record<string, string> = { f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" }

/** The words from `from` on that are not options (everything after `--`). */
export function operands(words: readonly Word[], from: number): Word[] {
  const out: Word[] = []
  let done = false
  for (let i = from; i < words.length; i++) {
    const w = words[i]!
    if (done) out.push(w)
    else if (w.value === "--") done = true
    else if (!(w.value ?? "").startsWith("-")) out.push(w)
  }
  return out
}

/** Some word after the program is exactly `value`. */
export function hasWord(words: readonly Word[], value: string): boolean {
  for (let i = 1; i < words.length; i++) if (words[i]!.value === value) return true
  return false
}
