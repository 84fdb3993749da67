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

/** Every path Gemini CLI may open for `path`; `raised` gets why a spelling cannot be followed. */
export function geminiPaths(path: string, field: string, raised: HookRaised[], backslash = false): string[] {
  const out = new Set<string>([path])
  const noNul = path.replaceAll("\0", "")
  const bases = [noNul]
  if (noNul.startsWith("@")) bases.push(noNul.replace(/^@[\\/]*/, ""))
  for (let one of bases) {
    if (!one) continue
    out.add(one)
    if (one.startsWith("file://")) {
      try {
        one = fileURLToPath(one)
        out.add(one)
      } catch {
        raised.push({ risk: "medium", reason: `${field} ${JSON.stringify(path)} is a file:// URL ccode cannot turn into a path` })
      }
    }
    // decoded once by the host; more rounds are judged too (a later step may decode again)
    for (let round = 0; round < 3 && one.includes("%"); round++) {
      let decoded: string
      try {
        decoded = decodeURIComponent(one)
      } catch {
        raised.push({ risk: "medium", reason: `${field} ${JSON.stringify(path)} has a % sequence that does not decode: which file Gemini CLI opens is not known` })
        break
      }
      if (decoded === one) break
      one = decoded.replaceAll("\0", "")
      out.add(one)
    }
  }
  if (backslash) for (const p of [...out]) if (p.includes("\\")) out.add(p.replaceAll("\\", "/"))
  return [...out].filter(Boolean)
}

/**
 * The folders a glob pattern reaches outside the folder it is run in: the part before the first glob
 * character of an absolute, `~/` or `..` pattern (each brace alternative on its own). Claude's Glob runs
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
    const segments = w.split("/")
    const glob = segments.findIndex((s) => /[*?[{]/.test(s))
    const stem = (glob < 0 ? segments.slice(0, -1) : segments.slice(0, glob)).join("/")
    out.add(stem || (w.startsWith("/") ? "/" : "."))
  }
  return [...out]
}
