// The trees of a snapshot as objects of the shadow repository. Per step only the few trees above a
// change are new; the first snapshot of a segment computes every tree again, most of which an earlier
// segment already wrote: those are asked of git (one process) and not written twice.
import { objectId } from "./packfile.ts"
import type { ShadowRepo } from "./repo.ts"
import { writeTrees, type Trees } from "./trees.ts"

/** Up to this many trees to write, they are written without asking which exist (a step's usual case). */
const FEW = 16

/** Write the dirty trees of `trees` (those the repository lacks) into `r`'s object writer; the root tree's id. */
export async function writeNewTrees(r: ShadowRepo, trees: Trees): Promise<string> {
  if (trees.dirty.size <= FEW) return writeTrees(trees, r.objects.add)
  const made = new Map<string, Uint8Array>()
  const root = writeTrees(trees, (type, content) => {
    const id = objectId(type, content)
    made.set(id, Uint8Array.from(content)) // a copy: kept encodings are patched in place later
    return id
  })
  const check = await r.git(["cat-file", "--batch-check=%(objectname) %(objecttype)"], { input: `${[...made.keys()].join("\n")}\n`, check: false })
  const held = new Set(check.stdout.split("\n").filter((line) => line.endsWith(" tree")).map((line) => line.slice(0, line.indexOf(" "))))
  for (const [id, content] of made) if (!held.has(id)) r.objects.add("tree", content)
  return root
}
