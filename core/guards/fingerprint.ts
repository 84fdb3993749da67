// Takes a workspace fingerprint (I/O): in a git work tree, `git status` (run through safeGit, so
// nothing the repository configures runs) plus content hashes of the files it lists; elsewhere a
// walk of every file. Never writes to the workspace or the repository's index.
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, type Stats } from "node:fs"
import { dirname, join, relative, sep } from "node:path"
import { configuredFilters, safeGit } from "../git/safe-git.ts"
import { markAt, setMark, type FileMark, type Fingerprint } from "./workspace-diff.ts"

export interface FingerprintOptions {
  /** the last fingerprint of this workspace: unchanged files (same size and mtime) are not read again */
  previous?: Fingerprint
  /** the walk stops after this many files (default: none; the fingerprint then says it is truncated) */
  maxFiles?: number
  /** defaults to Date.now(); compared with file mtimes */
  now?: number
  /** absolute paths that are not part of the workspace's content (ccode's own database and data):
   *  the file itself, its `-wal`/`-shm`/`-journal` companions, and everything below it */
  ignore?: string[]
}

const SKIP_DIRS = new Set([".git", "node_modules"])
/** Files bigger than this are compared by size and mtime, not read: a walk must not read gigabytes. */
const MAX_HASHED_BYTES = 8 * 1024 * 1024
/** A file modified this close to the previous fingerprint may have changed again within one mtime tick. */
const RACY_MS = 2000

export async function fingerprintWorkspace(root: string, opts: FingerprintOptions = {}): Promise<Fingerprint> {
  const realRoot = realpathSync(root)
  const takenAt = opts.now ?? Date.now()
  const cache = opts.previous?.root === realRoot ? opts.previous : undefined
  const skip = ignorer(realRoot, opts.ignore ?? [])
  if (insideGitRepo(realRoot)) {
    const fromGit = await gitFingerprint(realRoot, takenAt, cache, skip).catch(() => undefined)
    if (fromGit) return fromGit
  }
  return walkFingerprint(realRoot, takenAt, cache, opts.maxFiles ?? Number.POSITIVE_INFINITY, skip)
}

/** relative path -> not part of the workspace's content (ccode's own files) */
export function ignorer(root: string, ignore: string[]): (path: string) => boolean {
  const own = ignore.map((p) => relative(root, p).split(sep).join("/")).filter((r) => r && !r.startsWith(".."))
  if (!own.length) return () => false
  return (path) => own.some((o) => path === o || path.startsWith(`${o}/`) || /^-(wal|shm|journal)$/.test(path.slice(o.length)) && path.startsWith(o))
}

async function gitFingerprint(root: string, takenAt: number, cache: Fingerprint | undefined, skip: (path: string) => boolean): Promise<Fingerprint | undefined> {
  const [top, filters] = await Promise.all([
    safeGit(["rev-parse", "--show-toplevel"], { cwd: root, filters: [] }),
    configuredFilters({ cwd: root }),
  ])
  if (top.exitCode !== 0) return undefined
  const prefix = relative(realpathSync(top.stdout.trim()), root)
  if (prefix.startsWith("..")) return undefined
  const status = await safeGit(
    ["status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all", "--no-renames", "--ignore-submodules=all", "--", "."],
    { cwd: root, filters },
  )
  if (status.exitCode !== 0) return undefined
  const files: Record<string, FileMark> = {}
  let head: string | undefined
  for (const record of status.stdout.split("\0")) {
    if (record.startsWith("# branch.oid ")) head = record.slice("# branch.oid ".length)
    const parsed = parseStatusRecord(record)
    if (!parsed) continue
    const path = prefix ? relative(prefix, parsed.path).split(sep).join("/") : parsed.path.replace(/\/$/, "")
    if (path.startsWith("..") || skip(path)) continue
    setMark(files, path, { ...markFile(join(root, path), path, cache), status: parsed.status })
  }
  return { kind: "git", root, head, files, takenAt }
}

// Porcelain v2: "1 XY sub mH mI mW hH hI path", "u XY sub m1 m2 m3 mW h1 h2 h3 path", "? path".
function parseStatusRecord(record: string): { status: string; path: string } | undefined {
  if (record.startsWith("? ")) return { status: "??", path: record.slice(2) }
  const fields = record.startsWith("1 ") ? 8 : record.startsWith("u ") ? 10 : 0
  if (!fields) return undefined
  const parts = record.split(" ")
  return { status: parts[1]!, path: parts.slice(fields).join(" ") }
}

function walkFingerprint(root: string, takenAt: number, cache: Fingerprint | undefined, maxFiles: number, skip: (path: string) => boolean): Fingerprint {
  const files: Record<string, FileMark> = {}
  let count = 0
  let truncated = false
  const visit = (dir: string, rel: string) => {
    let entries
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      return // unreadable or vanished meanwhile
    }
    for (const entry of entries) {
      if (truncated) return
      const path = rel ? `${rel}/${entry.name}` : entry.name
      if (skip(path)) continue
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) visit(join(dir, entry.name), path)
        continue
      }
      if (++count > maxFiles) {
        truncated = true
        return
      }
      setMark(files, path, markFile(join(dir, entry.name), path, cache))
    }
  }
  visit(root, "")
  const fingerprint: Fingerprint = { kind: "walk", root, files, takenAt }
  if (truncated) fingerprint.truncated = true
  return fingerprint
}

function markFile(absolute: string, path: string, cache: Fingerprint | undefined): FileMark {
  let stats: Stats
  try {
    stats = lstatSync(absolute)
  } catch {
    return { hash: null, size: 0, mtimeMs: 0 }
  }
  const mark = { size: stats.size, mtimeMs: Math.floor(stats.mtimeMs) }
  const known = cache ? markAt(cache.files, path) : undefined
  if (known && known.hash !== null && known.size === mark.size && known.mtimeMs === mark.mtimeMs && mark.mtimeMs < cache!.takenAt - RACY_MS) {
    return { hash: known.hash, ...mark }
  }
  return { hash: contentHash(absolute, stats), ...mark }
}

function contentHash(absolute: string, stats: Stats): string {
  try {
    if (stats.isSymbolicLink()) return `link:${readlinkSync(absolute)}`
    if (stats.isDirectory()) return "dir" // an untracked nested repository, reported by git as "dir/"
    if (!stats.isFile()) return "special"
    if (stats.size > MAX_HASHED_BYTES) return `big:${stats.size}:${stats.mtimeMs}`
    return new Bun.CryptoHasher("sha1").update(readFileSync(absolute)).digest("hex").slice(0, 16)
  } catch {
    return "unreadable"
  }
}

// Cheap check before spawning git: a .git entry here or in an ancestor.
function insideGitRepo(dir: string): boolean {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, ".git"))) return true
    if (dirname(current) === current) return false
  }
}
