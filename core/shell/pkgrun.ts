// `bun run NAME ARGS`: bun runs the package.json script NAME, else a file NAME, else node_modules/.bin/NAME,
// else the program NAME on PATH with ARGS (`bun run sh -c ..`, `bun run printenv`). A NAME that is a
// program ccode knows (a shell, an interpreter, env, cat, ...) is judged as that program: a project's
// script of that name is rare, and judging the program fails closed. Any other NAME stays a script run
// (a build: low). Pure.
import type { Part } from "./part.ts"
import { tableEntries } from "./classify.ts"
import { ASSESSORS } from "./assess.ts"
import { known } from "./known.ts"

// bun run's flags that take no value; any other option ends the look (its value could be NAME)
// script names that are also programs (`test`): a project's script of that name is the usual reading
const SCRIPT_NAMES = new Set(["test"])
const BUN_RUN_FLAGS = new Set(["--bun", "-b", "--silent", "--if-present", "--watch", "--hot", "--smol", "--no-clear-screen", "--no-install", "--prefer-offline", "--prefer-latest", "--no-deprecation", "--throw-deprecation"])

/** Rewrites `bun run [flags] NAME ARGS` in place as `NAME ARGS` when NAME is a program ccode knows. */
export function bunRunsProgram(part: Part, extraKnown: (name: string) => boolean): boolean {
  if (part.words[1]?.value !== "run") return false
  const isProgram = (name: string | undefined): name is string =>
    name !== undefined && !name.startsWith("-") && !/[/.]/.test(name) && !SCRIPT_NAMES.has(name) &&
    (tableEntries(name).entries.length > 0 || ASSESSORS.has(name) || known(name) !== undefined || extraKnown(name))
  let at = 2
  // flags and `--opt=value` are skipped; an option not listed may take the next word as its value: the
  // word after it is looked at too (`bun run --elide-lines 5 sh`)
  while (at < part.words.length && (BUN_RUN_FLAGS.has(part.words[at]!.value ?? "") || /^--[^=]+=/.test(part.words[at]!.value ?? ""))) at++
  if (part.words[at]?.value?.startsWith("-") && !isProgram(part.words[at + 1]?.value)) at += 2
  else if (part.words[at]?.value?.startsWith("-")) at += 1
  if (!isProgram(part.words[at]?.value)) return false
  part.wrappers = [...part.wrappers, "bun run"]
  part.words = part.words.slice(at)
  return true
}
