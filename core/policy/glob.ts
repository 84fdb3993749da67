// Glob patterns -> anchored regular expressions (tool names and paths). Pure: no fs.
// `*` and `**` match dot-files too; `{a,b}` and `[abc]` work as in shells.

/** Regex source for a glob. `slash`: whether `*` may cross "/" (tool names) or not (paths). */
export function globSource(glob: string, slash: "cross" | "stop"): string {
  let out = ""
  let braces = 0
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!
    if (ch === "*") {
      if (glob[i + 1] === "*") {
        // `**/` may match no directory at all; a trailing `**` matches everything below
        i++
        if (glob[i + 1] === "/") {
          i++
          out += "(?:.*/)?"
        } else out += ".*"
      } else out += slash === "cross" ? ".*" : "[^/]*"
    } else if (ch === "?") out += slash === "cross" ? "." : "[^/]"
    else if (ch === "[") {
      const end = glob.indexOf("]", i + 2)
      if (end === -1) out += "\\["
      else {
        let body = glob.slice(i + 1, end)
        if (body.startsWith("!")) body = "^" + body.slice(1)
        out += "[" + body.replace(/\\/g, "\\\\") + "]"
        i = end
      }
    } else if (ch === "{") {
      braces++
      out += "(?:"
    } else if (ch === "}" && braces > 0) {
      braces--
      out += ")"
    } else if (ch === "," && braces > 0) out += "|"
    else if (ch === "\\" && i + 1 < glob.length) out += escapeChar(glob[++i]!)
    else out += escapeChar(ch)
  }
  return out + ")".repeat(braces)
}

/** True when the text has glob syntax (otherwise compare as a plain string: faster). */
export function isGlob(text: string): boolean {
  return /[*?[{]/.test(text)
}

/** A matcher for tool names: exact name, or a glob where `*` matches anything (`mcp:github/*`, `*`). */
export function toolMatcher(patterns: readonly string[]): (tool: string) => boolean {
  const exact = new Set(patterns.filter((p) => !isGlob(p)))
  const globs = patterns.filter(isGlob)
  if (!globs.length) return (tool) => exact.has(tool)
  const re = new RegExp(`^(?:${globs.map((g) => globSource(g, "cross")).join("|")})$`)
  return (tool) => exact.has(tool) || re.test(tool)
}

function escapeChar(ch: string): string {
  return /[.+^$()|\\/\]{}]/.test(ch) ? "\\" + ch : ch
}
