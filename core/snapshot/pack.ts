// Packs the shadow repository's objects at the end of a segment: the loose ones git wrote (a whole-tree
// pass) take a disk block each, and each snapshot of the segment wrote a small pack of its own; packed
// together they are deltas of each other in one file. Only ccode's own repository; no reachability
// walk (a seeded repository refers to blobs it does not hold).
import { readdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import type { ShadowRepo } from "./repo.ts"

/** Pack the loose objects (once there are at least `minimum`) with the packs this process wrote (once there are two); how many objects were packed. */
export async function packSegment(r: ShadowRepo, minimum = 16): Promise<number> {
  r.objects.flush()
  const loose = looseObjects(r.gitDir)
  const ours = r.objects.packs
  if (loose.length < minimum && ours.length < 2) return 0
  const merged = ours.splice(0)
  const ids = [...new Set([...loose, ...merged.flatMap((p) => p.ids)])]
  const made = await r.git(["pack-objects", "-q", join(r.gitDir, "objects", "pack", "pack")], { input: `${ids.join("\n")}\n` })
  const kept = `pack-${made.stdout.trim()}`
  // the new pack is in place: the small ones are no longer needed (the index first: without it git ignores a pack)
  for (const { name } of merged) {
    if (name === kept) continue
    rmSync(join(r.gitDir, "objects", "pack", `${name}.idx`), { force: true })
    rmSync(join(r.gitDir, "objects", "pack", `${name}.pack`), { force: true })
  }
  if (loose.length) await r.git(["prune-packed", "-q"])
  return ids.length
}

function looseObjects(gitDir: string): string[] {
  const ids: string[] = []
  const objects = join(gitDir, "objects")
  for (const dir of safeList(objects)) {
    if (!/^[0-9a-f]{2}$/.test(dir)) continue
    for (const name of safeList(join(objects, dir))) if (/^[0-9a-f]{38}$/.test(name)) ids.push(dir + name)
  }
  return ids
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}
