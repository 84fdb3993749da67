// Path patterns of rules, risk.paths and workspace.protected. Pure: no fs.
// No "/": a file name at any depth. With "/": relative to the workspace root unless it starts
// with "/" or "~/". `dir/**` also matches `dir` itself. Paths given here are already resolved.
import { expandHome } from "../base/paths.ts"
import { posix } from "node:path"
import { globSource } from "./glob.ts"

/** One regex per pattern, anchored on absolute paths, for this workspace and home. `fold`: ignore case
 *  (what risk.paths, workspace.protected and deny/ask rules use: a case-insensitive file system, macOS's
 *  default, opens ~/.SSH/id_rsa as ~/.ssh/id_rsa; allow rules and grants compare exactly). */
export function pathPatternRegex(pattern: string, workspace: string, home: string, fold = false): RegExp {
  return new RegExp(pathPatternSource(pattern, workspace, home), fold ? "i" : "")
}

/** Several patterns as one regex (any of them). */
export function pathPatternsRegex(patterns: readonly string[], workspace: string, home: string, fold = false): RegExp {
  if (!patterns.length) return /(?!)/
  return new RegExp(patterns.map((p) => `(?:${pathPatternSource(p, workspace, home)})`).join("|"), fold ? "i" : "")
}

/** The pattern as an absolute glob over segments (`**` any depth): a name without "/" is at any depth. */
export function absolutePattern(pattern: string, workspace: string, home: string): string {
  if (!pattern.includes("/")) return `/**/${pattern}`
  if (pattern.startsWith("/")) return normalise(pattern)
  if (pattern === "~" || pattern.startsWith("~/")) return normalise(home + pattern.slice(1))
  return normalise(joinRoot(workspace, pattern))
}

export function pathPatternSource(pattern: string, workspace: string, home: string): string {
  if (!pattern.includes("/")) return `(?:^|/)${globSource(pattern, "stop")}$`
  let absolute: string
  if (pattern.startsWith("/")) absolute = pattern
  else if (pattern === "~" || pattern.startsWith("~/")) absolute = expandHome(pattern, home)
  else absolute = joinRoot(workspace, pattern)
  absolute = normalise(absolute)
  // `dir/**` matches `dir` itself as well as everything below it
  if (absolute.endsWith("/**")) {
    const dir = absolute.slice(0, -3)
    return `^${globSource(dir, "stop")}(?:/.*)?$`
  }
  return `^${globSource(absolute, "stop")}$`
}

function joinRoot(root: string, relative: string): string {
  const rel = relative.startsWith("./") ? relative.slice(2) : relative
  return root.endsWith("/") ? root + rel : `${root}/${rel}`
}

// Lexical `.`/`..` resolution that leaves glob characters alone.
function normalise(path: string): string {
  const out = posix.normalize(path)
  return out.length > 1 && out.endsWith("/") ? out.slice(0, -1) : out
}
