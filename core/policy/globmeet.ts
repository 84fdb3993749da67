// Could one path match both a shell glob and a policy path pattern? `cat ~/.secr*/token` touches
// `~/.secrets/token` when that exists, so a `risk.paths` entry `~/.secrets/**` (or `**/*.pem`, from any
// policy layer) must count it as a hit without knowing the file system. Both sides are globs over
// segments: `*`, `?`, `[...]` inside one segment, `**` any number of segments (a shell's globstar too).
// Conservative where exactness would cost: two character classes are taken to share a character, a
// POSIX class (`[[:alpha:]]`) is any character. The touched glob's wildcards match a leading `.` too
// (`shopt -s dotglob` may be on), as the policy pattern's do.
// A meeting counts only where the two share written text (`~/.secr*` and `.secrets` share `.secr`):
// `src/*.ts` and `id_rsa*` meet only in a made-up `id_rsa.ts`, each side's wildcard swallowing the other's
// whole name, which is not a disguise of the secret but every glob in the workspace. A last segment of
// wildcards only (`dir/*`) is the directory it lists: the plain match of the directory judges it. Pure.

import { readBracket } from "../shell/globs.ts"

type Tok = { k: "lit"; c: string } | { k: "any" } | { k: "star" } | { k: "cls"; re: RegExp }

const MAX_BRACES = 64
const BROAD_LAST = /\/[.*?]*[*?][.*?]*$/

/** True when some path could match both absolute globs (already normalised): `a` as bash would expand
 *  it, `b` as a policy pattern. `fold`: ignore case. */
export function globsMeet(a: string, b: string, fold: boolean): boolean {
  if (BROAD_LAST.test(a)) {
    // `dir/*` lists dir: it meets a pattern for names right in that directory (`/srv/keys/*.key`); a
    // pattern for any depth (`**/*.pem`) would meet every `dir/*` and says nothing about this one
    const parent = b.slice(0, b.lastIndexOf("/"))
    if (parent.split("/").includes("**") || !parent) return false
    return globsMeet(a.slice(0, a.lastIndexOf("/")) || "/", parent, fold)
  }
  const as = expandBraces(fold ? a.toLowerCase() : a)
  const bs = expandBraces(fold ? b.toLowerCase() : b)
  for (const x of as) for (const y of bs) if (pathsMeet(x.split("/"), y.split("/"), fold)) return true
  return false
}

function pathsMeet(a: string[], b: string[], fold: boolean): boolean {
  const memo = new Map<number, boolean>()
  const go = (i: number, j: number): boolean => {
    const key = i * 4096 + j
    const hit = memo.get(key)
    if (hit !== undefined) return hit
    memo.set(key, false)
    let r: boolean
    if (a[i] === "**") r = go(i + 1, j) || (j < b.length && go(i, j + 1))
    else if (b[j] === "**") r = go(i, j + 1) || (i < a.length && go(i + 1, j))
    else if (i === a.length || j === b.length) r = i === a.length && j === b.length
    else r = segmentsMeet(a[i]!, b[j]!, fold) && go(i + 1, j + 1)
    memo.set(key, r)
    return r
  }
  return go(0, 0)
}

function segmentsMeet(x: string, y: string, fold: boolean): boolean {
  if (x === y) return true
  const a = tokens(x, fold)
  const b = tokens(y, fold)
  // a side with no written character (`*`, `?`) shares nothing by nature: any meeting counts
  const shared0 = !a.some((t) => t.k === "lit" || t.k === "cls") || !b.some((t) => t.k === "lit" || t.k === "cls")
  const memo = new Map<number, boolean>()
  const go = (i: number, j: number, shared: boolean): boolean => {
    const key = (i * 4096 + j) * 2 + (shared ? 1 : 0)
    const hit = memo.get(key)
    if (hit !== undefined) return hit
    memo.set(key, false)
    let r: boolean
    const p = a[i]
    const q = b[j]
    if (p?.k === "star") r = go(i + 1, j, shared) || (j < b.length && go(i, j + 1, shared))
    else if (q?.k === "star") r = go(i, j + 1, shared) || (i < a.length && go(i + 1, j, shared))
    else if (!p || !q) r = !p && !q && shared
    else r = charsMeet(p, q) && go(i + 1, j + 1, shared || (p.k !== "any" && q.k !== "any"))
    memo.set(key, r)
    return r
  }
  return go(0, 0, shared0)
}

function charsMeet(p: Tok, q: Tok): boolean {
  if (p.k === "any" || q.k === "any") return true
  if (p.k === "lit" && q.k === "lit") return p.c === q.c
  if (p.k === "lit" && q.k === "cls") return q.re.test(p.c)
  if (p.k === "cls" && q.k === "lit") return p.re.test(q.c)
  return true // two classes: assume they share a character
}

function tokens(seg: string, fold: boolean): Tok[] {
  const out: Tok[] = []
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!
    if (c === "*") {
      if (out.at(-1)?.k !== "star") out.push({ k: "star" })
    } else if (c === "?") out.push({ k: "any" })
    else if (c === "[") {
      const b = readBracket(seg, i)
      if (!b) out.push({ k: "lit", c })
      else {
        let re: RegExp
        try {
          re = b.any ? /^[^]$/ : new RegExp(`^[${b.body}]$`, fold ? "i" : "")
        } catch {
          re = /^[^]$/ // a class we cannot read could be any character
        }
        out.push({ k: "cls", re })
        i = b.end
      }
    } else if (c === "\\" && i + 1 < seg.length) out.push({ k: "lit", c: seg[++i]! })
    else out.push({ k: "lit", c })
  }
  return out
}

/** `a{b,c}d` -> [abd, acd] (nested and several groups; capped: past the cap the group stays a `*`). */
function expandBraces(s: string): string[] {
  const open = s.indexOf("{")
  if (open < 0) return [s]
  let depth = 0
  let close = -1
  const cuts: number[] = []
  for (let i = open; i < s.length; i++) {
    if (s[i] === "{") depth++
    else if (s[i] === "}" && --depth === 0) {
      close = i
      break
    } else if (s[i] === "," && depth === 1) cuts.push(i)
  }
  if (close < 0) return [s]
  const head = s.slice(0, open)
  const tail = s.slice(close + 1)
  const alts: string[] = []
  let from = open + 1
  for (const c of [...cuts, close]) {
    alts.push(s.slice(from, c))
    from = c + 1
  }
  const out: string[] = []
  for (const alt of alts) {
    for (const x of expandBraces(head + alt + tail)) {
      if (out.length >= MAX_BRACES) return [head + "*" + tail.replace(/[{},]/g, "*")]
      out.push(x)
    }
  }
  return out
}

/** The shell glob characters a touched path may hold (bash left them when nothing matched, or the
 *  analysis kept the glob as written). */
export function hasGlob(path: string): boolean {
  return /[*?[]/.test(path)
}
