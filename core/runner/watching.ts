// The workspace watch of a run segment when the system can watch files: an inotify watch names the
// paths touched since the last look, the shadow index stages just those and says which really
// changed, and the snapshot after a call commits that index. A step that touched nothing costs one
// non-blocking read; a step that changed a file costs two git processes (add, write-tree) whatever
// the size of the workspace. Without a watch, guarding.ts falls back to looking at every file.
import { realpathSync } from "node:fs"
import { resolve } from "node:path"
import { safeGit } from "../git/safe-git.ts"
import { fingerprintWorkspace, ignorer, markAt, setMark, type FileMark, type Fingerprint, type WorkspaceDiff } from "../guards/index.ts"
import { watchWorkspace, type WorkspaceWatch } from "../guards/watch.ts"
import type { StagedChange } from "../snapshot/index.ts"
import type { RunContext } from "./context.ts"

interface Session {
  watch: WorkspaceWatch
  root: string
  /** the watch reported something this segment: a whole fingerprint is taken before one is stored (what the
   *  shadow repository leaves out, e.g. files a .gitignore names in a plain folder, a walk still lists) */
  touched: boolean
}

const sessions = new WeakMap<RunContext, Session>()

/** What changed since the last look, already staged into the shadow index. */
export interface Look {
  diff: WorkspaceDiff
  /** every path that changed (files; directories end in /) */
  paths: string[]
}

/** Start watching after the segment's first fingerprint; false when this system cannot (the caller then looks at every file). */
export async function startWatching(ctx: RunContext): Promise<boolean> {
  const snapshotter = ctx.snapshots?.snapshotter
  if (!snapshotter || !ctx.fingerprint || process.env.CCODE_WATCH === "0") return false
  const root = realpathSync(ctx.workspace)
  const gitDirs = ctx.fingerprint.kind === "git" ? await gitDirsOf(root) : []
  const { watch } = watchWorkspace(root, { skip: ignorer(root, ctx.ownPaths), gitDirs })
  if (!watch) return false
  try {
    // watch first, then stage everything: a change made meanwhile is in both, which is harmless
    await snapshotter.stage()
  } catch (error) {
    watch.close()
    throw error
  }
  sessions.set(ctx, { watch, root, touched: false })
  ctx.snapshots!.sync = async () => {
    const look = await lookNow(ctx)
    if (look) noteOwn(ctx, look.paths)
  }
  return true
}

export function isWatching(ctx: RunContext): boolean {
  return sessions.has(ctx)
}

/** Drain the watch and stage what it names; undefined when nothing changed. */
export async function lookNow(ctx: RunContext): Promise<Look | undefined> {
  const session = sessions.get(ctx)
  if (!session) return undefined
  const news = session.watch.drain()
  if (!news.paths.length && !news.git && !news.lost) return undefined
  session.touched = true
  const snapshotter = ctx.snapshots!.snapshotter
  let change: StagedChange
  try {
    change = await snapshotter.stage(news.lost ? undefined : news.paths)
  } catch (error) {
    // the shadow repository cannot follow (the workspace is gone, a disk is full): back to looking at every file
    sessions.delete(ctx)
    session.watch.close()
    if (ctx.snapshots) ctx.snapshots.sync = undefined
    ctx.fingerprint = flatten(ctx.fingerprint!)
    ctx.reporter.output(ctx.runId, "", `warning: the workspace watch stopped: ${(error as Error).message}\n`)
    return undefined
  }
  const before = ctx.fingerprint!
  const head = news.git || news.lost ? await headOf(session.root, before) : before.head
  const paths = [...change.added, ...change.modified, ...change.removed].sort()
  if (!paths.length && head === before.head) return undefined
  ctx.fingerprint = patch(before, change, head)
  const diff: WorkspaceDiff = { changed: true, added: change.added.sort(), removed: change.removed.sort(), modified: change.modified.sort() }
  if (head !== before.head) diff.head = { before: before.head, after: head }
  return { diff, paths }
}

/** Changes ccode made: listed in the run's summary. */
export function noteOwn(ctx: RunContext, paths: readonly string[]): void {
  for (const file of paths) if (!ctx.state.changed.includes(file)) ctx.state.changed.push(file)
}

/** End of a segment: stop watching, and take a whole fingerprint so resume compares like with like. */
export async function stopWatching(ctx: RunContext): Promise<void> {
  const session = sessions.get(ctx)
  if (!session) return
  sessions.delete(ctx)
  session.watch.close()
  if (ctx.snapshots) ctx.snapshots.sync = undefined
  if (!session.touched) return
  // a patched fingerprint is no basis for resume's comparison: a whole one, or none
  ctx.fingerprint = await fingerprintWorkspace(ctx.workspace, { ignore: ctx.ownPaths }).catch(() => undefined)
  ctx.fingerprintAt = Date.now()
}

// Staged changes as fingerprint marks: enough for "did anything change since that fingerprint"
// (the stall guard). size and mtime -1 keep them from ever serving as a cache of file hashes.
// The marks sit on top of the previous fingerprint's (its files are the prototype), so a change step
// costs what changed even when a walk lists every file: a diff against the previous one iterates only
// the new marks, and everything else resolves to the very same objects.
function patch(before: Fingerprint, change: StagedChange, head: string | undefined): Fingerprint {
  const stamp = `staged:${Date.now()}:${Math.random().toString(36).slice(2, 8)}`
  const files = Object.create(before.files) as Record<string, FileMark>
  for (const path of change.added) setMark(files, path, { hash: stamp, size: -1, mtimeMs: -1, status: "??" })
  for (const path of change.modified) setMark(files, path, { hash: stamp, size: -1, mtimeMs: -1, status: ".M" })
  for (const path of change.removed) setMark(files, path, { hash: null, size: -1, mtimeMs: -1 })
  return { ...before, head, files, takenAt: Date.now() }
}

/** A patched fingerprint as plain data again (for a whole look to compare with). */
function flatten(fingerprint: Fingerprint): Fingerprint {
  const files: Record<string, FileMark> = {}
  for (const path in fingerprint.files) {
    const mark = markAt(fingerprint.files, path)
    if (mark) setMark(files, path, mark)
  }
  return { ...fingerprint, files }
}

/** The repository's own directories (its git dir and common dir): a commit or checkout shows there. */
async function gitDirsOf(root: string): Promise<string[]> {
  const result = await safeGit(["rev-parse", "--absolute-git-dir", "--git-common-dir"], { cwd: root, filters: [] })
  if (result.exitCode !== 0) return []
  const [gitDir, common] = result.stdout.trim().split("\n")
  if (!gitDir || !common) return []
  return [...new Set([gitDir, realpathSync(resolve(root, common))])]
}

async function headOf(root: string, before: Fingerprint): Promise<string | undefined> {
  if (before.kind !== "git") return before.head
  const result = await safeGit(["rev-parse", "-q", "--verify", "HEAD"], { cwd: root, filters: [] })
  return result.exitCode === 0 ? result.stdout.trim() : "(initial)"
}
