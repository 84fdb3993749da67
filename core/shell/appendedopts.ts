// The words xargs (or parallel) adds to a read-only program at run time. A command that ends in an option
// taking a value (`xargs date -f`, `xargs du --files0-from`) gets the first added word as that value: a
// file named only at run time, whose lines date/file/wc/du quote in their errors. Added words that start
// with `-` are options of the program (`xargs wc` reading `--files0-from=.env` from a file name, `xargs ps`
// with `e`, `xargs getent` with `-s`, `xargs hostname NAME` renaming the machine): for the programs with
// such options, the added words are judged unknown unless the input is known not to hold any (static echo
// or printf text without one; find's paths split at NULs, each starting with the start folder). Pure.
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
  if (!part.appended || !part.context.some((c) => c === "xargs" || c === "parallel")) return
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
