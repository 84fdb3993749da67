// Where a shell path really leads on disk, for what the analysis (which never reads the disk) cannot
// know. A glob: The analysis matches globs against names only; bash
// matches them against the disk, and a directory or file it matches may be a symlink to anywhere: a
// repository that ships `docs -> /home/me/.aws` turns `cat */credentials` into a read of the
// credentials. So the glob is expanded here the way bash would (bounded), and every match that leads
// somewhere else through a link is judged as a path of its own. Side effects: readdir and realpath.
import { readdirSync, statSync, type Dirent } from "node:fs"
import { isInside } from "../base/paths.ts"
import { segmentRegex } from "../shell/globs.ts"

export interface GlobLinks {
  /** where matches that pass through a symlink really lead (realpath applied) */
  links: string[]
  /** false: more entries than the limit, so not every match was looked at */
  complete: boolean
}

interface Reached {
  path: string
  /** passed through a symlink, or through a name after a glob that may be one: needs realpath */
  linked: boolean
}

const GLOB = /[*?[]/

/**
 * Expands an absolute glob path on disk (the part before the first glob is resolved by the caller's
 * realpath). `*`, `?` and classes match dot-files too (dotglob may be on) and case is ignored (a
 * case-insensitive file system); a `**` segment matches any depth (globstar may be on) and, as `*`
 * does, the names in its directory. All of this over-approximates bash, which is the safe side here.
 * Only what can lead elsewhere is kept: directories and links before the last segment, links in it.
 */
export function globLinks(abs: string, realpath: (p: string) => string, limit = 4096): GlobLinks {
  let paths: Reached[] = [{ path: "", linked: false }]
  let globbed = false
  const segments = abs.split("/").slice(1)
  for (let i = 0; i < segments.length && paths.length; i++) {
    const seg = segments[i]!
    if (!GLOB.test(seg)) {
      paths = paths.map((p) => ({ path: `${p.path}/${seg}`, linked: p.linked || globbed }))
      continue
    }
    globbed = true
    const last = i === segments.length - 1
    const next: Reached[] = []
    for (const dir of paths) {
      const found = seg === "**" ? below(dir, limit) : matches(dir, segmentRegex(seg))
      for (const f of found) {
        if (last ? !f.linked : !f.dirLike) continue
        next.push(f)
        if (next.length > limit) return { links: resolved(next, realpath), complete: false }
      }
    }
    paths = next
  }
  return { links: resolved(paths, realpath), complete: true }
}

type Found = Reached & { dirLike: boolean }

function matches(dir: Reached, re: RegExp): Found[] {
  const out: Found[] = []
  for (const e of entries(dir.path)) if (re.test(e.name)) out.push(found(dir, e))
  return out
}

// every name in the directory and, recursively, in the directories below it; links to directories are
// not descended (bash's globstar does not), but a link is itself a match
function below(dir: Reached, limit: number): Found[] {
  const out: Found[] = []
  const queue = [dir]
  for (let i = 0; i < queue.length && out.length <= limit; i++) {
    for (const e of entries(queue[i]!.path)) {
      const f = found(queue[i]!, e)
      out.push(f)
      if (e.isDirectory()) queue.push(f)
    }
  }
  return out
}

function found(dir: Reached, e: Dirent): Found {
  const link = e.isSymbolicLink()
  return { path: `${dir.path}/${e.name}`, linked: dir.linked || link, dirLike: link || e.isDirectory() }
}

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir || "/", { withFileTypes: true })
  } catch {
    return []
  }
}

function resolved(paths: Reached[], realpath: (p: string) => string): string[] {
  const out: string[] = []
  for (const p of paths) {
    if (!p.linked) continue
    const real = realpath(p.path)
    if (real !== p.path) out.push(real)
  }
  return out
}

export interface WalkLink {
  /** the link as the walk meets it */
  at: string
  /** where it leads (realpath applied) */
  to: string
  dir: boolean
}

/**
 * The links a walk of `root` that follows links meets (grep -R, rg -L, diff -r), with where each leads.
 * Directories they lead to inside the workspace are walked too (their links count); ones outside are
 * reported, not walked: reading a whole folder outside the workspace is judged by the caller.
 */
export function walkLinks(root: string, workspace: string, realpath: (p: string) => string, limit = 20000): { links: WalkLink[]; complete: boolean } {
  const links: WalkLink[] = []
  // the root is a real path, so every directory met below it is one too
  const queue = [root]
  const walked = new Set([root])
  let seen = 0
  for (let i = 0; i < queue.length; i++) {
    for (const e of entries(queue[i]!)) {
      if (++seen > limit) return { links, complete: false }
      const at = `${queue[i]}/${e.name}`
      if (e.isDirectory() && !walked.has(at)) {
        walked.add(at)
        queue.push(at)
      }
      if (!e.isSymbolicLink()) continue
      const to = realpath(at)
      const dir = isDir(to)
      links.push({ at, to, dir })
      if (dir && isInside(workspace, to) && !walked.has(to)) {
        walked.add(to)
        queue.push(to)
      }
    }
  }
  return { links, complete: true }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
