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
const BUN_RUN_FLAGS = new Set(["--bun", "-b", "--silent", "--if-present", "--watch", "--hot", "--smol", "--no-clear-screen", "--no-install", "--prefer-offline", "--prefer-latest", "--no-deprecation", "--throw-deprecation"])

/** Rewrites `bun run [flags] NAME ARGS` in place as `NAME ARGS` when NAME is a program ccode knows. */
export function bunRunsProgram(part: Part, extraKnown: (name: string) => boolean): boolean {
  if (part.words[1]?.value !== "run") return false
  let at = 2
  while (at < part.words.length && BUN_RUN_FLAGS.has(part.words[at]!.value ?? "")) at++
  const name = part.words[at]?.value
  if (name === undefined || name.startsWith("-") || /[/.]/.test(name)) return false
  if (!(tableEntries(name).entries.length > 0 || ASSESSORS.has(name) || known(name) !== undefined || extraKnown(name))) return false
  part.wrappers = [...part.wrappers, "bun run"]
  part.words = part.words.slice(at)
  return true
}
