// Forgetting the snapshots of removed runs: their refs are deleted from the shadow repositories and
// the objects nothing refers to any more are dropped. Refs stay loose (no pack-refs), so undo of the
// runs that remain still finds its workspace by its ref file.
import { existsSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { processesWithEnv } from "../tools/process/table.ts"
import { openShadow } from "./repo.ts"

/** Loose unreachable objects younger than this are kept: a snapshot being written right now has some. */
const GRACE_MS = 10 * 60_000

export interface SnapshotPrune {
  refs: number
  repos: number
}

/**
 * Delete `refs` (commit ids) from every shadow repository under `home` that holds them (minus those
 * still used by remaining runs: `inUse`), then drop what became unreachable. `ageMs`: how old a removed
 * run had to be; loose objects younger than min(age, 10 min) survive.
 */
export async function pruneSnapshots(home: string, refs: string[], inUse: (ref: string) => boolean, ageMs: number): Promise<SnapshotPrune> {
  const root = join(home, "snapshots")
  const gone = refs.filter((ref) => !inUse(ref))
  if (!gone.length || !existsSync(root)) return { refs: 0, repos: 0 }
  let removed = 0
  let repos = 0
  for (const name of readdirSync(root)) {
    const gitDir = join(root, name)
    const held = gone.filter((ref) => existsSync(join(gitDir, "refs", "ccode", "snapshots", ref)))
    if (!held.length || !existsSync(join(gitDir, "workspace"))) continue
    const workspace = (await Bun.file(join(gitDir, "workspace")).text()).trim()
    if (!existsSync(workspace)) continue
    const repo = await openShadow(workspace, home)
    for (const ref of held) {
      await repo.git(["update-ref", "-d", `refs/ccode/snapshots/${ref}`])
      removed++
    }
    // another ccode writing a snapshot here now: its new objects are not referenced yet; leave the objects for next time
    if (processesWithEnv("GIT_DIR", gitDir).length) continue
    // -A, not -a: what nothing refers to leaves its pack as loose objects with the pack's time, so the
    // prune below keeps those of a snapshot another ccode is writing right now (its pack is written
    // a moment before its ref) and drops the old ones
    await repo.git(["repack", "-A", "-d", "-q"], { check: false })
    const grace = Math.min(GRACE_MS, ageMs)
    await repo.git(["prune", `--expire=${grace === 0 ? "now" : `${Math.ceil(grace / 1000)}.seconds.ago`}`], { check: false })
    repos++
  }
  return { refs: removed, repos }
}
