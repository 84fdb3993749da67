// Secrets typed as arguments (`sshpass -p X`, `curl -u user:X`, `mysql -pX`, `htpasswd -b f user X`)
// in any text: on a line with a flag or a cue, the known programs' words are read as the shell reads
// them (words.ts) and the table in arguments.ts says which are secrets (argv.ts). Pure.
import { SECRET_ARGUMENTS, type ProgramArguments } from "./arguments.ts"
import { secretRanges } from "./argv.ts"
import { escapeRegex, type Located, type Rule } from "./spans.ts"
import { commandWords, MAX_COMMAND, type ShellWord } from "./words.ts"

export const SECRET_ARGUMENT_ID = "secret-argument"

/** Policy `redaction.flags`: program -> flags whose value is a secret (any form, the whole value). */
export type ExtraFlags = Record<string, readonly string[]>

/** What a secret-argument rule looks for: its anchors, its pattern, and the rest of it as plain data
 *  (the built-in table's is computed when the code is bundled, see builtin.ts). */
export interface ArgumentRuleShape {
  anchors: string[]
  source: string
  follow?: string
  atStart?: string[]
}

/** The built-in table, or only the policy's additions (the built-in rules are compiled once per
 *  process). Several rules, one reading: the scan looks for what is rare in ordinary text and necessary
 *  in such a command — a flag (` -p`, ` --user`, ` /p:`), or the name of a program whose secrets are
 *  not behind a flag (`aws configure set`, `sqlplus user/pw`) — and only then for the program names
 *  on that line, which are too many to look for everywhere. `shapes`: `argumentRuleShapes(table)`. */
export function secretArgumentRules(table: readonly ProgramArguments[] = SECRET_ARGUMENTS, shapes = argumentRuleShapes(table)): Rule[] {
  // the programs' lookup, built when a rule first reads a command (most texts a hook redacts have none)
  let programs: { byProgram: Map<string, ProgramArguments[]>; lookup: Names } | undefined
  const programsOf = () => {
    if (programs) return programs
    const byProgram = new Map<string, ProgramArguments[]>()
    for (const spec of table) for (const p of spec.programs) byProgram.set(p, [...(byProgram.get(p) ?? []), spec])
    return (programs = { byProgram, lookup: namesOf(byProgram) })
  }
  // each rule reads a command once per scan (a rule's spans keep its rank whatever finds them first)
  const reader = () => {
    const seen = Symbol("commands read")
    return (m: RegExpExecArray, text: string, memo: Map<unknown, unknown>): Located[] => {
      // matches come in text order: what an earlier one read is not read again
      const read = (memo.get(seen) as { to: number } | undefined) ?? { to: 0 }
      memo.set(seen, read)
      if (m.index < read.to) return []
      const { byProgram, lookup } = programsOf()
      const start = Math.max(read.to, commandStart(text, m.index))
      const end = commandEnd(text, m.index)
      const programs = programsIn(text, start, end, lookup, MAX_PROGRAMS + 1)
      // the programs after the first MAX_PROGRAMS are read from the next match on (each has one)
      read.to = programs.length > MAX_PROGRAMS ? programs[MAX_PROGRAMS]!.index : end
      const out: Located[] = []
      for (const p of programs.slice(0, MAX_PROGRAMS)) readCommand(text, p, byProgram.get(p.name)!, end, out)
      return out
    }
  }
  return shapes.map(({ anchors, source, follow, atStart }) => ({
    id: SECRET_ARGUMENT_ID, anchors, re: new RegExp(source, "g"), locate: reader(), ...(follow ? { follow } : {}), ...(atStart ? { atStart } : {}),
  }))
}

/** The rules' anchors and patterns for `table`. Pure data. */
export function argumentRuleShapes(table: readonly ProgramArguments[]): ArgumentRuleShape[] {
  // what leads to a command whose secrets need no flag: its subcommand (` configure` of `aws
  // configure set`) or its name (`sqlplus user/pw`), written after a character that ends a word — a
  // name's letters are too common a start to try at every place in a text
  const needCue = table.filter((s) => !s.flagged && (s.keys || s.positional?.some((p) => !p.with)))
  const subcommands = [...new Set(needCue.flatMap((s) => (s.after ? [s.after[0]!] : [])))]
  const names = [...new Set(needCue.flatMap((s) => (s.after ? [] : s.programs)))]
  const slashFlags = [...new Set(table.flatMap((s) => s.flags ?? []).map((f) => (typeof f === "string" ? f : f.flag)).filter((f) => !f.startsWith("-")))]
  // a short flag or bundle (`-p`, `-sSu`), a single-dash long one (`-storepass`), or a long one that
  // starts like one in the table (`--user`; not `--git`, `--color`)
  const longStarts = new Set(table.flatMap((s) => s.flags ?? []).map((f) => (typeof f === "string" ? f : f.flag)).filter((f) => f.startsWith("--")).map((f) => f[2]!))
  const flagStart = `(?=[A-Za-z0-9]|-[${[...longStarts].map((c) => escapeRegex(c)).join("")}])`
  const shape = (anchors: string[], source: string, follow?: string, atStart?: string[]): ArgumentRuleShape => ({
    anchors, source, ...(follow ? { follow } : {}), ...(atStart ? { atStart } : {}),
  })
  const shapes = [shape([" -", "\t-", "\n-", ' "-', " '-"], `[ \\t\\n]["']?-${flagStart}`, flagStart)]
  const alt = (words: readonly string[]) => `(?:${words.map(escapeRegex).join("|")})`
  if (subcommands.length > 0) shapes.push(shape(subcommands.map((w) => ` ${w}`), ` ${alt(subcommands)}(?=[ \\t])`))
  if (names.length > 0) {
    const anchors = [...DELIMITERS, "\\n", "\\r", "\\t"].flatMap((d) => names.map((n) => d + n))
    shapes.push(shape(anchors, String.raw`(?:^|[${escapeRegex(DELIMITERS.join(""))}]|\\[nrt])${alt(names)}(?:\.exe)?(?=[ \t]|\\\r?\n)`, undefined, names))
  }
  if (slashFlags.length > 0) shapes.push(shape(slashFlags.map((f) => ` ${f}`), ` ${alt(slashFlags)}`))
  return shapes
}

/** What stands right before a program's name (`/usr/bin/`, `bash -c '`); `a;b`, `$(b` are left to flags. */
const DELIMITERS = [" ", "\t", "\n", "/", "'", '"']

interface ProgramAt {
  name: string
  /** where the program's word starts and ends */
  index: number
  end: number
}

/** Known programs named in `text` between `start` and `end`: a word of its own (also the last part of
 *  `/usr/bin/mysql`, `sqlcmd.exe`, and after a JSON `\n`) followed by a blank or a backslash-newline.
 *  Words are looked up, not matched against every name (there are hundreds); a word whose first two
 *  letters start no name is not even cut out of the text (a line of prose holds no program). */
function programsIn(text: string, start: number, end: number, known: Names, max: number): ProgramAt[] {
  const out: ProgramAt[] = []
  const n = text.length
  // the words are the runs of [\w.-]: from `start`, then from the end of each one
  for (let at = start; out.length < max; ) {
    while (at < n && !isWordChar(text.charCodeAt(at))) at++
    if (at >= n || at >= end) break
    let to = at + 1
    while (to < n && isWordChar(text.charCodeAt(to))) to++
    const wordAt = at
    at = to
    if (!known.mayStart(text, wordAt, to)) continue
    let index = wordAt
    let name = text.slice(wordAt, to)
    // most words are not programs: the lookup comes first
    if (!known.names.has(name)) {
      if (name.endsWith(".exe") && known.names.has(name.slice(0, -4))) name = name.slice(0, -4)
      // `\nmysql` inside a JSON string: the `n` belongs to the escape
      else if (text.charCodeAt(index - 1) === 92 && /^[nrt]/.test(name) && known.names.has(name.slice(1))) [index, name] = [index + 1, name.slice(1)]
      else continue
    }
    if (index === wordAt && index > 0 && /[\w.-]/.test(text[index - 1]!)) continue
    // `"sshpass" -p X`: a quoted name ends after its quote
    const quoted = /["']/.test(text[wordAt - 1] ?? "") && text[to] === text[wordAt - 1] ? 1 : 0
    const wordEnd = to + quoted
    if (!/^(?:[ \t]|\\\r?\n)/.test(text.slice(wordEnd, wordEnd + 3))) continue
    out.push({ name, index, end: wordEnd })
  }
  return out
}

/** The program names, and a cheap test that a word may be one of them (or `NAME.exe`, or `\nNAME`). */
interface Names {
  names: ReadonlyMap<string, unknown>
  mayStart(text: string, from: number, to: number): boolean
}

function namesOf(names: ReadonlyMap<string, unknown>): Names {
  // the first two characters of every name (a one-character name: every word may be one)
  const pairs = new Uint8Array(128 * 128)
  let any = false
  for (const name of names.keys()) {
    const a = name.charCodeAt(0)
    const b = name.charCodeAt(1)
    if (name.length < 2 || a >= 128 || b >= 128) any = true
    else pairs[a * 128 + b] = 1
  }
  const pair = (text: string, i: number) => {
    const a = text.charCodeAt(i)
    const b = text.charCodeAt(i + 1)
    return a < 128 && b < 128 && pairs[a * 128 + b] === 1
  }
  return {
    names,
    mayStart: (text, from, to) =>
      any || (to - from >= 2 && pair(text, from)) || (to - from >= 3 && text.charCodeAt(from - 1) === 92 && pair(text, from + 1)),
  }
}

/** [A-Za-z0-9_.-] */
function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45
}

/** Programs read per match (a JSON line can hold many commands; the rest wait for a later match):
 *  bounds the work a text made of program names causes, else it grows with the square of its length. */
const MAX_PROGRAMS = 32

const PEEK = 2048

/** The secrets among the words after one program name (its command ends by `lineEnd`). */
function readCommand(text: string, m: ProgramAt, all: readonly ProgramArguments[], lineEnd: number, out: Located[]): void {
  const from = m.end
  // most mentions of a program name are not a command with a secret: look before reading words
  // (within a window, so a line of many commands is not searched again for each of them)
  const end = Math.max(from, lineEnd)
  const rest = text.slice(from, Math.min(end, from + PEEK))
  const specs = end - from > PEEK ? all : all.filter((spec) => mayHold(spec, rest))
  if (specs.length === 0) return
  const found: [number, number][] = []
  const shell = commandWords(text, from, "shell")
  for (const spec of specs) secretRanges(spec, shell, found)
  // inside a JSON string (`{"command":"sshpass -p \"a b\" ssh"}`) the quotes are escaped
  const read = shell.length > 0 ? shell[shell.length - 1]!.end : from
  if (text.slice(from, Math.max(read, from + 2)).includes("\\")) {
    const json = commandWords(text, from, "json")
    for (const spec of specs) secretRanges(spec, json, found)
  }
  for (const [s, e] of found) out.push([s, e, m.index])
}

/** The start of the line holding `at`, and of the lines before it that a trailing backslash continues. */
function commandStart(text: string, at: number): number {
  const floor = Math.max(0, at - MAX_COMMAND)
  for (let i = at - 1; ; i--) {
    while (i >= floor && text.charCodeAt(i) !== 10) i--
    if (i < floor) return floor
    const continued = text[i - 1] === "\\" || (text[i - 1] === "\r" && text[i - 2] === "\\")
    if (!continued) return i + 1
  }
}

/** The end of the line (and of the lines a trailing backslash continues), at most MAX_COMMAND on. */
function commandEnd(text: string, from: number): number {
  const limit = Math.min(text.length, from + MAX_COMMAND)
  for (let i = from; i < limit; i++) {
    if (text.charCodeAt(i) !== 10) continue
    const continued = text[i - 1] === "\\" || (text[i - 1] === "\r" && text[i - 2] === "\\")
    if (!continued) return i
  }
  return limit
}

/** A cheap necessary condition: the subcommand, a flag or a key name the spec needs is in the text. */
function mayHold(spec: ProgramArguments, rest: string): boolean {
  if (spec.after && !rest.includes(spec.after[0]!)) return false
  if (spec.keys) return spec.after !== undefined || rest.split(/[\s="']+/).some((word) => spec.keys!.test(word))
  if (spec.positional) return spec.positional.every((p) => !p.with) || rest.includes("-")
  // `-sSu user:pass`: a bundled flag is not written as itself
  if (spec.bundles) return rest.includes("-")
  return (spec.flags ?? []).some((f) => rest.includes(typeof f === "string" ? f : f.flag))
}

export function extraFlagsTable(flags: ExtraFlags): ProgramArguments[] {
  return Object.entries(flags)
    .filter(([, list]) => list.length > 0)
    .map(([program, list]) => ({ programs: [program], flags: [...list] }))
}
