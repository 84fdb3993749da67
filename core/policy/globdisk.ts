// Where a shell path really leads on disk, for what the analysis (which never reads the disk) cannot
// know: a glob's matches, the links a link-following walk meets, and links into /proc. A repository
// that ships `docs -> /home/me/.aws` turns `cat */credentials` into a read of the credentials; bash
// matches the glob on disk and follows the link, so the glob is expanded here the way bash would, and
// every match that leads somewhere else through a link is judged as a path of its own. Every listing is
// bounded by a number of directory entries read, so a decision never takes long: past the bound the
// answer is "incomplete" and the caller fails closed. Side effects: readdir, readlink, realpath, stat.
import { opendirSync, readlinkSync, statSync, type Dirent } from "node:fs"
import { dirname, normalize } from "node:path"
import { isInside, ownProcessPath } from "../base/paths.ts"
import { segmentRegex } from "../shell/globs.ts"

export interface GlobLinks {
  /** where matches that pass through a symlink really lead (realpath applied) */
  links: string[]
  /** the other matches of the last segment (real paths already): a leading dot only where the
   *  segment spells it, unless `dotglob` was asked for */
  names: string[]
  /** when the last segment is literal (`.git/modules/x*` then `config`): the paths it names below the
   *  matches, as bash's expansion has them (not looked up, nor resolved) */
  tails?: string[]
  /** false: more entries than the bound, so not every match was looked at */
  complete: boolean
}

/** How many directory entries one expansion or walk may read. */
export const ENTRY_BOUND = 20000

interface Reached {
  path: string
  /** passed through a symlink, or through a name after a glob that may be one: needs realpath */
  linked: boolean
}

const GLOB = /[*?[]/

/** A countdown of directory entries: reading stops when it reaches zero. */
export class Budget {
  constructor(public left: number) {}
  /** the directory's entries, as many as are left; undefined once the budget is spent */
  entries(dir: string): Dirent[] | undefined {
    const out: Dirent[] = []
    let handle
    try {
      handle = opendirSync(dir || "/")
    } catch {
      return out
    }
    try {
      for (let e = handle.readSync(); e !== null; e = handle.readSync()) {
        if (--this.left < 0) return undefined
        out.push(e)
      }
    } catch {
      // unreadable midway: what was read stands
    } finally {
      handle.closeSync()
    }
    return out
  }
}

/**
 * Expands an absolute glob path on disk (the part before the first glob is resolved by the caller's
 * realpath). `*`, `?` and classes match dot-files too (dotglob may be on) and case is ignored (a
 * case-insensitive file system); a `**` segment matches any depth (globstar may be on) and, as `*`
 * does, the names in its directory. All of this over-approximates bash, which is the safe side here.
 * Only what can lead elsewhere is kept: directories and links before the last segment, links in it.
 */
export function globLinks(abs: string, realpath: (p: string) => string, bound = ENTRY_BOUND, dotglob = true): GlobLinks {
  // ccode's own descriptors say nothing about the command's (judged by the analysis and onDisk)
  if (ownProcessPath(abs)) return { links: [], names: [], complete: true }
  const budget = new Budget(bound)
  let paths: Reached[] = [{ path: "", linked: false }]
  let globbed = false
  const names: string[] = []
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
    // bash matches a leading dot only when the pattern spells it (dotglob off, as a fresh bash starts)
    const dots = dotglob || seg.startsWith(".")
    for (const dir of paths) {
      const found = seg === "**" ? zeroOrMore(dir, budget) : matches(dir, segmentRegex(seg), budget)
      if (!found) return { links: resolved(next, realpath), names, complete: false }
      for (const f of found) {
        if (last ? f.linked : f.dirLike) next.push(f)
        else if (last && !f.linked && (dots || !f.path.slice(f.path.lastIndexOf("/") + 1).startsWith("."))) names.push(f.path)
      }
    }
    paths = next
  }
  const tails = globbed && !GLOB.test(segments[segments.length - 1] ?? "") ? paths.map((p) => p.path) : undefined
  return { links: resolved(paths, realpath), names, tails, complete: true }
}

/**
 * The names in a directory that a glob's last segment matches and that start with `-`: as a command's
 * argument, bash passes each as a word the program reads as an option (`sort *` with a file named
 * `--compress-program=sh`). Bounded like every listing; past the bound the answer is incomplete.
 */
export function optionNames(abs: string, bound = ENTRY_BOUND): { names: string[]; complete: boolean } {
  if (ownProcessPath(abs)) return { names: [], complete: true }
  const dir = dirname(abs)
  const re = segmentRegex(abs.slice(dir.length + 1))
  const list = new Budget(bound).entries(dir)
  if (!list) return { names: [], complete: false }
  const names: string[] = []
  for (const e of list) if (e.name.charCodeAt(0) === 45 && re.test(e.name)) names.push(e.name)
  return { names, complete: true }
}

type Found = Reached & { dirLike: boolean }

function matches(dir: Reached, re: RegExp, budget: Budget): Found[] | undefined {
  const list = budget.entries(dir.path)
  if (!list) return undefined
  const out: Found[] = []
  for (const e of list) if (re.test(e.name)) out.push(found(dir, e))
  return out
}

// every name in the directory and, recursively, in the directories below it; links to directories are
// not descended (bash's globstar does not), but a link is itself a match
// `**` matches no folder too (`keys/**/*` reads keys/server.pem): the folder itself, then all below it
function zeroOrMore(dir: Reached, budget: Budget): Found[] | undefined {
  const all = below(dir, budget)
  return all && [{ path: dir.path, linked: dir.linked, dirLike: true }, ...all]
}

function below(dir: Reached, budget: Budget): Found[] | undefined {
  const out: Found[] = []
  const queue = [dir]
  for (let i = 0; i < queue.length; i++) {
    const list = budget.entries(queue[i]!.path)
    if (!list) return undefined
    for (const e of list) {
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
 * reported, not walked: reading a whole folder outside the workspace is judged by the caller. A root
 * that is a glob is walked from the directory before its first glob (every match is below it).
 */
export function walkLinks(root: string, workspace: string, realpath: (p: string) => string, bound = ENTRY_BOUND): { links: WalkLink[]; complete: boolean } {
  if (ownProcessPath(root)) return { links: [], complete: false }
  const start = realpath(globFree(root))
  const budget = new Budget(bound)
  const links: WalkLink[] = []
  // the start is a real path, so every directory met below it is one too
  const queue = [start]
  const walked = new Set([start])
  for (let i = 0; i < queue.length; i++) {
    const list = budget.entries(queue[i]!)
    if (!list) return { links, complete: false }
    for (const e of list) {
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

/** The directory before a path's first glob segment (the path itself when it has none). */
export function globFree(path: string): string {
  if (!GLOB.test(path)) return path
  const segments = path.split("/")
  const first = segments.findIndex((s) => GLOB.test(s))
  return segments.slice(0, first).join("/") || "/"
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

// /proc/self/cwd, /proc/self/root, /dev/fd/N, /dev/stdin: what they point at depends on the process
// that opens them, so ccode's own realpath of them says nothing about the command's
const MAGIC = /^\/(proc|dev\/fd|dev\/std(in|out|err))(\/|$)/

/**
 * The link on the way to `path` that leads into /proc or /dev/fd, if any (following the links one by
 * one as the kernel does). Paths that name /proc or /dev themselves are the analysis's to judge.
 */
export function throughMagicLink(path: string): string | undefined {
  if (MAGIC.test(path) || path.startsWith("/dev/")) return undefined
  let rest = path.split("/").filter(Boolean)
  let current = ""
  for (let hops = 0; rest.length && hops < 40; ) {
    const name = rest.shift()!
    if (name === ".") continue
    if (name === "..") {
      current = current ? dirname(current) : ""
      if (current === "/") current = ""
      continue
    }
    const next = `${current}/${name}`
    const target = linkTarget(next)
    if (target === undefined) {
      current = next
      continue
    }
    hops++
    const abs = normalize(target.startsWith("/") ? target : `${current}/${target}`)
    if (MAGIC.test(abs)) return next
    rest = [...abs.split("/").filter(Boolean), ...rest]
    current = ""
  }
  return undefined
}

function linkTarget(path: string): string | undefined {
  try {
    return readlinkSync(path)
  } catch {
    return undefined
  }
}
