// What a pipeline's stages say to the next one: a stage's command line as text, and what it prints when
// that is plain text the analysis can read (`echo WORDS`, `cat <<EOF`). Pure.
import type { RawCommand } from "./raw.ts"
import { literalWord, type Word } from "./word.ts"

/** What a pipe stage prints, when that is plain text we can read: `echo WORDS`, `cat <<EOF`. */
export function printed(c: RawCommand): Word | undefined {
  const [name, ...args] = c.words
  if (c.redirects.length) return undefined
  if (name?.value === "cat" && !args.length && (c.stdin?.kind === "heredoc" || c.stdin?.kind === "herestring")) return c.stdin.body
  if (name?.value !== "echo" || args.some((a) => a.value === undefined || a.value.startsWith("-"))) return undefined
  return literalWord(args.map((a) => a.value).join(" "))
}

/** A stage's command line as written. */
export function programText(c: RawCommand): string {
  return c.words.map((x) => x.text).join(" ")
}
