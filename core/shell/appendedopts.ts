// The words xargs (or parallel) adds to a read-only program at run time. A command that ends in an option
// taking a value (`xargs date -f`, `xargs du --files0-from`) gets the first added word as that value: a
// file named only at run time, whose lines date/file/wc/du quote in their errors. Added words that start
// with `-` are options of the program (`xargs wc` reading `--files0-from=.env` from a file name, `xargs ps`
// with `e`, `xargs getent` with `-s`, `xargs hostname NAME` renaming the machine): for the programs with
// such options, the added words are judged unknown unless the input is known not to hold any (static echo
// or printf text without one; find's paths split at NULs, each starting with the start folder). Pure.
import type { Finding } from "./raw.ts"
import type { Part } from "./part.ts"
import type { TouchedPath } from "./types.ts"
import type { Compiled, OptionReading } from "./getopt.ts"
import { readsFileOption } from "./optionreads.ts"

// programs whose input items are names of the folder's files (ls, git's file lists): for wc and du, whose
// one option that reads (--files0-from=F, F a file of the folder) a file name can hold, the folder is
// looked up on disk for a name starting with `-` (touched.ts) instead of asking
// (not with an option that prints other text: --format, --line-prefix, --src-prefix, --output)
function namesOnly(producer: string): boolean {
  if (/^ls(?:\s+-[A-Za-z1]+)*\s*$/.test(producer)) return true
  if (/prefix|format|--output|[|;&<>`$]/.test(producer)) return false
  return /^git\s+ls-files(?:\s|$)/.test(producer) || (/^git\s+diff(?:\s|$)/.test(producer) && /\s--name-only(?:\s|$)/.test(producer))
}

// read-only programs with an option (or, hostname, an operand) that reads a file and prints its lines,
// prints environments, loads code, changes the machine or looks names up
const INJECTABLE = new Set(["ps", "getent", "hostname", "date", "file", "last", "lastb", "lscpu", "lsblk", "wc", "du"])
// every word is an option (ps takes BSD options without a dash) or sets something (hostname NAME)
const ANY_WORD = new Set(["ps", "hostname"])

export function appendedOptions(part: Part, program: string, spec: Compiled, reading: OptionReading, out: Finding[]): void {
  if (!part.context.some((c) => c === "xargs" || c === "parallel")) return
  // `xargs -I{} wc {}`: an item put at the start of a word may start with `-` too
  const mark = part.appendedPlaceholder
  if (mark !== undefined) {
    if (!INJECTABLE.has(program) || part.words.some((w) => w.value === "--")) return
    const leading = part.words.slice(1).find((w) => w.placeholder && w.text.startsWith(mark))
    if (leading && namesOnDisk(part, program)) return
    if (leading && !inputHasNoOptions(part, program, ANY_WORD.has(program))) {
      out.push({ name: "unknown-option", level: "medium", reason: `${program} ${leading.text}: the item xargs puts there at run time may start with - and be an option (it can make ${program} read files)` })
    }
    return
  }
  if (!part.appended) return
  for (const o of reading.valued) {
    if (o.value !== undefined || arity(spec, o.name) !== "value" || !readsFileOption(program, o.name)) continue
    out.push({ name: "read-unknown", level: "medium", reason: `${program} ${o.written} takes its value from the words xargs adds at run time: a file named only then could be a secret` })
    return
  }
  if (!INJECTABLE.has(program)) return
  const ended = !ANY_WORD.has(program) && part.words.some((w) => w.value === "--")
  if (ended || inputHasNoOptions(part, program, ANY_WORD.has(program)) || namesOnDisk(part, program)) return
  out.push({ name: "unknown-option", level: "medium", reason: `${program} gets words xargs adds at run time: an option among them (${ANY_WORD.has(program) ? "any word" : "a word starting with -"}) can make it read files, print the environment or change the machine` })
}

function arity(spec: Compiled, name: string): string | undefined {
  return name.length === 1 ? spec.short.get(name) : spec.long.get(name)
}

// the input xargs reads: static text a pipe's first stage prints (echo, printf), or find's paths (each starts
// with its start folder, `./x`, unless an action prints other text)
const FIND_PRINTS_TEXT = /\s-(?:printf|fprintf|ls|fls|exec|execdir|ok|okdir)(?:\s|$)/

function inputHasNoOptions(part: Part, program: string, anyWord: boolean): boolean {
  const stdin = part.appendedInput
  if (stdin?.kind !== "pipe") return false
  const text = stdin.script?.value
  if (text !== undefined) return anyWord ? text.trim() === "" : !text.split(/\s+/).some((w) => w.startsWith("-"))
  if (anyWord || stdin.from.length !== 1) return false
  const producer = stdin.from[0]!
  // split at blanks, a path holding one (`./x -f .env`) gives words starting with -; wc and du refuse
  // --files0-from beside the operand before it (their only option that reads), so for them it is harmless
  if (!/^find(?:\s|$)/.test(producer) || FIND_PRINTS_TEXT.test(producer)) return false
  return part.appendedWhole === true || program === "wc" || program === "du"
}

// wc/du fed the names ls or git lists: judged on disk (the folder's names starting with `-`), not asked here
function namesOnDisk(part: Part, program: string): boolean {
  if ((program !== "wc" && program !== "du") || part.cwd === null) return false
  const stdin = part.appendedInput
  return stdin?.kind === "pipe" && stdin.from.length === 1 && namesOnly(stdin.from[0]!)
}

/** The folders whose names become wc's or du's arguments (namesOnDisk): each `DIR/*` is looked up on
 *  disk for a name read as an option. */
export function appendedNameGlobs(part: Part): TouchedPath[] {
  if (!part.context.some((c) => c === "xargs") || part.cwd === null || !namesOnDisk(part, part.program)) return []
  return part.cwd.map((d) => ({ path: `${d === "/" ? "" : d}/*`, access: "read" as const, glob: true as const, operand: part.program }))
}
