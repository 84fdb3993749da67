// The files a recursive read really opens below a folder, looked up on disk for the ones a path rule
// names by their name alone (`.env*`, `*.pem`, `id_rsa*` at any depth, a credential file kept in the
// workspace): `grep -rn KEY .` prints the lines of the workspace's `.env` as `cat .env` would, and no
// path in the command says so. The walk is bounded like every listing (core/policy/globdisk.ts): past
// the bound the answer is incomplete and the caller fails closed. Side effects: readdir.
import { existsSync } from "node:fs"
import { Budget, ENTRY_BOUND } from "./globdisk.ts"
import { readRegular } from "../base/readsafe.ts"

export interface TreeFiles {
  /** the files below the root that `judged` picked */
  files: string[]
  /** false: more entries than the bound, so not every file was looked at */
  complete: boolean
}

/**
 * Files below `root` (a real path) that `judged` picks. Links met on the way are neither followed nor
 * returned (grep -r, rg and ag read a link only when it is named; walks that follow links are judged
 * elsewhere); `hidden: false` skips names starting with a dot and what is below them, as rg and ag do
 * by default. `dotGlobs` (rg): a dot-name those globs match is walked all the same, and so is one a
 * `!` line of an ignore file (.ignore, .rgignore, .gitignore) in its folder or above names, as rg's
 * overrides and whitelists are decided before its hidden test. Names are compared ignoring case.
 */
export function treeFiles(root: string, judged: (path: string) => boolean, opts: { hidden: boolean; bound?: number; dotGlobs?: readonly string[]; ignoreFiles?: readonly IgnoreFile[] }): TreeFiles {
  const budget = new Budget(opts.bound ?? ENTRY_BOUND)
  const files: string[] = []
  const rg = !opts.hidden && opts.dotGlobs !== undefined
  const overrides = rg ? [...opts.dotGlobs!.map((g) => whitelistLine(root, g)), ...(opts.ignoreFiles ?? []).flatMap((f) => fileWhitelist(f.file, f.base))] : []
  const queue: [string, Whitelist[]][] = [[root, rg ? [...overrides, ...ancestorWhitelist(root)] : []]]
  for (let i = 0; i < queue.length; i++) {
    const [dir, inherited] = queue[i]!
    const list = budget.entries(dir)
    if (!list) return { files, complete: false }
    const allowed = rg ? [...inherited, ...whitelistIn(dir, list.map((e) => e.name))] : inherited
    for (const e of list) {
      const at = `${dir === "/" ? "" : dir}/${e.name}`
      if (!opts.hidden && e.name.charCodeAt(0) === 46 && !allowed.some((w) => w.matches(at))) continue
      if (e.isDirectory()) queue.push([at, allowed])
      else if (!e.isSymbolicLink() && judged(at)) files.push(at)
    }
  }
  return { files, complete: true }
}

interface Whitelist {
  matches(path: string): boolean
}

const IGNORE_FILES = [".ignore", ".rgignore", ".gitignore"]

// gitignore semantics: a pattern without a `/` (but a trailing one) matches a name at any depth, one
// with a `/` the path from the folder of the file it is in
function whitelistLine(base: string, pattern: string): Whitelist {
  let p = pattern.trim().replace(/\/+$/, "").toLowerCase()
  const anchored = p.includes("/")
  p = p.replace(/^\//, "")
  const glob = new Bun.Glob(p)
  const from = base === "/" ? 1 : base.length + 1
  return {
    matches: (path) => {
      const lower = path.toLowerCase()
      if (anchored) return glob.match(lower.slice(from)) || glob.match(lower.slice(lower.lastIndexOf("/") + 1))
      return glob.match(lower.slice(lower.lastIndexOf("/") + 1))
    },
  }
}

/** An ignore file rg reads besides the folders' own (.git/info/exclude, git's global excludes, an
 *  --ignore-file of its config): its patterns are taken from `base` (the repository's top). */
export interface IgnoreFile {
  file: string
  base: string
}

// the `!` lines of the ignore files among a folder's names
function whitelistIn(dir: string, names: readonly string[]): Whitelist[] {
  const out: Whitelist[] = []
  for (const f of IGNORE_FILES) if (names.includes(f)) out.push(...fileWhitelist(`${dir === "/" ? "" : dir}/${f}`, dir))
  return out
}

function fileWhitelist(file: string, base: string): Whitelist[] {
  let text: string
  try {
    text = readRegular(file)
  } catch {
    // unreadable: rg cannot read it either
    return []
  }
  const out: Whitelist[] = []
  for (const line of text.split("\n")) if (line.startsWith("!") && line.length > 1) out.push(whitelistLine(base, line.slice(1)))
  return out
}

// rg reads the ignore files of the folders above where it starts too
function ancestorWhitelist(root: string): Whitelist[] {
  const out: Whitelist[] = []
  for (let dir = root; dir !== "/"; ) {
    dir = dir.slice(0, dir.lastIndexOf("/")) || "/"
    const names = IGNORE_FILES.filter((f) => existsSync(`${dir === "/" ? "" : dir}/${f}`))
    if (names.length) out.push(...whitelistIn(dir, names))
  }
  return out
}
