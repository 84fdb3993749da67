// A program ccode does not know may write any file its arguments name (split's PREFIX, a converter's
// output, `tool --out=.git/config`). Its arguments that name a protected place are judged as writes:
// inside the workspace and the home's dot-entries they go to the policy as written paths (its protected paths:
// .git/config, .git/hooks, .claude/**), and a startup file of the home raises the finding here (high:
// the program may only read it). System files stay the unknown program's medium (`objdump /usr/bin/ls`
// is ordinary reading). Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import type { Word } from "./word.ts"
import { isInside } from "../base/paths.ts"
import { resolveWord } from "./cwd.ts"
import { startupFile } from "./startup.ts"

/** The unknown program's arguments as possible writes (added to v.writes and `out`). */
export function unknownWrites(v: View, out: Finding[]): void {
  for (const w of v.args) {
    const candidate = pathWord(w)
    if (!candidate) continue
    const paths = resolveWord(candidate, v.part.cwd, v.place.home)
    if (!paths?.length) continue
    if (paths.some((p) => isInside(v.place.workspace, p) || dotInHome(p, v.place.home))) v.writes.push(candidate)
    const startup = paths.map((p) => startupFile(p, v.place.home)).find(Boolean)
    if (startup) out.push({ name: "unknown", level: "high", reason: `${v.program} is not a command ccode knows and is given ${candidate.text}, which it may write: ${startup}` })
  }
}

// a dot-entry of the home (`~/.claude/…`, `~/.gemini/…`: where the policy's protected home paths are);
// an ordinary home file (`~/data/x.csv`) stays the unknown program's medium
function dotInHome(p: string, home: string): boolean {
  return home.length > 1 && p.startsWith(`${home}/.`)
}

// an operand, or the value of `--opt=VALUE`: a word with a path-like static value
function pathWord(w: Word): Word | undefined {
  const s = w.value
  if (s === undefined || s === "" || s === "-" || /^[a-z][a-z0-9+.-]*:\/\//i.test(s)) return undefined
  if (!s.startsWith("-")) return w
  // a short option's attached value that is a path (`-o.git/config`, `-O/etc/x`)
  if (!s.startsWith("--") && s.length > 2 && s.slice(2).includes("/")) return { ...w, value: s.slice(2), text: s.slice(2), tilde: s[2] === "~" }
  const eq = s.indexOf("=")
  if (!s.startsWith("--") || eq < 0 || eq === s.length - 1) return undefined
  const value = s.slice(eq + 1)
  return { ...w, value, text: value, tilde: value.startsWith("~") }
}
