// Rule command patterns against one simple command. Allow rules see only the
// normalised form as written; deny/ask rules also see the canonical form, so normalisation can only
// widen what is refused, never what is allowed. Pure.
import type { SimpleCommand } from "./types.ts"
import { canonical } from "./flags.ts"
import { splitPattern, type PatternToken } from "./pattern.ts"

// a program named with its directory is the system's own only in these places
const SYSTEM_BINS = /^\/(usr\/(local\/)?)?s?bin\/[^/]+$|^\/opt\/homebrew\/bin\/[^/]+$/

export function matchCommandPattern(pattern: string, cmd: SimpleCommand, mode: "allow" | "restrict"): boolean {
  const tokens = splitPattern(pattern)
  const head = tokens[0]
  if (!head) return false
  if (mode === "allow" && (cmd.unresolved || cmd.loaderEnv)) return false
  // a pattern that is only `*` is every command, whatever its program (by path too) and arguments
  if (tokens.length === 1 && head.wild && head.text === "*") return true
  if (!programMatches(head, cmd, mode)) return false
  const rest = tokens.slice(1)
  if (matchTokens(rest, cmd.args)) return true
  if (mode === "allow") return false
  return matchCanonical(cmd.program, rest, cmd.args)
}

function programMatches(head: PatternToken, cmd: SimpleCommand, mode: "allow" | "restrict"): boolean {
  const written = cmd.programPath
  if (head.text.includes("/") && !head.wild) {
    if (written !== undefined && written === head.text) return true
    return mode === "restrict" && basename(head.text) === cmd.program
  }
  if (!tokenMatches(head, cmd.program)) return false
  // `allow: git status` must not allow ./git status: a program the workspace supplies
  return mode === "restrict" || written === undefined || SYSTEM_BINS.test(written)
}

/** Flags as a set (extra ones only where the pattern has a `*` token), operands in order. */
function matchCanonical(program: string, pattern: PatternToken[], args: readonly string[]): boolean {
  const flagTokens: string[] = []
  const operands: PatternToken[] = []
  let star = false
  let done = false
  for (const t of pattern) {
    if (t.wild && t.text === "*") star = true
    if (!done && !t.wild && t.text === "--") done = true
    else if (!done && !t.wild && t.text.startsWith("-") && t.text !== "-") flagTokens.push(t.text)
    else operands.push(t)
  }
  const want = canonical(program, flagTokens).flags
  const have = canonical(program, args)
  for (const f of want) if (!have.flags.has(f)) return false
  // `--force-with-lease=x` also counts as `--force-with-lease`, which was compared already
  if (!star) for (const f of have.flags) if (!want.has(f) && !f.includes("=")) return false
  return matchTokens(operands, have.operands)
}

/** Whether words known only at run time (`$(..)`, `$X`, what xargs appends) could make a deny or ask
 *  pattern match: the rule cannot be ruled out, so a person decides. */
export function couldMatchCommandPattern(pattern: string, cmd: SimpleCommand): boolean {
  if (!cmd.open?.length && !cmd.appended) return false
  const tokens = splitPattern(pattern)
  const head = tokens[0]
  if (!head || !programMatches(head, cmd, "restrict")) return false
  return matchOpen(tokens.slice(1), cmd)
}

/** matchTokens where open words match any single token and an appended tail may be any words. */
function matchOpen(pattern: PatternToken[], cmd: SimpleCommand): boolean {
  const open = new Set(cmd.open ?? [])
  const words = cmd.args.map((a, i) => (open.has(i) ? undefined : a))
  const extra = cmd.appended ? pattern.length : 0
  for (let m = 0; m <= extra; m++) if (matchTokens(pattern, [...words, ...new Array<undefined>(m).fill(undefined)])) return true
  return false
}

/** Token glob: a bare `*` token matches any number of words; `*` inside a token matches within it. */
function matchTokens(pattern: PatternToken[], words: readonly (string | undefined)[]): boolean {
  // dp[j]: pattern[0..i) matches words[0..j)
  let dp = new Array<boolean>(words.length + 1).fill(false)
  dp[0] = true
  for (const t of pattern) {
    const next = new Array<boolean>(words.length + 1).fill(false)
    if (t.wild && t.text === "*") {
      let seen = false
      for (let j = 0; j <= words.length; j++) {
        seen = seen || dp[j]!
        next[j] = seen
      }
    } else {
      // an undefined word is open: it could be whatever the token asks for
      for (let j = 1; j <= words.length; j++) next[j] = dp[j - 1]! && (words[j - 1] === undefined || tokenMatches(t, words[j - 1]!))
    }
    dp = next
  }
  return dp[words.length]!
}

const regexes = new Map<string, RegExp>()

function tokenMatches(t: PatternToken, word: string): boolean {
  if (!t.wild) return t.text === word
  let re = regexes.get(t.text)
  if (!re) {
    if (regexes.size > 1024) regexes.clear()
    const parts = t.text.split("*").map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\u0000/g, "\\*"))
    re = new RegExp(`^${parts.join(".*")}$`, "s")
    regexes.set(t.text, re)
  }
  return re.test(word)
}

function basename(p: string): string {
  return p.slice(p.lastIndexOf("/") + 1)
}
