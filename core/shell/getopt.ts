// Reading a command's options the way its own parser will (GNU getopt_long, git's parse-options):
// clustered short flags, values attached (`-oFILE`, `--out=F`) or in the next word, bundles that end in
// a value-taking flag (`-uo FILE`), long options by any unique prefix (`--outp` = `--output`). What is
// read is checked against an allowlist: an option we do not know is reported, never assumed harmless. Pure.
import type { Word } from "./word.ts"

/** How an option takes its value. */
export type Arity = "flag" | "value" | "optional" | "pair"

/** What an option does beyond reading: its value is a file it writes, or a program it runs. */
export type Effect = "write" | "run"

/**
 * An allowlist of a program's options, in getopt's own notation:
 * short: `"lah"` flags, `"n:"` takes a value, `"d::"` an optional attached value;
 * long: space-separated names, `name=` takes a value, `name?` an optional `=value`, `name==` the next two
 * words (jq's `--arg NAME VALUE`: the value read is the second).
 * Options listed in `writes`/`runs` (short letter or long name) are known but not read-only.
 */
export interface OptionList {
  short?: string
  long?: string
  /** `-20` is a count (head, tail) */
  numeric?: boolean
  /** git's parse-options: every long flag also has a `--no-` form */
  negatable?: boolean
  writes?: string
  runs?: string
  /** options are read only up to the first operand (POSIX order: env, xargs, find's start paths) */
  stopAtOperand?: boolean
  /** the program has options that write or run: a word we cannot read (`$X`) may be one of them */
  dangerous?: boolean
  /** options are whole words named by their first letter (`-cols 8` = `-c 8`, `-ps` = `-p`): xxd */
  singleDash?: boolean
}

export interface Compiled {
  short: Map<string, Arity>
  long: Map<string, Arity>
  longNames: string[]
  effects: Map<string, Effect>
  numeric: boolean
  negatable: boolean
  stopAtOperand: boolean
  dangerous: boolean
  singleDash: boolean
}

/** Compiled on first use: a process that never reads these options (most hook calls) pays nothing at start-up. */
export function lazyOptions(list: OptionList): () => Compiled {
  let compiled: Compiled | undefined
  return () => (compiled ??= compileOptions(list))
}

export function compileOptions(list: OptionList): Compiled {
  const short = new Map<string, Arity>()
  const s = list.short ?? ""
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!
    if (s[i + 1] === ":" && s[i + 2] === ":") {
      short.set(c, "optional")
      i += 2
    } else if (s[i + 1] === ":") {
      short.set(c, "value")
      i++
    } else short.set(c, "flag")
  }
  const long = new Map<string, Arity>()
  for (const raw of (list.long ?? "").split(/\s+/)) {
    if (!raw) continue
    const last = raw[raw.length - 1]
    if (raw.endsWith("==")) long.set(raw.slice(0, -2), "pair")
    else if (last === "=") long.set(raw.slice(0, -1), "value")
    else if (last === "?") long.set(raw.slice(0, -1), "optional")
    else long.set(raw, "flag")
  }
  const effects = new Map<string, Effect>()
  for (const n of (list.writes ?? "").split(/\s+/)) if (n) effects.set(n, "write")
  for (const n of (list.runs ?? "").split(/\s+/)) if (n) effects.set(n, "run")
  return {
    short, long, longNames: [...long.keys()], effects, numeric: !!list.numeric, negatable: !!list.negatable,
    stopAtOperand: !!list.stopAtOperand, dangerous: !!list.dangerous || effects.size > 0, singleDash: !!list.singleDash,
  }
}

/** An option that was given a value: its canonical name (letter or full long name) and the value. */
export interface Valued {
  name: string
  /** as written, for reasons (`--outp`, `-o` in `-uo`) */
  written: string
  value: Word | undefined
  effect?: Effect
}

export interface OptionReading {
  /** the first option not known to be read-only, as written (`--upload-pack`, `-x in -lx`), and why */
  unknown?: string
  /** options with an effect (write, run), and every valued option */
  valued: Valued[]
  operands: Word[]
}

const textOf = (w: Word) => w.value ?? w.text
// shared until the first valued option: most commands have none, and this runs for every command
const NONE: Valued[] = []

function addValued(out: OptionReading, v: Valued): void {
  if (out.valued === NONE) out.valued = []
  out.valued.push(v)
}

/** Read `words` (the arguments, without the program) against a compiled allowlist. */
export function readOptions(words: readonly Word[], spec: Compiled): OptionReading {
  const out: OptionReading = { valued: NONE, operands: [] }
  let done = false
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!
    const v = w.value
    if (done) {
      out.operands.push(w)
      continue
    }
    if (v === undefined) {
      // `$X` may expand to an option: for a program with options that write or run, we cannot place it
      if (spec.dangerous && (w.placeholder || !startsStatic(w))) out.unknown ??= `${w.text} (not static: it could be an option)`
      out.operands.push(w)
      if (spec.stopAtOperand) done = true
      continue
    }
    if (v.length < 2 || v.charCodeAt(0) !== 45) {
      out.operands.push(w)
      if (spec.stopAtOperand) done = true
      continue
    }
    if (v === "--") {
      done = true
      continue
    }
    if (v.charCodeAt(1) === 45) {
      i = readLong(words, i, v, spec, out)
      continue
    }
    if (spec.numeric && /^-\d+$/.test(v)) continue
    i = readShort(words, i, v, spec, out)
  }
  return out
}

// a quoted word with a static start that is not `-` (`"./$f"`) can never be an option
function startsStatic(w: Word): boolean {
  const t = w.text
  return t.length > 0 && t[0] !== "-" && t[0] !== "$" && t[0] !== "`"
}

function readLong(words: readonly Word[], i: number, v: string, spec: Compiled, out: OptionReading): number {
  const eq = v.indexOf("=")
  const given = eq < 0 ? v.slice(2) : v.slice(2, eq)
  let name = resolveLong(given, spec)
  let arity = name === undefined ? undefined : spec.long.get(name)
  let negated = false
  if (name === undefined && spec.negatable && given.startsWith("no-") && eq < 0) {
    // `--no-ext-diff` turns an option off: it is known, and does not do what the option does
    const base = resolveLong(given.slice(3), spec)
    if (base !== undefined && spec.long.get(base) !== "value") {
      name = base
      arity = "flag"
      negated = true
    }
  }
  if (name === undefined || arity === undefined) {
    out.unknown ??= v.slice(0, eq < 0 ? undefined : eq)
    return i
  }
  const effect = negated ? undefined : spec.effects.get(name)
  if (arity === "flag") {
    if (eq >= 0) out.unknown ??= v
    if (effect) addValued(out, { name, written: v, value: undefined, effect })
    return i
  }
  let value: Word | undefined
  // a pair is never written with `=` (jq refuses `--arg=a b`): not read as one, it is reported
  if (eq >= 0 && arity === "pair") out.unknown ??= v
  else if (eq >= 0) value = sliced(words[i]!, eq + 1)
  else if (arity === "value") value = words[++i]
  else if (arity === "pair") value = words[(i += 2)]
  const entry: Valued = { name, written: v.slice(0, eq < 0 ? undefined : eq), value }
  if (effect) entry.effect = effect
  addValued(out, entry)
  return i
}

/** getopt_long: an exact name, or a prefix of exactly one name. */
export function resolveLong(given: string, spec: Compiled): string | undefined {
  if (spec.long.has(given)) return given
  if (!given) return undefined
  // the names that start with `given` are a run in sorted order, from the first name not below it:
  // found by halving (rg, git and curl have hundreds of long names, and most words are not theirs)
  const names = sortedNames(spec.longNames)
  let lo = 0
  let hi = names.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (names[mid]! < given) lo = mid + 1
    else hi = mid
  }
  const found = names[lo]
  if (found === undefined || !found.startsWith(given)) return undefined
  // ambiguous (a second name starts so too): the program refuses it, we do not guess
  return names[lo + 1]?.startsWith(given) ? undefined : found
}

// each option list's long names sorted, made at its first prefix lookup (keyed by the list itself)
const SORTED = new WeakMap<readonly string[], string[]>()

function sortedNames(names: readonly string[]): string[] {
  let sorted = SORTED.get(names)
  if (!sorted) {
    sorted = [...names].sort()
    SORTED.set(names, sorted)
  }
  return sorted
}

function readShort(words: readonly Word[], i: number, v: string, spec: Compiled, out: OptionReading): number {
  if (spec.singleDash) return readWord(words, i, v, spec, out)
  for (let j = 1; j < v.length; j++) {
    const c = v[j]!
    const arity = spec.short.get(c)
    if (arity === undefined) {
      out.unknown ??= v.length > 2 ? `-${c} (in ${v})` : v
      return i
    }
    const effect = spec.effects.get(c)
    if (arity === "flag") {
      if (effect) addValued(out, { name: c, written: `-${c}`, value: undefined, effect })
      continue
    }
    let value: Word | undefined
    if (j + 1 < v.length) value = sliced(words[i]!, j + 1)
    else if (arity === "value") value = words[++i]
    const entry: Valued = { name: c, written: v.length > 2 ? `-${c} (in ${v})` : `-${c}`, value }
    if (effect) entry.effect = effect
    addValued(out, entry)
    return i
  }
  return i
}

// xxd's own parser: `-c8` attaches a value, `-cols 8` and `-c 8` take the next word, `-ps` is `-p`. Only the
// long spelling's own tail takes the next word (xxd compares `-c` + "ols", `-g` + "roup"...): any other
// attached text is the value (`-nfoo` names the variable foo, `-ox` is offset 0), `-capitalize` is `-C`
function readWord(words: readonly Word[], i: number, v: string, spec: Compiled, out: OptionReading): number {
  const c = v[1]!
  const arity = spec.short.get(c)
  if (arity === undefined) {
    out.unknown ??= v
    return i
  }
  if (arity === "flag") return i
  const rest = v.slice(2)
  if (c === "c" && rest.startsWith("apitalize")) return i
  const attached = rest !== "" && !longTail(c, rest)
  addValued(out, { name: c, written: v, value: attached ? sliced(words[i]!, 2) : words[++i] })
  return i
}

function longTail(c: string, rest: string): boolean {
  switch (c) {
    case "c": return rest.startsWith("ols")
    case "g": return rest.startsWith("roup")
    case "l": return rest.startsWith("en")
    case "n": return rest.startsWith("ame")
    case "o": return rest.startsWith("ffset")
    case "s": return rest.startsWith("kip") || rest.startsWith("eek")
    default: return false
  }
}

/** The rest of a word after `at` characters of its value (`-oFILE` -> `FILE`), keeping what is known. */
function sliced(w: Word, at: number): Word {
  const value = textOf(w).slice(at)
  // bash expands `~` only at the start of a word (and after `=` in assignments), never in `-o~/x`
  return { ...w, text: w.text.slice(at), value: w.value === undefined ? undefined : value, tilde: false }
}
