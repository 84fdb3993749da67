// Reads whose files the path rules cannot see on their own: a program that shows what it reads, given
// a file named only at run time (`cat $(echo ~/.ssh/id_rsa)`, `... | xargs cat`, `find -exec cat {} +`,
// a relative name in a directory not known statically), and recursive readers (grep -r, rg, ag, diff -r,
// git grep --no-index) over a directory that holds the home directory's secrets (`grep -r . ~`). Pure.
import type { Part } from "./part.ts"
import type { TouchedPath } from "./types.ts"
import { isInsideFold, resolveWord } from "./cwd.ts"
import { patternGiven } from "./optionreads.ts"
import { hasWord, operands } from "./part.ts"

/** Programs that print the content of the files they read (wc, md5sum, stat, ls only print about them). */
const SHOWS_CONTENT = new Set([
  "cat", "tac", "head", "tail", "less", "more", "bat", "sort", "uniq", "cut", "nl", "od", "xxd", "hexdump", "strings", "base64",
  "jq", "yq", "sed", "awk", "gawk", "mawk", "nawk", "diff", "comm", "join", "paste", "fold", "fmt", "column", "rev", "tr",
  "grep", "egrep", "fgrep", "rg", "ag", "ack", "cmp", "zcat", "zless", "view",
])
const PATTERN_FIRST = new Set(["grep", "egrep", "fgrep", "rg", "ag", "ack"])
// the first operand is a program or pattern, not a file (its own analysis judges it)
const SCRIPT_FIRST = new Set([...PATTERN_FIRST, "sed", "awk", "gawk", "mawk", "nawk", "jq", "yq"])
const ALWAYS_RECURSIVE = new Set(["rg", "ag", "ack"])

// the home directory's secret locations: a recursive read of a directory above them reads them
const HOME_SECRETS = [".ssh", ".aws", ".gnupg", ".netrc", ".git-credentials", ".kube", ".docker", ".npmrc", ".pypirc", ".config", ".azure", ".gcloud"]

/** Why a content-showing read reaches files nobody can name before it runs; undefined when all are known. */
export function unknownReads(part: Part): string | undefined {
  if (!SHOWS_CONTENT.has(part.program)) return undefined
  const vals = part.words.slice(1).map((w) => w.value ?? "")
  if (vals.some((v) => v.startsWith("--files0"))) return `${part.program} --files0-from shows the files a list names at run time: one could be a secret`
  if (part.program === "yq" && vals.some((v) => /\bload(_[a-z]+)?\s*\(/.test(v))) return "yq load() reads the file its expression names"
  if (part.appended) return `${part.program} shows files named at run time (by xargs or find): one could be a secret`
  const ops = operands(part.words, 1)
  const first = SCRIPT_FIRST.has(part.program) && !patternGiven(part.program, part.words) ? 1 : 0
  for (const w of ops.slice(first)) {
    // a process substitution's content comes from a command analysed on its own
    if (w.procsub) continue
    if (w.value === undefined || w.placeholder || w.hollow) return `${part.program} shows ${w.text}, a file named only at run time: it could be a secret`
    if (part.cwd === null && !w.value.startsWith("/") && !w.tilde && w.value !== "-") return `${part.program} shows ${w.value} in a directory not known before it runs`
  }
  return undefined
}

/** Paths a recursive read reaches below its directories: the home directory's secrets when a directory holds them. */
export function recursiveReads(part: Part, home: string): TouchedPath[] {
  if (!recursive(part)) return []
  const ops = operands(part.words, part.program === "git" ? 2 : 1)
  const dirs = (PATTERN_FIRST.has(part.program) && !patternGiven(part.program, part.words)) || part.program === "git" ? ops.slice(1) : ops
  const roots: string[] = []
  if (!dirs.length) roots.push(...(part.cwd ?? ["/"]))
  for (const d of dirs) roots.push(...(resolveWord(d, part.cwd, home) ?? ["/"]))
  const out: TouchedPath[] = []
  for (const r of roots) if (isInsideFold(r, home)) for (const s of HOME_SECRETS) out.push({ path: `${home}/${s}`, access: "read" })
  return out
}

const MAY_RECURSE = new Set(["git", "grep", "egrep", "fgrep", "diff"])

function recursive(part: Part): boolean {
  if (ALWAYS_RECURSIVE.has(part.program)) return true
  if (!MAY_RECURSE.has(part.program)) return false
  // git: only `git grep --no-index` (looked at without copying the words: this runs for every git command)
  if (part.program === "git") return part.words[1]?.value === "grep" && hasWord(part.words, "--no-index")
  const vals = part.words.slice(1).map((w) => w.value ?? "")
  const short = (letters: RegExp) => vals.some((v) => /^-[^-]/.test(v) && letters.test(v.slice(1)))
  if (part.program === "grep" || part.program === "egrep" || part.program === "fgrep") {
    return short(/^[^efmABCDd]*[rR]/) || vals.some((v) => /^--(recursive|dereference-recursive|directories=recurse|d[a-z]*=recurse)$/.test(v)) || vals.some((v, i) => (v === "-d" && vals[i + 1] === "recurse") || v === "-drecurse")
  }
  if (part.program === "diff") return short(/^[^CDFILSUWX]*r/) || vals.includes("--recursive")
  return false
}
