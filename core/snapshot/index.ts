// Workspace snapshots for undo (DESIGN section 1, `snapshot/`): a shadow git repository outside the
// user's .git takes the whole work tree before and after mutating calls, so changes made by `shell`
// are covered too. Restoring touches only what differs; the user's .git is never read or written.
import { chmodSync, lstatSync, mkdirSync, rmdirSync, unlinkSync } from "node:fs"
import { join } from "node:path"
import { snapshotFiles, workspaceListing, type Manifest } from "./listing.ts"
import { isEmptyPlan, planRestore, type RestorePlan } from "./plan.ts"
import { openShadow, SnapshotError, type ShadowRepo } from "./repo.ts"
import { limitPlan } from "./partial.ts"

export { SnapshotError } from "./repo.ts"
export type { RestorePlan } from "./plan.ts"

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
  /** snapshot the workspace now; returns the snapshot's ref (the same ref when nothing changed since the last one) */
  take(label: string): Promise<string>
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
  const repo = () => (shadow ??= openShadow(opts.workspace, opts.home, opts.exclude ?? []))
  let last: { tree: string; manifest: string; ref: string } | undefined
  let queue: Promise<unknown> = Promise.resolve()
  // one operation at a time on the shadow index within this process
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = queue.then(fn, fn)
    queue = next.catch(() => undefined)
    return next
  }

  return {
    workspace: opts.workspace,
    take: (label) =>
      serial(async () => {
        const r = await repo()
        await addAll(r)
        const [tree, listing] = await Promise.all([r.git(["write-tree"]), workspaceListing(r)])
        const manifest = JSON.stringify(listing.manifest)
        const treeId = tree.stdout.trim()
        if (last && last.tree === treeId && last.manifest === manifest) return last.ref
        const message = `ccode snapshot: ${label.replace(/\n/g, " ")}\n\n${await manifestLine(r, manifest)}\n`
        const commit = (await r.git(["commit-tree", treeId, "-F", "-"], { input: message })).stdout.trim()
        // a ref per snapshot keeps it (and its manifest) safe from any pruning
        await r.git(["update-ref", `refs/ccode/snapshots/${commit}`, commit])
        last = { tree: treeId, manifest, ref: commit }
        return commit
      }),
    changedSince: (ref) =>
      serial(async () => {
        const plan = await planFor(await repo(), ref)
        return [...new Set([...plan.restored, ...plan.removed, ...plan.modified])].sort()
      }),
    changedBetween: (from, to) =>
      serial(async () => {
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
  await addAll(r)
  const [current, files, manifest] = await Promise.all([workspaceListing(r), snapshotFiles(r, ref), readManifest(r, ref)])
  return planRestore({ files, manifest }, current)
}

/** Stage the whole work tree into the shadow index; unreadable files are skipped, not fatal. */
async function addAll(r: ShadowRepo): Promise<void> {
  const added = await r.git(["add", "-A", "--ignore-errors", "--", "."], { check: false })
  if (added.exitCode === 0) return
  const real = added.stderr.split("\n").filter((l) => l.trim() && !/^(error: open\(|error: unable to index file|warning: )/.test(l) && !l.includes("failed to insert into database"))
  if (real.length) throw new SnapshotError(`git add in the shadow repository failed: ${real.join("; ")}`)
}

async function manifestLine(r: ShadowRepo, manifest: string): Promise<string> {
  if (manifest.length <= INLINE_MANIFEST_MAX) return `${MANIFEST_LINE}${manifest}`
  const blob = await r.git(["hash-object", "-w", "--stdin"], { input: manifest })
  return `${MANIFEST_BLOB_LINE}${blob.stdout.trim()}`
}

async function readManifest(r: ShadowRepo, ref: string): Promise<Manifest> {
  const commit = (await r.git(["cat-file", "commit", ref])).stdout
  const line = commit.split("\n").find((l) => l.startsWith(MANIFEST_LINE) || l.startsWith(MANIFEST_BLOB_LINE))
  if (!line) return { files: {}, dirs: {}, empty: [] }
  const text = line.startsWith(MANIFEST_LINE) ? line.slice(MANIFEST_LINE.length) : (await r.git(["cat-file", "blob", line.slice(MANIFEST_BLOB_LINE.length)])).stdout
  return JSON.parse(text) as Manifest
}

async function apply(r: ShadowRepo, ref: string, plan: RestorePlan): Promise<void> {
  const at = (path: string) => join(r.workspace, path)
  for (const path of plan.removed) {
    const stat = lstatOrNull(at(path))
    if (stat && !stat.isDirectory()) unlinkSync(at(path))
  }
  for (const dir of plan.removeDirs) {
    try {
      rmdirSync(at(dir))
    } catch {
      // still holds ignored or unreadable files: those are outside undo's reach, so the directory stays
    }
  }
  // created writable first: a read-only directory gets its mode after its files are back
  for (const dir of plan.createDirs) mkdirSync(at(dir.path), { recursive: true })
  if (plan.checkout.length) {
    await r.git(["checkout", ref, "--pathspec-from-file=-", "--pathspec-file-nul"], { input: plan.checkout.join("\0") })
  }
  for (const { path, mode } of [...plan.chmod, ...plan.createDirs].sort((a, b) => b.path.length - a.path.length)) chmodSync(at(path), mode)
}

function lstatOrNull(path: string) {
  try {
    return lstatSync(path)
  } catch {
    return null
  }
}
