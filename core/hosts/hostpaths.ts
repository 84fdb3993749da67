// What each host really does with a path it is given, before its tool opens it: every spelling the host
// may turn the string into is judged, not only the string as written. Pure (no fs).
//  - Claude Code's Grep, Glob and LSP get the raw input (only Read/Write/Edit/NotebookEdit are normalised
//    before the hook); the tool then trims it (String.prototype.trim: spaces, tabs, newlines, U+00A0,
//    U+FEFF, U+3000 ...) and expands `~`.
//  - Gemini CLI (resolveDefensiveToolPath, resolveToRealPath) drops NUL characters, drops a leading `@`
//    (and the slashes after it) when the literal path does not exist, turns a file:// URL into its path
//    and percent-decodes the result (`%2Eaws` is `.aws`); read_many_files takes `\` as `/`.
import { fileURLToPath } from "node:url"
import { braceWords } from "../shell/index.ts"
import type { HookRaised } from "./types.ts"

/** Claude's Grep/Glob/LSP path: as sent, and trimmed (the tool's own `~` expansion follows the trim). */
export function claudePaths(path: string): string[] {
  const trimmed = path.trim()
  return trimmed && trimmed !== path ? [path, trimmed] : [path]
}

/** Every path Gemini CLI may open for `path`; `raised` gets why a spelling cannot be followed. Each step
 *  (NUL dropped, `@` dropped, file:// URL, one round of percent-decoding, `\` as `/`) is applied to every
 *  spelling found so far, in any order and more than once (a later step may repeat one), up to a bound. */
export function geminiPaths(path: string, field: string, raised: HookRaised[], backslash = false): string[] {
  const out = new Set<string>([path])
  const queue = [path]
  const problems = new Set<string>()
  while (queue.length && out.size < MAX_SPELLINGS) {
    const one = queue.shift()!
    for (const next of geminiSteps(one, backslash, problems)) {
      if (!next || out.has(next)) continue
      out.add(next)
      queue.push(next)
    }
  }
  if (queue.length) problems.add(`${field} ${JSON.stringify(path.slice(0, 80))} has more than ${MAX_SPELLINGS} spellings once Gemini CLI resolves it`)
  for (const p of problems) raised.push({ risk: "medium", reason: p.startsWith(field) ? p : `${field} ${JSON.stringify(path.slice(0, 80))} ${p}` })
  return [...out]
}

const MAX_SPELLINGS = 32

function geminiSteps(one: string, backslash: boolean, problems: Set<string>): string[] {
  const next: string[] = []
  if (one.includes("\0")) next.push(one.replaceAll("\0", ""))
  if (one.startsWith("@")) next.push(one.replace(/^@[\\/]*/, ""))
  if (one.startsWith("file://")) {
    try {
      next.push(fileURLToPath(one))
    } catch {
      problems.add("is a file:// URL ccode cannot turn into a path")
    }
  }
  if (one.includes("%")) {
    try {
      next.push(decodeURIComponent(one))
    } catch {
      problems.add("has a % sequence that does not decode: which file Gemini CLI opens is not known")
    }
  }
  if (backslash && one.includes("\\")) next.push(one.replaceAll("\\", "/"))
  return next
}

/**
 * The folders a glob pattern reaches outside the folder it is run in: the folder part of an absolute,
 * `~/` or `..` pattern (each brace alternative on its own), its glob characters kept. Claude's Glob runs
 * an absolute pattern in its own base folder, Gemini's glob@12 follows `/` and `..` in a pattern.
 */
export function patternFolders(pattern: string, field: string, raised: HookRaised[]): string[] {
  const words = braceWords(pattern)
  if (!words) {
    raised.push({ risk: "medium", reason: `${field} ${JSON.stringify(pattern.slice(0, 80))} has a brace expansion ccode does not follow` })
    return []
  }
  const out = new Set<string>()
  for (const word of words) {
    const w = word.replaceAll("\\", "/")
    if (!w.startsWith("/") && !w.startsWith("~") && !/(^|\/)\.\.(\/|$)/.test(w)) continue
    // the folder part, globs kept (`/root/.ss?` of `/root/.ss?/*`: judged as a glob, matched on disk)
    const segments = w.replace(/\/+$/, "").split("/")
    const folder = (segments.at(-1) === "**" ? segments : segments.slice(0, -1)).join("/")
    out.add(folder || (w.startsWith("/") ? "/" : "."))
  }
  return [...out]
}
