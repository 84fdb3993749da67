// Git tree objects for a snapshot, computed from the in-memory listing: every directory once, then
// only the directories above a changed path. Written into ccode's own shadow repository only.
import type { Entry } from "./listing.ts"
import { writeObject } from "./objects.ts"

/** Directory -> its children by name (files with their mode and blob, subdirectories with their tree). */
export interface Trees {
  children: Map<string, Map<string, Entry>>
  /** directories whose tree must be computed again, because something below them changed */
  dirty: Set<string>
}

/** Every directory's children from a listing; all of them dirty. */
export function treesFrom(entries: Map<string, Entry>): Trees {
  const trees: Trees = { children: new Map([["", new Map()]]), dirty: new Set([""]) }
  for (const [path, entry] of entries) setEntry(trees, path, entry)
  return trees
}

/** A file's new entry (undefined: removed); the directories above it become dirty. */
export function setEntry(trees: Trees, path: string, entry: Entry | undefined): void {
  const slash = path.lastIndexOf("/")
  const dir = slash < 0 ? "" : path.slice(0, slash)
  let children = trees.children.get(dir)
  if (!children) {
    if (!entry) return
    children = new Map()
    trees.children.set(dir, children)
  }
  const name = path.slice(slash + 1)
  if (entry) children.set(name, entry)
  else children.delete(name)
  for (let d = dir; ; d = d.slice(0, Math.max(0, d.lastIndexOf("/")))) {
    trees.dirty.add(d)
    if (!d) break
  }
}

/** Write the trees of the dirty directories (deepest first) and return the root tree's id; with `write` false, only work out their ids. */
export function writeTrees(gitDir: string, trees: Trees, write = true): string {
  const order = [...trees.dirty].sort((a, b) => depth(b) - depth(a))
  for (const dir of order) {
    const children = trees.children.get(dir)
    const parent = dir.lastIndexOf("/") < 0 ? "" : dir.slice(0, dir.lastIndexOf("/"))
    const name = dir.slice(dir.lastIndexOf("/") + 1)
    if (dir && (!children || !children.size)) {
      // git keeps no empty directories in trees (the manifest does)
      trees.children.delete(dir)
      trees.children.get(parent)?.delete(name)
      continue
    }
    const id = writeObject(gitDir, "tree", serialise(children ?? new Map()), write)
    if (dir) {
      let siblings = trees.children.get(parent)
      if (!siblings) trees.children.set(parent, (siblings = new Map()))
      siblings.set(name, { mode: "40000", oid: id })
    } else trees.dirty.clear()
    if (!dir) return id
  }
  trees.dirty.clear()
  return writeObject(gitDir, "tree", serialise(trees.children.get("") ?? new Map()), write)
}

/** A tree object's content: entries in git's order (a directory sorts as if its name ended in "/"). */
function serialise(children: Map<string, Entry>): Uint8Array {
  const sorted = [...children].map(([name, entry]) => ({ name, entry, key: Buffer.from(entry.mode === "40000" ? `${name}/` : name) }))
  sorted.sort((a, b) => Buffer.compare(a.key, b.key))
  const parts: Buffer[] = []
  for (const { name, entry } of sorted) parts.push(Buffer.from(`${entry.mode} ${name}\0`), Buffer.from(entry.oid, "hex"))
  return Buffer.concat(parts)
}

function depth(dir: string): number {
  return dir ? dir.split("/").length : 0
}
