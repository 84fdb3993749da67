// `bun run NAME ARGS`: bun runs the package.json script NAME, else a file NAME, else node_modules/.bin/NAME,
// else the program NAME on PATH with ARGS (`bun run sh -c ..`, `bun run printenv`). A NAME that is a
// program ccode knows (a shell, an interpreter, env, cat, ...) is judged as that program: a project's
// script of that name is rare, and judging the program fails closed. Any other NAME stays a script run
// (a build: low). bun's global flags may stand before `run` (`bun --silent run`, `bun -b run`); `--cwd DIR`
// (before or after `run`) runs NAME in DIR, so the program is judged there. An option whose effect is not
// modelled (`--env-file F`, `--preload F`, `--config F`) is not dropped: the command stays bun's, with a
// finding that names it. Pure.
import type { Part } from "./part.ts"
import type { Word } from "./word.ts"
import { tableEntries } from "./classify.ts"
import { ASSESSORS } from "./assess.ts"
import { known } from "./known.ts"
import { changeDir } from "./cwd.ts"

// script names that are also programs (`test`): a project's script of that name is the usual reading
const SCRIPT_NAMES = new Set(["test"])
// bun's flags that take no value and change nothing the program does
const BUN_RUN_FLAGS = new Set(["--bun", "-b", "--silent", "--if-present", "--watch", "--hot", "--smol", "--no-clear-screen", "--no-install", "--prefer-offline", "--prefer-latest", "--no-deprecation", "--throw-deprecation"])
// bun's options whose value changes nothing the program reads or runs
const HARMLESS_VALUED = new Set(["--elide-lines"])

interface Skipped {
  at: number
  cwd: Word[]
  /** an option whose effect is not modelled (its value may be a file bun reads, code it preloads) */
  other?: string
}

/** Rewrites `bun [flags] run [flags] NAME ARGS` in place as `NAME ARGS` when NAME is a program ccode knows. */
export function bunRunsProgram(part: Part, extraKnown: (name: string) => boolean, home: string): boolean {
  const isProgram = (name: string | undefined): name is string =>
    name !== undefined && !name.startsWith("-") && !/[/.]/.test(name) && !SCRIPT_NAMES.has(name) &&
    (tableEntries(name).entries.length > 0 || ASSESSORS.has(name) || known(name) !== undefined || extraKnown(name))
  const before = skipOptions(part.words, 1, () => false)
  if (part.words[before.at]?.value !== "run") return false
  const after = skipOptions(part.words, before.at + 1, (w) => isProgram(w?.value))
  const at = after.at
  if (!isProgram(part.words[at]?.value)) return false
  const other = before.other ?? after.other
  if (other !== undefined) {
    part.findings.push({ name: "program-option", level: "high", reason: `bun ${other} with run ${part.words[at]!.value}: runs the program ${part.words[at]!.value} with a bun option whose effect is not followed` })
    return false
  }
  // a DIR that may be empty (`--cwd $d`) leaves the folder unknown
  for (const dir of [...before.cwd, ...after.cwd]) part.cwd = dir.hollow ? null : changeDir(part.cwd, [dir], home)
  part.wrappers = [...part.wrappers, "bun run"]
  part.words = part.words.slice(at)
  return true
}

// flags are skipped; `--cwd DIR` / `--cwd=DIR` are collected; an option not listed may take the next word as
// its value: the word after it is looked at too (`bun run --elide-lines 5 sh`)
function skipOptions(words: readonly Word[], from: number, program: (w: Word | undefined) => boolean): Skipped {
  const out: Skipped = { at: from, cwd: [] }
  let at = from
  while (at < words.length) {
    const v = words[at]!.value
    if (v === undefined || !v.startsWith("-")) break
    // `bun run -- NAME`, `bun -- run NAME`: the options end, NAME (or run) follows
    if (v === "--") {
      at++
      break
    }
    const eq = v.indexOf("=")
    const name = eq < 0 ? v : v.slice(0, eq)
    if (BUN_RUN_FLAGS.has(v)) at++
    else if (name === "--cwd") {
      const dir = eq < 0 ? words[at + 1] : { ...words[at]!, text: words[at]!.text.slice(eq + 1), value: v.slice(eq + 1), tilde: false }
      if (dir) out.cwd.push(dir)
      at += eq < 0 ? 2 : 1
    } else {
      if (!HARMLESS_VALUED.has(name)) out.other ??= v
      at += eq < 0 && !program(words[at + 1]) && words[at + 1]?.value !== "run" ? 2 : 1
    }
  }
  out.at = at
  return out
}
