// Which words of one command are secrets, by the table in arguments.ts: the flags, positional
// arguments and key/value pairs a program takes its passwords in. Pure. Also applies it to an argv
// array (`{ command: "mysql", args: ["-pX"] }`), where the words are given.
import { SECRET_ARGUMENTS, type ProgramArguments, type SecretFlag, type SecretPart } from "./arguments.ts"
import { isPlaceholder } from "./contexts.ts"
import type { ShellWord } from "./words.ts"

/** An argv with the secrets of its program's arguments replaced by `marker`, or undefined when it
 *  names no known program or holds no secret. */
export function redactArgv(argv: readonly string[], marker: string, tables: readonly (readonly ProgramArguments[])[] = [SECRET_ARGUMENTS]): string[] | undefined {
  const found = argvRanges(argv, tables)
  if (!found) return undefined
  return [argv[0]!, ...found.words.map((w) => hideIn(w, found.ranges, marker))]
}

/** The secret parts of an argv's arguments, as strings. */
export function argvSecrets(argv: readonly string[], tables: readonly (readonly ProgramArguments[])[]): string[] {
  const found = argvRanges(argv, tables)
  if (!found) return []
  const joined = found.words.map((w) => w.value).join("\0")
  return found.ranges.map(([s, e]) => joined.slice(s, e))
}

function argvRanges(argv: readonly string[], tables: readonly (readonly ProgramArguments[])[]): { words: ShellWord[]; ranges: [number, number][] } | undefined {
  const program = (argv[0] ?? "").replace(/^.*[/\\]/, "").replace(/\.exe$/i, "")
  const specs = tables.flatMap((t) => t.filter((s) => s.programs.includes(program)))
  if (specs.length === 0) return undefined
  // each argument a word of its own; positions in the arguments joined by NULs
  const words: ShellWord[] = []
  let pos = 0
  for (const value of argv.slice(1)) {
    const at = Array.from(value, (_, i) => pos + i)
    words.push({ value, at, to: at.map((i) => i + 1), start: pos, end: pos + value.length, redirect: false })
    pos += value.length + 1
  }
  const ranges: [number, number][] = []
  for (const spec of specs) secretRanges(spec, words, ranges)
  return ranges.length === 0 ? undefined : { words, ranges }
}

function hideIn(w: ShellWord, ranges: readonly [number, number][], marker: string): string {
  const mine = ranges.filter(([s, e]) => s >= w.start && e <= w.end).sort((a, b) => a[0] - b[0])
  let value = ""
  let at = w.start
  for (const [s, e] of mine) {
    if (e <= at) continue
    value += w.value.slice(at - w.start, Math.max(at, s) - w.start) + (s >= at ? marker : "")
    at = e
  }
  return value + w.value.slice(at - w.start)
}

/** Appends the text ranges of the secrets among `words` (the arguments of one of `spec`'s programs). */
export function secretRanges(spec: ProgramArguments, words: readonly ShellWord[], out: [number, number][]): void {
  const flags = (spec.flags ?? []).map((f): SecretFlag => (typeof f === "string" ? { flag: f } : f))
  const positionals: ShellWord[] = []
  let letters = ""
  let onlyPositionals = false
  const hide = (w: ShellWord | undefined, from: number, part: SecretPart = "all") => {
    // a lone `-` is stdin (`vault login -`), never the secret itself
    if (w && !w.redirect && w.value !== "-") hideRange(w, from, part, out)
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
