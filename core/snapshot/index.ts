// Workspace snapshots for undo: a shadow git repository outside the
// user's .git takes the whole work tree before and after mutating calls, so changes made by `shell`
// are covered too. Restoring touches only what differs; the user's .git is never read or written.
import { chmodIn, openBeneath, OutsideRoot, rmdirIn, unlinkIn, withParent, type OpenDir } from "../base/beneath.ts"
import { join } from "node:path"
import { snapshotFiles, workspaceListing, type Manifest } from "./listing.ts"
import { writeCommit, writeSnapshotRef } from "./objects.ts"
import { isEmptyPlan, planRestore, type RestorePlan } from "./plan.ts"
import { openShadow, SnapshotError, type ShadowRepo } from "./repo.ts"
import { limitPlan } from "./partial.ts"
import { addAll, stageAll, stagePaths, type StagedChange, type Tracked } from "./stage.ts"
import { packSegment } from "./pack.ts"
import { fetchMissing } from "./seed.ts"
import { writeNewTrees } from "./tree-objects.ts"

export { SnapshotError } from "./repo.ts"
export type { RestorePlan } from "./plan.ts"
export type { StagedChange } from "./stage.ts"

export interface SnapshotterOptions {
  /** the workspace root: the work tree of the shadow repository */
  workspace: string
  /** CCODE_HOME: shadow repositories live under $CCODE_HOME/snapshots */
  home: string
  /** absolute paths kept out of snapshots (the database, when it sits inside the workspace) */
  exclude?: string[]
}

export interface RestoreResult {
  /** files (and empty directories, with a trailing /) that were gone and are back */
  restored: string[]
  /** files and directories created since the snapshot, removed */
  removed: string[]
  /** files whose content, type or mode was put back */
  modified: string[]
}

export interface Snapshotter {
  readonly workspace: string
  /** snapshot the workspace now; returns the snapshot's ref (the same ref when nothing changed since the last one).
   *  Once `stage` has been called, the shadow index is taken as it is: the caller keeps it current. */
  take(label: string): Promise<string>
  /** keep these absolute paths out of every snapshot (e.g. files over the size limit); only before the first snapshot */
  leaveOut(paths: readonly string[]): void
  /** pack the shadow repository's loose objects (end of a run segment); how many were packed */
  pack(): Promise<number>
  /** bring the shadow index up to date (with only `paths` when given: the ones a watcher saw touched) and say what changed */
  stage(paths?: readonly string[]): Promise<StagedChange>
  /** paths that differ between the snapshot and the workspace now */
  changedSince(ref: string): Promise<string[]>
  /** paths that differ between two snapshots (content, type or mode; directories with a trailing /) */
  changedBetween(from: string, to: string): Promise<string[]>
  /** put the workspace back as it was at `ref` (only the paths in `only`, when given); with dryRun only say what would change */
  restore(ref: string, opts?: { dryRun?: boolean; only?: ReadonlySet<string> }): Promise<RestoreResult>
}

const MANIFEST_LINE = "ccode-manifest: "
const MANIFEST_BLOB_LINE = "ccode-manifest-blob: "
const INLINE_MANIFEST_MAX = 64 * 1024

export function createSnapshotter(opts: SnapshotterOptions): Snapshotter {
  let shadow: Promise<ShadowRepo> | undefined
  const excluded = [...(opts.exclude ?? [])]
  const repo = () => (shadow ??= openShadow(opts.workspace, opts.home, excluded))
  let last: { tree: string; manifest: string; ref: string } | undefined
  // the tracked manifest as last encoded: with thousands of files of unusual modes (umask 002) it is
  // megabytes, not to be encoded and stored again on every step that did not change it
  let encoded: { of: Manifest; edits: number; json: string; line: string } | undefined
  // the shadow index as staged, once a caller keeps it current through stage()
  let tracked: Tracked | undefined
  let queue: Promise<unknown> = Promise.resolve()
  // one operation at a time on the shadow index within this process
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = queue.then(fn, fn)
    queue = next.catch(() => undefined)
    return next
  }
  const stageAllNow = async (r: ShadowRepo) => {
    const staged = await stageAll(r, tracked)
    tracked = staged.tracked
    return staged.change
  }

  return {
    workspace: opts.workspace,
    take: (label) =>
      serial(async () => {
        const r = await repo()
        let manifestObject: Manifest
        let treeId: string
        if (tracked) {
          manifestObject = tracked.manifest
          // the trees from the in-memory listing: all of them the first time, then only those above a change
          treeId = await writeNewTrees(r, tracked.trees)
        } else {
          manifestObject = (await workspaceListing(r, addAll(r))).manifest
          treeId = (await r.git(["write-tree", "--missing-ok"])).stdout.trim()
        }
        const edits = tracked?.manifestEdits ?? -1
        const reuse = encoded && encoded.of === manifestObject && encoded.edits === edits
        const manifest = reuse ? encoded!.json : JSON.stringify(manifestObject)
        if (last && last.tree === treeId && last.manifest === manifest) return last.ref
        const line = reuse ? encoded!.line : manifestLine(r, manifest)
        const message = `ccode snapshot: ${label.replace(/\n/g, " ")}\n\n${line}\n`
        const commit = writeCommit(r.objects, treeId, message)
        // the objects first, then the ref that keeps them: a ref never names a commit that is not there
        r.objects.flush()
        writeSnapshotRef(r.gitDir, commit)
        if (tracked) encoded = { of: manifestObject, edits, json: manifest, line }
        last = { tree: treeId, manifest, ref: commit }
        return commit
      }),
    stage: (paths) =>
      serial(async () => {
        const r = await repo()
        if (!tracked || !paths) return stageAllNow(r)
        const change = await stagePaths(r, tracked, paths)
        return change === "structural" ? stageAllNow(r) : change
      }),
    leaveOut: (paths) => {
      if (!shadow) excluded.push(...paths)
    },
    pack: () => serial(async () => packSegment(await repo())),
    changedSince: (ref) =>
      serial(async () => {
        tracked = undefined // planFor stages the whole tree
        const plan = await planFor(await repo(), ref)
        return [...new Set([...plan.restored, ...plan.removed, ...plan.modified])].sort()
      }),
    changedBetween: (from, to) =>
      serial(async () => {
        tracked = undefined
        const r = await repo()
        const side = async (ref: string) => {
          const [files, manifest] = await Promise.all([snapshotFiles(r, ref), readManifest(r, ref)])
          return { files, manifest }
        }
        const plan = planRestore(await side(from), await side(to))
        const dirs = [...plan.removeDirs, ...plan.createDirs.map((d) => d.path)].map((d) => `${d}/`)
        return [...new Set([...plan.restored, ...plan.removed, ...plan.modified, ...dirs])].sort()
      }),
    restore: (ref, { dryRun = false, only } = {}) =>
      serial(async () => {
        const r = await repo()
        const plan = limitPlan(await planFor(r, ref), only)
        const result: RestoreResult = {
          restored: [...plan.restored, ...plan.createDirs.map((d) => `${d.path}/`)].sort(),
          removed: [...plan.removed, ...plan.removeDirs.map((d) => `${d}/`)].sort(),
          modified: plan.modified,
        }
        if (dryRun || isEmptyPlan(plan)) return result
        await apply(r, ref, plan)
        const left = limitPlan(await planFor(r, ref), only)
        const stuck = [...left.restored, ...left.removed, ...left.modified]
        if (stuck.length) throw new SnapshotError(`restore left ${stuck.length} path(s) different from the snapshot: ${stuck.slice(0, 10).join(", ")}`)
        return result
      }),
  }
}

async function planFor(r: ShadowRepo, ref: string): Promise<RestorePlan> {
  const exists = await r.git(["cat-file", "-e", `${ref}^{commit}`], { check: false })
  if (exists.exitCode !== 0) throw new SnapshotError(`snapshot ${ref} is not in ${r.gitDir}`)
  const [current, files, manifest] = await Promise.all([workspaceListing(r, addAll(r)), snapshotFiles(r, ref), readManifest(r, ref)])
  return planRestore({ files, manifest }, current)
}

function manifestLine(r: ShadowRepo, manifest: string): string {
  if (manifest.length <= INLINE_MANIFEST_MAX) return `${MANIFEST_LINE}${manifest}`
  return `${MANIFEST_BLOB_LINE}${r.objects.add("blob", manifest)}`
}

async function readManifest(r: ShadowRepo, ref: string): Promise<Manifest> {
  const commit = (await r.git(["cat-file", "commit", ref])).stdout
  const line = commit.split("\n").find((l) => l.startsWith(MANIFEST_LINE) || l.startsWith(MANIFEST_BLOB_LINE))
  if (!line) return { files: {}, dirs: {}, empty: [] }
  const text = line.startsWith(MANIFEST_LINE) ? line.slice(MANIFEST_LINE.length) : (await r.git(["cat-file", "blob", line.slice(MANIFEST_BLOB_LINE.length)])).stdout
  return JSON.parse(text) as Manifest
}

// every folder on the way is opened below the workspace without following links (base/beneath.ts): a
// folder a later run swapped for a symlink is never created, emptied or chmod'ed through
async function apply(r: ShadowRepo, ref: string, plan: RestorePlan): Promise<void> {
  const inside = <T>(path: string, create: boolean, use: (dir: OpenDir, name: string) => T) => guarded(path, () => withParent(r.workspace, path, create, use))
  const guarded = <T>(path: string, act: () => T) => {
    try {
      return act()
    } catch (error) {
      if (error instanceof OutsideRoot) throw new SnapshotError(`${path}: ${error.message}; undo stopped before going through it (put the folder back, or remove the link, and undo again)`)
      throw error
    }
  }
  for (const path of plan.removed) inside(path, false, unlinkIn)
  for (const dir of plan.removeDirs) {
    // still holds ignored or unreadable files: those are outside undo's reach, so the directory stays
    inside(dir, false, rmdirIn)
  }
  // created writable first: a read-only directory gets its mode after its files are back
  for (const dir of plan.createDirs) guarded(dir.path, () => openBeneath(r.workspace, dir.path, true)?.close())
  if (plan.checkout.length) {
    // a seeded shadow repository holds the blobs of files that were as in the user's index only by name
    const wanted = await snapshotFiles(r, ref)
    await fetchMissing(r, plan.checkout.map((path) => wanted.get(path)?.oid).filter((oid): oid is string => Boolean(oid)))
    await r.git(["checkout", ref, "--pathspec-from-file=-", "--pathspec-file-nul"], { input: plan.checkout.join("\0") })
  }
  for (const { path, mode } of [...plan.chmod, ...plan.createDirs].sort((a, b) => b.path.length - a.path.length)) inside(path, false, (dir, name) => chmodIn(dir, name, mode))
}

