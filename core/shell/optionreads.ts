// Files a program reads through an option's value (`grep -f FILE`, `grep --fil=FILE`, `sed -f`,
// `awk -f`, `diff --from-file`, `xargs -a FILE`, `wget -i`): they are reads the path rules and
// risk.paths judge, so reading ~/.ssh/id_rsa through one is seen. Programs with a read-only option list
// are read with it (getopt exactly); the others conservatively: every option word that could be one of
// these (a unique or ambiguous long prefix, a letter anywhere in a bundle) counts. Reporting a word as
// read that is not one costs nothing: a read only adds risk. Pure.
import type { Word } from "./word.ts"
import { known } from "./known.ts"
import { readOptions, type Compiled, type OptionReading } from "./getopt.ts"
import { byName } from "./options.ts"

interface FileOptions {
  /** short letters whose value is a file read */
  short?: string
  /** long names whose value is a file read */
  long?: string
}

const FILE_OPTIONS = byName<FileOptions>({
  // with a read-only option list (known.ts): names are canonical there
  grep: { short: "f", long: "file exclude-from" },
  rg: { short: "f", long: "file ignore-file" },
  ag: { short: "p", long: "path-to-ignore" },
  diff: { short: "X", long: "from-file to-file exclude-from" },
  date: { short: "fr", long: "file reference" },
  file: { short: "fm", long: "files-from magic-file" },
  du: { short: "X", long: "exclude-from files0-from" },
  wc: { long: "files0-from" },
  sort: { long: "files0-from random-source" },
  jq: { short: "f", long: "from-file slurpfile rawfile" },
  yq: { long: "from-file" },
  hexdump: { short: "f", long: "format-file" },
  tree: { long: "gitfile infofile" },
  info: { short: "f", long: "file" },
  man: { short: "C", long: "config-file" },
  ss: { short: "F", long: "filter" },
  // without one: read conservatively
  sed: { short: "f", long: "file" },
  awk: { short: "fi", long: "file include" },
  xargs: { short: "a", long: "arg-file" },
  wget: { short: "i", long: "input-file load-cookies" },
  curl: { short: "K", long: "config" },
  tar: { short: "TX", long: "files-from exclude-from" },
  patch: { short: "i", long: "input" },
  rsync: { long: "files-from exclude-from include-from password-file" },
})
const ALIASES = new Map([["egrep", "grep"], ["fgrep", "grep"], ["gawk", "awk"], ["mawk", "awk"], ["nawk", "awk"], ["gtar", "tar"], ["bsdtar", "tar"]])

/** Whether the option (a letter or a canonical long name of the program's read-only list) reads the file its value names. */
export function readsFileOption(program: string, name: string): boolean {
  const f = FILE_OPTIONS.get(ALIASES.get(program) ?? program)
  if (!f) return false
  return name.length === 1 ? (f.short ?? "").includes(name) : (f.long ?? "").split(" ").includes(name)
}

/** The words a program reads as files through its options' values (`words`: the program and its arguments). */
export function optionReads(program: string, words: readonly Word[]): Word[] {
  const found = fileOptions(program, words)
  return found === NO_READS ? NONE : found.map((r) => r.value)
}

/** Why an option reads a file nobody can name before the command runs (`date -f $(...)` shows the
 *  file's lines in its errors); undefined when every such file is named. */
export function optionReadsUnknown(program: string, words: readonly Word[]): string | undefined {
  for (const r of fileOptions(program, words)) {
    const w = r.value
    // a process substitution's content comes from a command analysed on its own
    if (!w.procsub && (w.value === undefined || w.placeholder || w.hollow)) return `${program} ${r.option} reads ${w.text}, a file named only at run time: it could be a secret (shown in the output or its errors)`
  }
  // `--files0-from=$(...)` is one word known only at run time: its static start names the option
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!
    if (w.value !== undefined || !w.text.startsWith("-")) continue
    const head = /^[^$`"'\\]*/.exec(w.text)![0]
    const opened = fileOptions(program, [words[0]!, { ...w, text: head, value: `${head}\0` }])
    if (opened.length) return `${program} ${head.replace(/=$/, "")} reads a file named only at run time (${w.text}): it could be a secret (shown in the output or its errors)`
  }
  return undefined
}

interface OptionRead {
  /** the option as written (`--files0-from`, `-f (in -nf)`) */
  option: string
  value: Word
}

function fileOptions(program: string, words: readonly Word[]): OptionRead[] {
  const name = ALIASES.get(program) ?? program
  const spec = FILE_OPTIONS.get(name)
  if (!spec) return NO_READS
  const k = known(name)
  if (k && !k.data) {
    const out: OptionRead[] = []
    for (const v of reading(words, k.options).valued) {
      if (!v.value) continue
      if (v.name.length === 1 ? spec.short?.includes(v.name) : ` ${spec.long ?? ""} `.includes(` ${v.name} `)) out.push({ option: v.written, value: v.value })
    }
    return out
  }
  return conservative(words.slice(1), spec)
}

const NO_READS: OptionRead[] = []
const NONE: Word[] = []
// one command's options are read here for its file reads, its pattern and its recursive reads: once
let lastWords: readonly Word[] | undefined
let lastSpec: Compiled | undefined
let lastReading: OptionReading | undefined

function reading(words: readonly Word[], spec: Compiled): OptionReading {
  if (words === lastWords && spec === lastSpec && lastReading) return lastReading
  lastReading = readOptions(words.slice(1), spec)
  lastWords = words
  lastSpec = spec
  return lastReading
}

// each program's long names split once (keyed by its entry in FILE_OPTIONS)
const LONGS = new WeakMap<FileOptions, string[]>()

function conservative(args: readonly Word[], spec: FileOptions): OptionRead[] {
  let longs = LONGS.get(spec)
  if (!longs) {
    longs = (spec.long ?? "").split(" ").filter(Boolean)
    LONGS.set(spec, longs)
  }
  const out: OptionRead[] = []
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value
    if (v === undefined || v.length < 2 || v[0] !== "-") continue
    if (v === "--") break
    if (v[1] === "-") {
      const eq = v.indexOf("=")
      const given = v.slice(2, eq < 0 ? undefined : eq)
      if (!given || !longs.some((l) => l.startsWith(given))) continue
      const option = v.slice(0, eq < 0 ? undefined : eq)
      if (eq >= 0) out.push({ option, value: attached(args[i]!, eq + 1) })
      else if (args[i + 1]) out.push({ option, value: args[i + 1]! })
      continue
    }
    // the first letter that reads a file, counted in code points as a spread of the word would (-1: none)
    let at = -1
    let k = -1
    for (const c of v.slice(1)) {
      k++
      if (spec.short?.includes(c)) {
        at = k
        break
      }
    }
    if (at < 0) continue
    const option = v.length > 2 ? `-${v[at + 1]} (in ${v})` : v
    if (at + 2 < v.length) out.push({ option, value: attached(args[i]!, at + 2) })
    else if (args[i + 1]) out.push({ option, value: args[i + 1]! })
  }
  return out
}

// bash expands `~` only at the start of a word, never in `--file=~/x` or `-f~/x`
function attached(w: Word, at: number): Word {
  const value = (w.value ?? "").slice(at)
  return { ...w, text: value, value, tilde: false }
}

/** grep and rg take their pattern from -e/-f when one is given: then every operand is a file. */
export function patternGiven(program: string, words: readonly Word[]): boolean {
  const name = ALIASES.get(program) ?? program
  if (name !== "grep" && name !== "rg" && name !== "ag" && name !== "ack") return false
  const k = known(name)
  if (!k) return false
  return reading(words, k.options).valued.some((v) => v.name === "e" || v.name === "f" || v.name === "regexp" || v.name === "file" || v.name === "match")
}

// man's option list with -l/--local-file marked, so that getopt reports them however they are spelled (`-wl`, `--loc`)
let manMarked: Compiled | undefined

/** man formats a local file (`-l FILE`, `-l -`, `--local-file`, an operand with a `/` or known only at
 *  run time) rather than a page by name: the text's requests (`.so`, `.mso`) read any file. */
export function manFormatsLocal(words: readonly Word[]): boolean {
  const k = known("man")
  if (!k) return true
  manMarked ??= { ...k.options, effects: new Map([...k.options.effects, ["l", "run"], ["local-file", "run"]]) }
  const r = readOptions(words.slice(1), manMarked)
  if (r.valued.some((v) => v.name === "l" || v.name === "local-file")) return true
  return r.operands.some((o) => o.value === undefined || o.placeholder || o.hollow || o.procsub || o.value === "-" || o.value.includes("/"))
}

/** man looks its pages up in folders named for this command (`-M DIR`, `--manpath=DIR`, MANPATH set by the
 *  script): a page there is a file like any other, and its `.so` requests read any file. */
export function manPagesFrom(words: readonly Word[], set: readonly string[]): boolean {
  const k = known("man")
  if (!k || set.includes("MANPATH")) return true
  return readOptions(words.slice(1), k.options).valued.some((v) => v.name === "M" || v.name === "manpath")
}
