// Keeps the shadow index in step with the workspace one path at a time: given the paths a watcher saw
// touched, stage just those and say what changed, updating the in-memory listing (entries, modes,
// empty directories) that a whole-tree listing would have produced. Anything that could change the
// directory structure (a directory created, removed or chmod-ed, a directory's last file going) is
// left to a whole-tree pass ("structural"), which is slower but cannot get it wrong.
import { lstatSync, readFileSync, readlinkSync, type Stats } from "node:fs"
import { join } from "node:path"
import { canonicalMode, DIR_MODE, permOf, workspaceListing, type Entry, type Listing, type Manifest } from "./listing.ts"
import { SnapshotError, type ShadowRepo } from "./repo.ts"
import { setEntry, treesFrom, type Trees } from "./trees.ts"

/** The shadow index as last staged, in memory. */
export interface Tracked {
  entries: Map<string, Entry>
  /** the listing's directories as git trees, recomputed where something changed */
  trees: Trees
  /** directory -> number of index entries below it (every ancestor of every entry) */
  dirs: Map<string, number>
  manifest: Manifest
  /** how often the manifest changed: a snapshot encodes it again (a big one is a blob) only when this moved */
  manifestEdits: number
}

export interface StagedChange {
  added: string[]
  removed: string[]
  modified: string[]
}

/** Bigger files are left to git, which streams them. */
const READ_LIMIT = 32 * 1024 * 1024

export const NO_CHANGE: StagedChange = { added: [], removed: [], modified: [] }

/** Stage the whole work tree; what changed compared with `before` (everything is "added" without one). */
export async function stageAll(r: ShadowRepo, before?: Tracked): Promise<{ tracked: Tracked; change: StagedChange }> {
  const listing = await workspaceListing(r, addAll(r))
  const tracked = trackedFrom(listing)
  return { tracked, change: diffEntries(before?.entries ?? new Map(), tracked.entries, before?.manifest, tracked.manifest) }
}

/**
 * Stage only `paths` (workspace-relative) into the in-memory listing and the object store: a changed
 * file is hashed and written as a blob here, with no git process; a new path is first asked of
 * `git check-ignore`. The shadow index itself is left behind (the next whole-tree pass catches up).
 * Updates `t` in place; "structural" when a whole-tree pass is needed.
 */
export async function stagePaths(r: ShadowRepo, t: Tracked, paths: readonly string[]): Promise<StagedChange | "structural"> {
  const change: StagedChange = { added: [], removed: [], modified: [] }
  const fresh: { path: string; stats: Stats }[] = []
  const unknownDirs: string[] = []
  const knownDirs: string[] = []
  const staged: string[] = []
  const realDirs = new Map<string, boolean>()
  for (const path of new Set(paths)) {
    if (!path) continue // the root directory itself: its mode is not part of a snapshot
    // a directory replaced by a symlink since the event: reading through it would read outside the workspace
    if (!underRealDirs(r.workspace, path, realDirs)) return "structural"
    const stats = lstatOrNull(join(r.workspace, path))
    const known = t.entries.get(path)
    if (stats?.isDirectory()) {
      if (known) return "structural" // a nested repository (gitlink), or a file that became a directory
      if (t.dirs.has(path)) knownDirs.push(path)
      else unknownDirs.push(path)
    } else if (stats && (stats.isFile() || stats.isSymbolicLink())) {
      if (stats.size > READ_LIMIT) return "structural" // git streams big files; here they would be read whole
      if (!known) {
        if (insideNested(t, path)) continue // a nested repository's own file: not the workspace's to stage
        fresh.push({ path, stats })
        continue
      }
      const entry = stageFile(r, path, stats)
      if (!entry) return "structural"
      staged.push(path)
      if (entry.oid !== known.oid || entry.mode !== known.mode) {
        setTracked(t, path, entry)
        change.modified.push(path)
      }
    } else if (known) {
      if (stats) return "structural" // a file replaced by a socket or fifo: let git decide
      setTracked(t, path, undefined)
      change.removed.push(path)
      if (count(t.dirs, path, -1)) return "structural" // its directory has no file left: maybe an empty directory now
    } else if (t.dirs.has(path)) return "structural" // a directory with files in it is gone
    // else: created and removed again between two looks; nothing to stage
  }
  const asked = [...fresh.map((f) => f.path), ...unknownDirs]
  if (asked.length) {
    // check-ignore takes no pathspec magic, not even "literal"; it matches each path as a path anyway
    const answer = await r.git(["check-ignore", "-z", "--stdin"], { input: asked.join("\0"), check: false, env: { GIT_LITERAL_PATHSPECS: undefined } })
    if (answer.exitCode > 1) throw new SnapshotError(`git check-ignore in the shadow repository failed: ${answer.stderr.trim()}`)
    const ignored = new Set(answer.stdout.split("\0"))
    // a directory that is not ignored and holds no staged file: an empty directory in the listing, or a nested repository
    if (unknownDirs.some((dir) => !ignored.has(dir))) return "structural"
    for (const { path, stats } of fresh) {
      if (ignored.has(path)) continue
      if (path.split("/").includes(".git")) return "structural" // a repository being made inside the workspace
      const entry = stageFile(r, path, stats)
      if (!entry) return "structural"
      staged.push(path)
      setTracked(t, path, entry)
      change.added.push(path)
      if (count(t.dirs, path, 1)) return "structural" // a first file in a directory: it may have been listed as empty
    }
  }
  const manifest = t.manifest
  const listed = new Set([...change.added, ...change.modified, ...change.removed])
  const setMode = (modes: Record<string, number>, path: string, perm: number | undefined) => {
    const was = modes[path]
    if (was === perm) return
    if (perm === undefined) delete modes[path]
    else modes[path] = perm
    t.manifestEdits++
    // a chmod that git's two modes cannot see is still a change of the snapshot
    if (!listed.has(path)) change.modified.push(path)
  }
  for (const path of [...staged, ...change.removed]) {
    const entry = t.entries.get(path)
    const perm = entry && (entry.mode === "100644" || entry.mode === "100755") ? permOf(join(r.workspace, path)) : undefined
    setMode(manifest.files, path, perm !== undefined && perm !== canonicalMode(entry!.mode) ? perm : undefined)
  }
  for (const dir of knownDirs) {
    const perm = permOf(join(r.workspace, dir))
    setMode(manifest.dirs, dir, perm !== undefined && perm !== DIR_MODE ? perm : undefined)
  }
  return change
}

export function trackedFrom(listing: Listing): Tracked {
  const dirs = new Map<string, number>()
  for (const path of listing.files.keys()) count(dirs, path, 1)
  return { entries: listing.files, dirs, manifest: listing.manifest, manifestEdits: 0, trees: treesFrom(listing.files) }
}

/** Stage the whole work tree into the shadow index; unreadable files are skipped, not fatal. */
export async function addAll(r: ShadowRepo): Promise<void> {
  const added = await r.git(["add", "-A", "--ignore-errors", "--", "."], { check: false })
  checkAdd(added.exitCode, added.stderr)
}

function checkAdd(exitCode: number, stderr: string): void {
  if (exitCode === 0) return
  const real: string[] = []
  let listingIgnored = false
  for (const line of stderr.split("\n")) {
    // an explicitly named ignored path makes add list it and exit 1; the other paths are staged all the same
    if (line.startsWith("The following paths are ignored")) listingIgnored = true
    else if (line.startsWith("hint: ")) listingIgnored = false
    else if (listingIgnored || !line.trim()) continue
    else if (!/^(error: open\(|error: unable to index file|warning: )/.test(line) && !line.includes("failed to insert into database")) real.push(line)
  }
  if (real.length || exitCode > 1) throw new SnapshotError(`git add in the shadow repository failed (exit ${exitCode}): ${real.join("; ") || stderr.trim()}`)
}

/** Adds `delta` to the count of every directory above `path`; true when its own directory's count went from or to zero. */
function count(dirs: Map<string, number>, path: string, delta: number): boolean {
  let edge = false
  let first = true
  for (let end = path.lastIndexOf("/"); end > 0; end = path.lastIndexOf("/", end - 1)) {
    const dir = path.slice(0, end)
    const before = dirs.get(dir) ?? 0
    const after = before + delta
    if (after > 0) dirs.set(dir, after)
    else dirs.delete(dir)
    if (first && (before === 0 || after === 0)) edge = true
    first = false
  }
  return edge
}

function diffEntries(before: Map<string, Entry>, after: Map<string, Entry>, beforeManifest: Manifest | undefined, afterManifest: Manifest): StagedChange {
  const change: StagedChange = { added: [], removed: [], modified: [] }
  for (const [path, entry] of after) {
    const old = before.get(path)
    if (!old) change.added.push(path)
    else if (old.oid !== entry.oid || old.mode !== entry.mode || beforeManifest?.files[path] !== afterManifest.files[path]) change.modified.push(path)
  }
  for (const path of before.keys()) if (!after.has(path)) change.removed.push(path)
  // directories: a new or vanished empty directory, a directory's mode
  const wasEmpty = new Set(beforeManifest?.empty ?? [])
  const isEmpty = new Set(afterManifest.empty)
  for (const dir of isEmpty) if (!wasEmpty.has(dir)) change.added.push(`${dir}/`)
  for (const dir of wasEmpty) if (!isEmpty.has(dir)) change.removed.push(`${dir}/`)
  for (const dir of new Set([...Object.keys(beforeManifest?.dirs ?? {}), ...Object.keys(afterManifest.dirs)])) {
    if (beforeManifest && beforeManifest.dirs[dir] !== afterManifest.dirs[dir]) change.modified.push(`${dir}/`)
  }
  return change
}

function setTracked(t: Tracked, path: string, entry: Entry | undefined): void {
  if (entry) t.entries.set(path, entry)
  else t.entries.delete(path)
  setEntry(t.trees, path, entry)
}

/** Hash and store one file as git would with no filters (symlinks: their target); undefined when it cannot be read. */
function stageFile(r: ShadowRepo, path: string, stats: Stats): Entry | undefined {
  const absolute = join(r.workspace, path)
  try {
    const content = stats.isSymbolicLink() ? Buffer.from(readlinkSync(absolute)) : readFileSync(absolute)
    return { mode: gitMode(stats), oid: r.objects.add("blob", content) }
  } catch {
    return undefined
  }
}

/** Every directory above `path` is a real directory inside the workspace (not a symlink, not gone). */
function underRealDirs(root: string, path: string, known: Map<string, boolean>): boolean {
  for (let end = path.indexOf("/"); end > 0; end = path.indexOf("/", end + 1)) {
    const dir = path.slice(0, end)
    let real = known.get(dir)
    if (real === undefined) {
      const stats = lstatOrNull(join(root, dir))
      real = stats !== null && stats.isDirectory()
      known.set(dir, real)
    }
    if (!real) return false
  }
  return true
}

function insideNested(t: Tracked, path: string): boolean {
  for (let end = path.indexOf("/"); end > 0; end = path.indexOf("/", end + 1)) {
    if (t.entries.get(path.slice(0, end))?.mode === "160000") return true
  }
  return false
}

function gitMode(stats: Stats): string {
  if (stats.isSymbolicLink()) return "120000"
  return stats.mode & 0o111 ? "100755" : "100644"
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path)
  } catch {
    return null
  }
}
