// Packs the shadow repository's loose objects: a snapshot writes a few small files (blob, trees,
// commit) that take a disk block each; packed, they are deltas of each other. Only ccode's own
// repository; no reachability walk (a seeded repository refers to blobs it does not hold).
import { readdirSync } from "node:fs"
import { join } from "node:path"
import type { ShadowRepo } from "./repo.ts"

/** Pack the loose objects once there are at least `minimum`; returns how many were packed. */
export async function packLoose(r: ShadowRepo, minimum = 16): Promise<number> {
  const ids = looseObjects(r.gitDir)
  if (ids.length < minimum) return 0
  await r.git(["pack-objects", "-q", join(r.gitDir, "objects", "pack", "pack")], { input: `${ids.join("\n")}\n` })
  await r.git(["prune-packed", "-q"])
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
