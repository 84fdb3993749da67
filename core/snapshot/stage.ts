// Keeps the shadow index in step with the workspace one path at a time: given the paths a watcher saw
// touched, stage just those and say what changed, updating the in-memory listing (entries, modes,
// empty directories) that a whole-tree listing would have produced. Anything that could change the
// directory structure (a directory created, removed or chmod-ed, a directory's last file going) is
// left to a whole-tree pass ("structural"), which is slower but cannot get it wrong.
import { lstatSync, readFileSync, readlinkSync, type Stats } from "node:fs"
import { join } from "node:path"
import { canonicalMode, DIR_MODE, permOf, workspaceListing, type Entry, type Listing, type Manifest } from "./listing.ts"
import { SnapshotError, type ShadowRepo } from "./repo.ts"

/** The shadow index as last staged, in memory. */
export interface Tracked {
  entries: Map<string, Entry>
  /** directory -> number of index entries below it (every ancestor of every entry) */
  dirs: Map<string, number>
  manifest: Manifest
}

export interface StagedChange {
  added: string[]
  removed: string[]
  modified: string[]
}

export const NO_CHANGE: StagedChange = { added: [], removed: [], modified: [] }

/** Stage the whole work tree; what changed compared with `before` (everything is "added" without one). */
export async function stageAll(r: ShadowRepo, before?: Tracked): Promise<{ tracked: Tracked; change: StagedChange }> {
  await addAll(r)
  const listing = await workspaceListing(r)
  const tracked = trackedFrom(listing)
  return { tracked, change: diffEntries(before?.entries ?? new Map(), tracked.entries, before?.manifest, tracked.manifest) }
}

/** Stage only `paths` (workspace-relative). Updates `t` in place; "structural" when a whole-tree pass is needed. */
export async function stagePaths(r: ShadowRepo, t: Tracked, paths: readonly string[]): Promise<StagedChange | "structural"> {
  const specs: string[] = []
  const unknownDirs: string[] = []
  const knownDirs: string[] = []
  for (const path of new Set(paths)) {
    if (!path || path.includes("\n")) return "structural" // the root itself, or a name add -v cannot report unambiguously
    const stats = lstatOrNull(join(r.workspace, path))
    if (stats?.isDirectory()) {
      if (t.dirs.has(path)) knownDirs.push(path)
      else if (!t.entries.has(path)) unknownDirs.push(path)
      else return "structural" // a nested repository (gitlink) or a file that became a directory
    } else if (stats) specs.push(path)
    else if (t.entries.has(path)) specs.push(path)
    else if (t.dirs.has(path)) return "structural" // a directory with files in it is gone
    // else: created and removed again between two looks; nothing to stage
  }
  const change: StagedChange = { added: [], removed: [], modified: [] }
  if (specs.length) {
    const added = await r.git(["add", "-A", "-v", "--pathspec-from-file=-", "--pathspec-file-nul"], { input: specs.join("\0"), check: false })
    checkAdd(added.exitCode, added.stderr)
    for (const line of added.stdout.split("\n")) {
      if (!line) continue
      const match = /^(add|remove) '(.*)'$/s.exec(line)
      if (!match) return "structural"
      const path = match[2]!
      if (match[1] === "remove") {
        if (!t.entries.delete(path)) return "structural"
        change.removed.push(path)
        if (count(t.dirs, path, -1)) return "structural" // its directory has no file left: maybe an empty directory now
        continue
      }
      const stats = lstatOrNull(join(r.workspace, path))
      if (!stats || stats.isDirectory()) return "structural"
      const entry = { mode: gitMode(stats), oid: blobOid(join(r.workspace, path), stats) }
      const known = t.entries.has(path)
      t.entries.set(path, entry)
      if (known) change.modified.push(path)
      else {
        change.added.push(path)
        if (count(t.dirs, path, 1)) return "structural" // a first file in a directory: it may have been listed as empty
      }
    }
  }
  if (unknownDirs.length) {
    // a directory with no staged file in it: an empty directory in the listing, unless ignored
    const ignored = await r.git(["check-ignore", "-z", "--stdin"], { input: unknownDirs.join("\0"), check: false })
    const out = new Set(ignored.stdout.split("\0"))
    if (unknownDirs.some((dir) => !out.has(dir))) return "structural"
  }
  const manifest = t.manifest
  const listed = new Set([...change.added, ...change.modified, ...change.removed])
  const setMode = (modes: Record<string, number>, path: string, perm: number | undefined) => {
    const was = modes[path]
    if (perm === undefined) delete modes[path]
    else modes[path] = perm
    // a chmod that git's two modes cannot see is still a change of the snapshot
    if (was !== perm && !listed.has(path)) change.modified.push(path)
  }
  for (const path of new Set([...specs, ...change.added, ...change.modified])) {
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
  return { entries: listing.files, dirs, manifest: listing.manifest }
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

function gitMode(stats: Stats): string {
  if (stats.isSymbolicLink()) return "120000"
  return stats.mode & 0o111 ? "100755" : "100644"
}

/** The blob id git gives this file in the shadow repository (which stores bytes as they are: no filters, no eol). */
function blobOid(absolute: string, stats: Stats): string {
  try {
    const content = stats.isSymbolicLink() ? Buffer.from(readlinkSync(absolute)) : readFileSync(absolute)
    return new Bun.CryptoHasher("sha1").update(`blob ${content.length}\0`).update(content).digest("hex")
  } catch {
    return "" // vanished or unreadable since it was staged: compares unequal to anything
  }
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path)
  } catch {
    return null
  }
}
