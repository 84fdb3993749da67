// The words xargs (or parallel) adds to a read-only program at run time. A command that ends in an option
// taking a value (`xargs date -f`, `xargs du --files0-from`) gets the first added word as that value: a
// file named only at run time, whose lines date/file/wc/du quote in their errors. Added words that start
// with `-` are options of the program (`xargs wc` reading `--files0-from=.env` from a file name, `xargs ps`
// with `e`, `xargs getent` with `-s`, `xargs hostname NAME` renaming the machine): for the programs with
// such options, the added words are judged unknown unless the input is known not to hold any (static echo
// or printf text without one after xargs's quote removal; find's paths split at NULs, each starting with
// the start folder) or the command ends its options with `--`. Pure.
import type { Finding } from "./raw.ts"
import type { Part } from "./part.ts"
import type { Compiled, OptionReading } from "./getopt.ts"
import { readsFileOption } from "./optionreads.ts"

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
  if (ended || inputHasNoOptions(part, program, ANY_WORD.has(program))) return
  out.push({ name: "unknown-option", level: "medium", reason: `${program} gets words xargs adds at run time: an option among them (${ANY_WORD.has(program) ? "any word" : "a word starting with -"}) can make it read files, print the environment or change the machine` })
}

function arity(spec: Compiled, name: string): string | undefined {
  return name.length === 1 ? spec.short.get(name) : spec.long.get(name)
}

// the input xargs reads: static text a pipe's first stage prints (echo, printf), or find's paths split at
// NULs (each starts with its start folder, `./x`, unless an action prints other text). Without -0/-d xargs
// removes quotes and backslashes (`''-f`, `\-f` are `-f`) and splits at blanks and newlines, also with -I,
// -L and -n, which hand each item to the program alone: a name holding a blank or newline then `-` (`x
// --files0-from=.env`) gives an option word. Names other producers list (ls, git ls-files, git diff
// --name-only) are not known: git lists names of the index and of history that are not on disk.
const FIND_PRINTS_TEXT = /\s-(?:printf|fprintf|ls|fls|exec|execdir|ok|okdir)(?:\s|$)/

function inputHasNoOptions(part: Part, program: string, anyWord: boolean): boolean {
  const stdin = part.appendedInput
  if (stdin?.kind !== "pipe") return false
  const text = stdin.script?.value
  if (text !== undefined) return anyWord ? text.trim() === "" : staticTextHasNoOptions(text, part.appendedSplit)
  if (anyWord || stdin.from.length !== 1 || part.appendedSplit !== "nul") return false
  const producer = stdin.from[0]!
  return /^find(?:\s|$)/.test(producer) && !FIND_PRINTS_TEXT.test(producer)
}

// no `-` at all; or, split at blanks with no quote or backslash to remove, no word starting with one
// (with -d an item starts after any delimiter character: only the first test holds)
function staticTextHasNoOptions(text: string, split: Part["appendedSplit"]): boolean {
  if (!text.includes("-")) return true
  return split === undefined && !/['"\\]/.test(text) && !text.split(/\s+/).some((w) => w.startsWith("-"))
}
