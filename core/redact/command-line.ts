// Secrets typed as arguments (`sshpass -p X`, `curl -u user:X`, `mysql -pX`, `htpasswd -b f user X`):
// wherever a known program's name starts a command in a text, its words are read as the shell reads
// them and the table in arguments.ts says which are secrets. Pure.
import { SECRET_ARGUMENTS, type ProgramArguments, type SecretFlag, type SecretPart } from "./arguments.ts"
import { isPlaceholder } from "./contexts.ts"
import { escapeRegex, type Located, type Rule } from "./spans.ts"
import { commandWords, MAX_COMMAND, type ShellWord } from "./words.ts"

export const SECRET_ARGUMENT_ID = "secret-argument"

/** Policy `redaction.flags`: program -> flags whose value is a secret (any form, the whole value). */
export type ExtraFlags = Record<string, readonly string[]>

/** The built-in table, or only the policy's additions (the built-in rules are compiled once per
 *  process). Two rules, one reading: the scan looks for what is rare in ordinary text and necessary
 *  in such a command — a flag (` -p`, ` --user`, ` /p:`), or the name of a program whose secrets are
 *  not behind a flag (`aws configure set`, `sqlplus user/pw`) — and only then for the program names
 *  on that line, which are too many to look for everywhere. */
export function secretArgumentRules(table: readonly ProgramArguments[] = SECRET_ARGUMENTS): Rule[] {
  const byProgram = new Map<string, ProgramArguments[]>()
  for (const spec of table) for (const p of spec.programs) byProgram.set(p, [...(byProgram.get(p) ?? []), spec])
  // each rule reads a command once per scan (a rule's spans keep its rank whatever finds them first)
  const reader = () => {
    const seen = Symbol("commands read")
    return (m: RegExpExecArray, text: string, memo: Map<unknown, unknown>): Located[] => {
      const start = commandStart(text, m.index)
      const done = (memo.get(seen) as Set<number> | undefined) ?? new Set<number>()
      memo.set(seen, done)
      if (done.has(start)) return []
      done.add(start)
      const out: Located[] = []
      for (const p of programsIn(text, start, commandEnd(text, m.index), byProgram)) readCommand(text, p, byProgram.get(p.name)!, out)
      return out
    }
  }
  // what leads to a command whose secrets need no flag: its subcommand (`configure` of `aws configure
  // set`) or its name (`sqlplus user/pw`); and flags that do not start with `-` (`/p:`)
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
  const rule = (anchors: string[], re: string, follow?: string, atStart?: boolean): Rule => ({
    id: SECRET_ARGUMENT_ID, anchors, re: new RegExp(re, "g"), locate: reader(), ...(follow ? { follow } : {}), ...(atStart ? { atStart } : {}),
  })
  const rules = [rule([" -", "\t-", "\n-", ' "-', " '-"], `[ \\t\\n]["']?-${flagStart}`, flagStart)]
  const alt = (words: readonly string[]) => `(?:${words.map(escapeRegex).join("|")})`
  if (subcommands.length > 0) rules.push(rule(subcommands.map((w) => ` ${w}`), ` ${alt(subcommands)}(?=[ \\t])`))
  if (names.length > 0) {
    const anchors = [...DELIMITERS, "\\n", "\\r", "\\t"].flatMap((d) => names.map((n) => d + n))
    rules.push(rule(anchors, String.raw`(?:^|[${escapeRegex(DELIMITERS.join(""))}]|\\[nrt])${alt(names)}(?:\.exe)?(?=[ \t]|\\\r?\n)`, undefined, true))
  }
  if (slashFlags.length > 0) rules.push(rule(slashFlags.map((f) => ` ${f}`), ` ${alt(slashFlags)}`))
  return rules
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
 *  Words are looked up, not matched against every name (there are hundreds). */
function programsIn(text: string, start: number, end: number, known: ReadonlyMap<string, unknown>): ProgramAt[] {
  const out: ProgramAt[] = []
  WORD.lastIndex = start
  for (let w = WORD.exec(text); w !== null && w.index < end; w = WORD.exec(text)) {
    let index = w.index
    let name = w[0]
    // most words are not programs: the lookup comes first
    if (!known.has(name)) {
      if (name.endsWith(".exe") && known.has(name.slice(0, -4))) name = name.slice(0, -4)
      // `\nmysql` inside a JSON string: the `n` belongs to the escape
      else if (text.charCodeAt(index - 1) === 92 && /^[nrt]/.test(name) && known.has(name.slice(1))) [index, name] = [index + 1, name.slice(1)]
      else continue
    }
    if (index === w.index && index > 0 && /[\w.-]/.test(text[index - 1]!)) continue
    const wordEnd = w.index + w[0].length
    if (!/^(?:[ \t]|\\\r?\n)/.test(text.slice(wordEnd, wordEnd + 3))) continue
    out.push({ name, index, end: wordEnd })
  }
  return out
}

const WORD = /[\w.-]+/g

/** The secrets among the words after one program name. */
function readCommand(text: string, m: ProgramAt, all: readonly ProgramArguments[], out: Located[]): void {
  const from = m.end
  const rest = text.slice(from, commandEnd(text, from))
  // most mentions of a program name are not a command with a secret: look before reading words
  const specs = all.filter((spec) => mayHold(spec, rest))
  if (specs.length === 0) return
  const found: [number, number][] = []
  const shell = commandWords(text, from, "shell")
  for (const spec of specs) secretRanges(spec, shell, found)
  // inside a JSON string (`{"command":"sshpass -p \"a b\" ssh"}`) the quotes are escaped
  if (rest.includes("\\")) {
    const json = commandWords(text, from, "json")
    for (const spec of specs) secretRanges(spec, json, found)
  }
  for (const [s, e] of found) out.push([s, e, m.index])
}

/** The start of the line holding `at`, and of the lines before it that a trailing backslash continues. */
function commandStart(text: string, at: number): number {
  let start = text.lastIndexOf("\n", at - 1) + 1
  while (start >= 2 && (text[start - 2] === "\\" || (text[start - 2] === "\r" && text[start - 3] === "\\"))) {
    start = text.lastIndexOf("\n", start - 2) + 1
  }
  return start
}

/** The end of the line (and of the lines a trailing backslash continues), at most MAX_COMMAND on. */
function commandEnd(text: string, from: number): number {
  const limit = Math.min(text.length, from + MAX_COMMAND)
  let end = from
  for (;;) {
    const nl = text.indexOf("\n", end)
    if (nl < 0 || nl >= limit) return limit
    if (text[nl - 1] !== "\\" && !(text[nl - 1] === "\r" && text[nl - 2] === "\\")) return nl
    end = nl + 1
  }
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

/** Appends the text ranges of the secrets among `words` (the arguments of one of `spec`'s programs). */
export function secretRanges(spec: ProgramArguments, words: readonly ShellWord[], out: [number, number][]): void {
  const flags = (spec.flags ?? []).map((f): SecretFlag => (typeof f === "string" ? { flag: f } : f))
  const positionals: ShellWord[] = []
  let letters = ""
  let onlyPositionals = false
  const hide = (w: ShellWord | undefined, from: number, part: SecretPart = "all") => {
    if (w && !w.redirect) hideRange(w, from, part, out)
  }
  // before the subcommands of `after` have been seen, no flag is a secret one
  const active = () => !spec.after || (positionals.length >= spec.after.length && spec.after.every((s, i) => positionals[i]!.value === s))
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!
    if (w.redirect) continue
    const v = w.value
    if (onlyPositionals || v.length < 2 || (v[0] !== "-" && v[0] !== "/")) {
      positionals.push(w)
      continue
    }
    if (v === "--") {
      onlyPositionals = true
      continue
    }
    const found = active() ? matchFlag(flags, spec.bundles, v) : undefined
    if (found) {
      if (found.at === undefined) hide(words[++i], 0, found.flag.part)
      else hide(w, found.at, found.flag.part)
      continue
    }
    if (v[0] === "/") positionals.push(w)
    else if (spec.valued?.includes(v)) i++
    else if (/^-[A-Za-z]+$/.test(v)) letters += v.slice(1)
  }
  const args = spec.after ? (active() ? positionals.slice(spec.after.length) : []) : positionals
  for (const p of spec.positional ?? []) {
    if (p.with && ![...p.with].every((c) => letters.includes(c))) continue
    if (p.without && [...p.without].some((c) => letters.includes(c))) continue
    hide(args[p.index], 0, p.part)
  }
  if (spec.keys) {
    for (let k = 0; k < args.length; k++) {
      const v = args[k]!.value
      const eq = v.indexOf("=")
      if (eq > 0 && spec.keys.test(v.slice(0, eq))) hide(args[k], eq + 1)
      else if (spec.keys.test(v)) hide(args[++k], 0)
    }
  }
}

/** Where a word's secret value starts: `at` inside the word, or undefined for the next word. */
function matchFlag(flags: readonly SecretFlag[], bundles: string | undefined, v: string): { flag: SecretFlag; at?: number } | undefined {
  for (const flag of flags) {
    const f = flag.flag
    if (v === f) return flag.form === "attached" || /[:=]$/.test(f) ? undefined : { flag }
    if (!v.startsWith(f) || flag.form === "separate") continue
    if (/[:=]$/.test(f)) return { flag, at: f.length }
    if (v[f.length] === "=" && f.length > 2) return { flag, at: f.length + 1 }
    // `-pX`: a short flag with its value attached
    if (f.length === 2 && f[0] === "-") return { flag, at: 2 }
  }
  // `-sSu user:pass`, `-xwSECRET`: value-less short flags first, then the secret one
  if (!bundles || v[1] === "-") return undefined
  for (let k = 1; k < v.length; k++) {
    const flag = flags.find((x) => x.flag.length === 2 && x.flag[0] === "-" && x.flag[1] === v[k])
    if (flag) {
      if (k === v.length - 1) return flag.form === "attached" ? undefined : { flag }
      return flag.form === "separate" ? undefined : { flag, at: k + 1 }
    }
    if (!bundles.includes(v[k]!)) return undefined
  }
  return undefined
}

function hideRange(w: ShellWord, from: number, part: SecretPart, out: [number, number][]): void {
  const range = partOf(w.value.slice(from), part)
  if (!range) return
  const [s, e] = [from + range[0], from + range[1]]
  const secret = w.value.slice(s, e)
  // quotes left in a value are JSON's (`\"$PASS\"` read as the shell would)
  if (secret.length === 0 || isPlaceholder(secret.replace(/^["']+/, "")) || secret.includes("[REDACTED:")) return
  out.push([w.at[s]!, w.to[e - 1]!])
}

/** The secret's range within a value, or undefined when this value holds none. */
function partOf(v: string, part: SecretPart): [number, number] | undefined {
  const after = (sep: string) => {
    const i = v.indexOf(sep)
    return i < 0 ? undefined : ([i + 1, v.length] as [number, number])
  }
  switch (part) {
    case "all": return [0, v.length]
    case "after-colon": return after(":")
    case "after-percent": return after("%")
    case "after-comma": return after(",")
    case "after-equals": return after("=")
    // openssl: `pass:X` is a password; `env:VAR`, `file:PATH`, `fd:N`, `stdin` say where one is
    case "pass-prefix": return v.startsWith("pass:") ? [5, v.length] : undefined
    // sqlplus user/password@db (`/ as sysdba` has none)
    case "slash-password": {
      const slash = v.indexOf("/")
      if (slash < 0) return undefined
      const at = v.indexOf("@", slash)
      return [slash + 1, at < 0 ? v.length : at]
    }
  }
}
