// Lexical path resolution and the directories a script may be in after `cd`. Pure: no fs (symlinks
// are the caller's business), paths resolve against the cwd candidates the walk carries.
import { posix } from "node:path"
import type { Cwd } from "./scope.ts"
import type { Word } from "./word.ts"

const MAX_CANDIDATES = 8

export function joinCwd(a: Cwd, b: Cwd): Cwd {
  if (a === null || b === null) return null
  if (a === b) return a
  const out = [...a]
  for (const d of b) if (!out.includes(d)) out.push(d)
  return out.length > MAX_CANDIDATES ? null : out
}

/** `cd DIR` with a literal DIR moves relative paths; anything else (`cd -`, `cd $X`) makes them unknown. */
export function changeDir(cwd: Cwd, args: Word[], home: string): Cwd {
  const target = args.find((a) => !(a.value !== undefined && /^-[LPe@]+$/.test(a.value)) && a.value !== "--")
  if (!target) return [home]
  if (target.value === undefined || target.value === "-" || target.glob) return null
  const path = expandTilde(target, home)
  if (path.startsWith("/")) return [posix.resolve(path)]
  if (cwd === null) return null
  return cwd.map((d) => posix.resolve(d, path))
}

/** The word as a path: `~` and `~/x` are the home directory; `~user` stays as written. */
export function expandTilde(word: Word, home: string): string {
  const v = word.value ?? ""
  if (!word.tilde) return v
  if (v === "~") return home
  if (v.startsWith("~/")) return home + v.slice(1)
  return v
}

/** Absolute forms of a path word, one per cwd candidate; null when the cwd is unknown and the path is relative. */
export function resolveWord(word: Word, cwd: Cwd, home: string): string[] | null {
  const p = expandTilde(word, home)
  if (p.startsWith("/")) return [normalise(p)]
  if (cwd === null) return null
  // most operands are plain relative names: join without the general resolver
  if (p && !p.startsWith(".") && !p.includes("/.") && !p.includes("//") && !p.endsWith("/")) return cwd.map((d) => (d === "/" ? "/" : d + "/") + p)
  return cwd.map((d) => normalise(posix.resolve(d, p)))
}

function normalise(p: string): string {
  if (!p.includes("/.") && !p.includes("//")) return p.length > 1 && p.endsWith("/") ? p.slice(0, -1) : p
  const r = posix.normalize(p)
  return r.length > 1 && r.endsWith("/") ? r.slice(0, -1) : r
}

export function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir === "/" ? "/" : dir + "/")
}
