// A program ccode does not know may run its arguments as a command (prlimit, setpriv, numactl, faketime,
// valgrind, capsh -- -c, expect -c "spawn ...", dc -e '!cmd'). Its own part stays unknown
// (medium), and every place where its arguments spell a program ccode knows is analysed as the command
// it may run: a policy that auto-approves medium (ci) still sees `mkfs`, `git push --force` or `reboot`
// there and its deny rules and critical risks apply. Pure.
import { literalWord } from "./word.ts"
import { basename, inner, environment, type Expander, type Part } from "./part.ts"
import { TABLE } from "./table.ts"
import { ASSESSORS } from "./assess.ts"
import { knownPrograms } from "./known.ts"
import { SHELLS } from "./shells.ts"
import { baseProgram } from "./classify.ts"

type Unwrap = (part: Part, ex: Expander) => void

// the analysis' own names, plus the runners expand.ts and runners.ts handle (passed in: they live there):
// `known` is every name an argument may spell; `judged` the programs always judged on their own (a
// table entry that is not conditional on its words, an assessor, an option list, a runner; a program
// with subcommands like systemctl), whose arguments are theirs.
// A program with only conditional entries (vim's inline-code entry) may still be "not a command ccode
// knows" for its own words, so its arguments are looked at too (`vim +'!mkfs.ext4 d'`).
let SETS: { known: Set<string>; judged: Set<string> } | undefined

function knownSets(extra: () => Iterable<string>): { known: Set<string>; judged: Set<string> } {
  if (SETS) return SETS
  const always = [...ASSESSORS.keys(), ...knownPrograms(), ...SHELLS, ...extra()]
  const judged = new Set([...TABLE.filter((e) => !e.when).flatMap((e) => e.programs), ...always])
  SETS = { known: new Set([...TABLE.flatMap((e) => e.programs), ...always, ...MKFS]), judged }
  return SETS
}

// the table knows them all as mkfs; a glob (`mkfs.ext[4]`) is matched against real names
const MKFS = ["ext2", "ext3", "ext4", "xfs", "btrfs", "vfat", "fat", "msdos", "ntfs", "exfat", "f2fs", "minix", "cramfs", "bfs"].map((f) => `mkfs.${f}`)

// more places than this in one command line are not looked at one by one: the rest is one script
const MAX_TAILS = 8
const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/

/** Analyse what an unknown program's arguments could run; the unknown part itself is pushed by the caller. */
export function unknownRunner(part: Part, ex: Expander, unwrap: Unwrap, runnerNames: () => Iterable<string>): void {
  const { known, judged } = knownSets(runnerNames)
  if (judged.has(baseProgram(part.program))) return
  const words = part.words
  let tails = 0
  for (let i = 1; i < words.length; i++) {
    const v = words[i]!.value
    if (v === undefined) continue
    if (tails >= MAX_TAILS) {
      // more is padding to hide the one that runs: not followed one by one, so not let through
      if (spellsProgram(v, known) || (words[i]!.glob && globSpells(v, known)) || programsIn(v, known).length) return tooMany(part)
      continue
    }
    if (words[i]!.glob && globSpells(v, known)) {
      // `/sbin/mkfs.ext[4]`: bash fills the name in from the disk
      tails++
      unwrap(inner(part, [{ ...words[i]!, value: undefined, expanded: true }, ...words.slice(i + 1)], "runner"), ex)
      continue
    }
    // `--exec=reboot`: an option's value is looked at like a word of its own
    const text = /^-[^=\s]*=/.test(v) ? v.slice(v.indexOf("=") + 1) : v
    if (text === v && spellsProgram(v, known)) {
      tails++
      unwrap(inner(part, words.slice(i), "runner"), ex)
      continue
    }
    // `sg root -c "mkfs.ext4 disk.img"`, `expect -c "spawn reboot"`, `--exec=reboot`: a command line in one
    // word, read as a script; a program glued to punctuation the shell does not split at (`dc -e '!cat x'`)
    // is read from where it starts too
    const starts = text === v && NAME.test(v) ? [] : programsIn(text, known)
    if (!starts.length) continue
    for (const at of [0, ...starts.filter((at) => at > 0 && !/[\s;&|()`$<>{}"']/.test(text[at - 1]!))]) {
      if (tails++ >= MAX_TAILS) return tooMany(part)
      ex.out.push(...ex.nested(literalWord(text.slice(at)), { context: [...part.context, "runner"], cwd: part.cwd, loader: part.loader, exported: environment(part) }))
    }
  }
}

function tooMany(part: Part): void {
  part.findings.push({ name: "unknown", level: "high", reason: `${part.program} is not a command ccode knows and its arguments name more than ${MAX_TAILS} programs it may run` })
}

/** Where in a word holding a command line each program ccode knows starts (`!cat x` -> [1]). */
function programsIn(text: string, known: Set<string>): number[] {
  const out: number[] = []
  for (const m of text.matchAll(/(?<![A-Za-z0-9_.+\/-])[A-Za-z0-9_.+\/-]+/g)) if (spellsProgram(m[0], known)) out.push(m.index!)
  return out
}

// `mkfs.ext4`, `/sbin/mkfs.ext4`, `../../sbin/reboot`; any case (a case-insensitive file system runs `REBOOT`)
function spellsProgram(v: string, known: Set<string>): boolean {
  const name = (v.includes("/") ? basename(v) : v).toLowerCase()
  return NAME.test(name) && (known.has(baseProgram(name)) || /^git-./.test(name))
}

function globSpells(v: string, known: Set<string>): boolean {
  const name = (v.includes("/") ? basename(v) : v).toLowerCase()
  const re = globRegex(name)
  for (const k of known) if (re.test(k)) return true
  return false
}

// a bash glob as a regular expression over one name: `*`, `?`, `[...]` (any class is any character)
function globRegex(glob: string): RegExp {
  let out = ""
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!
    if (c === "*") out += ".*"
    else if (c === "?") out += "."
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2)
      if (end < 0) out += "\\["
      else {
        out += "."
        i = end
      }
    } else out += c.replace(/[.+^${}()|\\]/g, "\\$&")
  }
  return new RegExp(`^${out}$`)
}
