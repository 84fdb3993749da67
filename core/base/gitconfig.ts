// Whether a repository's own config makes git run a program, or read a file, when it only reads:
// core.fsmonitor (a hook command, run by git status), diff.external and a diff driver's textconv/command,
// a filter's clean, smudge or process (run on the files git status compares), gpg programs (git log
// --show-signature, log.showSignature), a pager, a work tree outside the workspace; and, for the git
// commands that use them, man viewers (git help), blame.ignoreRevsFile, fsck.skipList, the excludes and
// attributes files. An archive unpacked over the workspace can bring such a .git/config.
// The text is read the way git's config parser reads it (config.c: a backslash before a newline
// continues a value, but not inside a comment; `\\` is an escaped backslash; quotes keep `;` and `#`).
// Reads one small file; what cannot be read plainly (an include, a line git would refuse, a file too
// large) counts as running one. Pure but for the read.
import { statSync } from "node:fs"
import { configKeyRisk, type KeyRisk } from "./gitkeys.ts"
import { readRegular } from "./readsafe.ts"

const MAX_BYTES = 64 * 1024

/** One `key = value` as git reads it: section and name lower case, a subsection as written;
 *  value null for a key with no `=` (a boolean true). */
export interface ConfigEntry {
  key: string
  value: string | null
}

/** What a config makes git do: why, and the git commands it happens in (undefined: every one). */
export interface ConfigRun {
  why: string
  commands?: readonly string[]
}

/** Where the config lives: a relative core.worktree is read from the git directory. */
export interface ConfigPlace {
  gitDir: string
  workspace: string
}

/** What the config file makes git run or read, or why it could not be judged; undefined when nothing. */
export function configRuns(configFile: string, place?: ConfigPlace): ConfigRun | undefined {
  const st = statSync(configFile, { throwIfNoEntry: false })
  if (!st) return undefined
  if (!st.isFile() || st.size > MAX_BYTES) return { why: `${configFile} (not a small plain file)` }
  let text: string
  try {
    text = readRegular(configFile, MAX_BYTES + 1)
  } catch {
    return { why: `${configFile} (unreadable)` }
  }
  return configRunsIn(text, place)
}

/** The same over the config's text: every-command findings first, then the others' commands together. */
export function configRunsIn(text: string, place?: ConfigPlace): ConfigRun | undefined {
  const entries = parseConfig(text)
  if (typeof entries === "string") return { why: entries }
  const scoped: KeyRisk[] = []
  for (const e of entries) {
    const risk = configKeyRisk(e.key, e.value, place)
    if (!risk) continue
    if (!risk.commands) return { why: risk.why }
    scoped.push(risk)
  }
  if (!scoped.length) return undefined
  return { why: scoped.map((r) => r.why).join("; "), commands: [...new Set(scoped.flatMap((r) => r.commands!))] }
}

/** The key whose program git runs in every command, or why the config could not be judged. */
export function runs(text: string): string | undefined {
  const r = configRunsIn(text)
  return r && !r.commands ? r.why : undefined
}

/**
 * The entries of a config text as git's parser (config.c, git_parse_source) reads them, or why git
 * would refuse it. Character by character: a line is blank, a comment (`#`/`;`), a section header
 * (`[name]`, `[name "sub"]`, the old `[name.sub]`), optionally followed by a key on the same line, or a
 * key. A value runs to the end of the line; `\` + newline continues it (inside quotes too), a comment
 * outside quotes ends it and nothing in the comment continues it; `\\`, `\"`, `\n`, `\t`, `\b` are the
 * only escapes (any other is an error, as is a newline inside quotes).
 */
export function parseConfig(text: string): ConfigEntry[] | string {
  const src = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n")
  const out: ConfigEntry[] = []
  let i = 0
  let section = ""
  let comment = false
  const line = () => src.slice(src.lastIndexOf("\n", i - 1) + 1, src.indexOf("\n", i) < 0 ? undefined : src.indexOf("\n", i)).trim().slice(0, 40)
  while (i < src.length) {
    const c = src[i]!
    if (c === "\n") {
      comment = false
      i++
      continue
    }
    if (comment || isSpace(c)) {
      i++
      continue
    }
    if (c === "#" || c === ";") {
      comment = true
      i++
      continue
    }
    if (c === "[") {
      const h = header(src, i + 1)
      if (!h) return `a section header git reads differently (${line()})`
      section = h.name
      i = h.end
      continue
    }
    if (!/[A-Za-z]/.test(c)) return `a line git reads differently (${line()})`
    const v = keyValue(src, i)
    if (!v) return `a line git reads differently (${line()})`
    out.push({ key: section ? `${section}.${v.name}` : v.name, value: v.value })
    i = v.end
  }
  return out
}

// git's isspace: space, \t, \n, \v, \f, \r
function isSpace(c: string): boolean {
  return c === " " || c === "\t" || c === "\n" || c === "\v" || c === "\f" || c === "\r"
}
const isKeyChar = (c: string) => /[A-Za-z0-9-]/.test(c)

// after `[`: the name (key characters and dots, lower-cased) up to `]`, or a blank, a quoted
// subsection (a backslash keeps the next character as is) and `]` right after the closing quote
function header(src: string, start: number): { name: string; end: number } | undefined {
  let name = ""
  let i = start
  for (; i < src.length; i++) {
    const c = src[i]!
    if (c === "]") return name ? { name, end: i + 1 } : undefined
    if (isSpace(c)) break
    if (!isKeyChar(c) && c !== ".") return undefined
    name += c.toLowerCase()
  }
  if (i >= src.length) return undefined
  while (i < src.length && isSpace(src[i]!)) {
    if (src[i] === "\n") return undefined
    i++
  }
  if (src[i] !== '"') return undefined
  let sub = ""
  for (i++; ; i++) {
    if (i >= src.length || src[i] === "\n") return undefined
    let c = src[i]!
    if (c === '"') break
    if (c === "\\") {
      c = src[++i] ?? "\n"
      if (c === "\n") return undefined
    }
    sub += c
  }
  if (src[i + 1] !== "]" || !name) return undefined
  return { name: `${name}.${sub}`, end: i + 2 }
}

// a key (a letter, then letters, digits and -), blanks, then the end of the line (no value) or `=` and a value
function keyValue(src: string, start: number): { name: string; value: string | null; end: number } | undefined {
  let i = start
  let name = ""
  while (i < src.length && isKeyChar(src[i]!)) name += src[i++]!.toLowerCase()
  while (src[i] === " " || src[i] === "\t") i++
  if (i >= src.length || src[i] === "\n") return { name, value: null, end: i + 1 }
  if (src[i] !== "=") return undefined
  const v = value(src, i + 1)
  return v && { name, value: v.value, end: v.end }
}

// git's parse_value: blanks outside quotes are kept only between words, each as a space (leading and
// trailing ones dropped); a
// comment outside quotes runs to the end of the line, where the value ends whatever the comment holds
function value(src: string, start: number): { value: string; end: number } | undefined {
  let out = ""
  let quote = false
  let comment = false
  let trim = -1
  for (let i = start; ; i++) {
    const c = i < src.length ? src[i]! : "\n"
    if (c === "\n") {
      if (quote) return undefined
      return { value: trim >= 0 ? out.slice(0, trim) : out, end: i + 1 }
    }
    if (comment) continue
    if (isSpace(c) && !quote) {
      if (trim < 0) trim = out.length
      if (out.length) out += " "
      continue
    }
    if (!quote && (c === ";" || c === "#")) {
      comment = true
      continue
    }
    trim = -1
    if (c === "\\") {
      const n = i + 1 < src.length ? src[++i]! : "\n"
      if (n === "\n") {
        if (i >= src.length) return { value: out, end: i }
        continue
      }
      const e = ({ t: "\t", b: "\b", n: "\n", "\\": "\\", '"': '"' } as Record<string, string>)[n]
      if (e === undefined) return undefined
      out += e
      continue
    }
    if (c === '"') {
      quote = !quote
      continue
    }
    out += c
  }
}
