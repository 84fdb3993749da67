// Reads whose files the path rules cannot see on their own: a program that shows what it reads, given
// a file named only at run time (`cat $(echo ~/.ssh/id_rsa)`, `... | xargs cat`, `find -exec cat {} +`,
// a relative name in a directory not known statically), recursive readers (grep -r, rg, ag, diff -r,
// git grep --no-index) over a directory that holds the home directory's secrets (`grep -r . ~`), and the
// trees of those that follow the links they meet (grep -R), for the caller to look up on disk. Pure.
import type { Part } from "./part.ts"
import type { TouchedPath } from "./types.ts"
import { isInsideFold, resolveWord } from "./cwd.ts"
import { patternGiven } from "./optionreads.ts"
import { CREDENTIAL_PATHS } from "../base/secrets.ts"
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
  const out: TouchedPath[] = []
  for (const r of walkRoots(part, home)) for (const path of credentialsBelow(r, home)) out.push({ path, access: "read" })
  return out
}

/** The credential locations a recursive read of `dir` reaches (ignoring case, as a case-insensitive file system would). */
export function credentialsBelow(dir: string, home: string): string[] {
  const out: string[] = []
  if (isInsideFold(dir, home)) for (const s of HOME_SECRETS) out.push(`${home}/${s}`)
  for (const c of CREDENTIAL_PATHS) {
    const path = c.startsWith("~/") ? home + c.slice(1) : c
    if (isInsideFold(dir, path)) out.push(path)
  }
  return out
}

/**
 * The trees a recursive read walks following the links it meets, marked for the caller to look up on
 * disk where those links lead (nothing before the run can list a tree's links).
 */
export function followedWalks(part: Part, home: string): TouchedPath[] {
  if (!followsLinks(part)) return []
  return walkRoots(part, home).map((path) => ({ path, access: "read", follow: true }))
}

// the directories a recursive reader walks: its operands after the pattern, else its directory ("/"
// when that is not known)
function walkRoots(part: Part, home: string): string[] {
  const ops = operands(part.words, part.program === "git" ? 2 : 1)
  const dirs = (PATTERN_FIRST.has(part.program) && !patternGiven(part.program, part.words)) || part.program === "git" ? ops.slice(1) : ops
  const roots: string[] = []
  if (!dirs.length) roots.push(...(part.cwd ?? ["/"]))
  for (const d of dirs) roots.push(...(resolveWord(d, part.cwd, home) ?? ["/"]))
  return roots
}

/**
 * Whether a recursive read follows the symbolic links it meets while walking (a repository can ship
 * `docs -> /home/me/.aws`). A link named as an operand is resolved like any path; `grep -r`, and rg, ag
 * and ack without their follow option, do not follow the ones they meet; diff -r does unless told not to.
 */
function followsLinks(part: Part): boolean {
  const p = part.program
  if (!recursive(part) && p !== "rg" && p !== "ag" && p !== "ack" && !/^(e|f)?grep$/.test(p)) return false
  const all = part.words.slice(1).map((w) => w.value ?? "")
  const end = all.indexOf("--")
  const vals = end < 0 ? all : all.slice(0, end)
  const short = (letters: RegExp) => vals.some((v) => /^-[^-]/.test(v) && letters.test(v.slice(1)))
  const long = (name: string, min: number) => vals.some((v) => v.length >= min && name.startsWith(v.split("=")[0]!))
  if (p === "grep" || p === "egrep" || p === "fgrep") return short(/^[^efmABCDd]*R/) || long("--dereference-recursive", 5)
  if (p === "rg") return short(/^[^ABCEMTefgjmrt]*L/) || long("--follow", 5)
  if (p === "ag") return short(/^[^ABCGgm]*f/) || long("--follow", 5)
  if (p === "ack") return long("--follow", 5)
  return p === "diff" && !vals.includes("--no-dereference")
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
