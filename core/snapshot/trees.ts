// Git tree objects for a snapshot, computed from the in-memory listing: every directory once, then
// only the directories above a changed path. A directory written again keeps its encoded tree, and a
// change that only gives a child a new id rewrites those 20 bytes in place instead of sorting and
// encoding the whole directory (the root of a big repository) on every step. Pure: no fs.
import type { Entry } from "./listing.ts"
import type { ObjectType } from "./packfile.ts"

/** Takes a tree object's content and returns its id (written, or only worked out). */
export type PutObject = (type: ObjectType, content: Uint8Array) => string

/** Directory -> its children by name (files with their mode and blob, subdirectories with their tree). */
export interface Trees {
  children: Map<string, Map<string, Entry>>
  /** directories whose tree must be computed again, because something below them changed */
  dirty: Set<string>
  /** directories written before: their tree is kept encoded when written again */
  written: Set<string>
  /** a directory's tree as last encoded, with where each child's id sits in it and which ids changed since */
  encoded: Map<string, Encoded>
}

interface Encoded {
  bytes: Buffer
  idAt: Map<string, number>
  changed: Set<string>
}

/** Every directory's children from a listing; all of them dirty. */
export function treesFrom(entries: Map<string, Entry>): Trees {
  const trees: Trees = { children: new Map([["", new Map()]]), dirty: new Set([""]), written: new Set(), encoded: new Map() }
  for (const [path, entry] of entries) setEntry(trees, path, entry)
  return trees
}

/** A file's new entry (undefined: removed); the directories above it become dirty. */
export function setEntry(trees: Trees, path: string, entry: Entry | undefined): void {
  const slash = path.lastIndexOf("/")
  const dir = slash < 0 ? "" : path.slice(0, slash)
  if (!trees.children.has(dir)) {
    if (!entry) return
    trees.children.set(dir, new Map())
  }
  setChild(trees, dir, path.slice(slash + 1), entry)
  for (let d = dir; ; d = d.slice(0, Math.max(0, d.lastIndexOf("/")))) {
    trees.dirty.add(d)
    if (!d) break
  }
}

/** Give the trees of the dirty directories (deepest first) to `put` and return the root tree's id. */
export function writeTrees(trees: Trees, put: PutObject): string {
  const order = [...trees.dirty].sort((a, b) => depth(b) - depth(a))
  let root = ""
  for (const dir of order) {
    const children = trees.children.get(dir)
    const parent = dir.lastIndexOf("/") < 0 ? "" : dir.slice(0, dir.lastIndexOf("/"))
    const name = dir.slice(dir.lastIndexOf("/") + 1)
    if (dir && (!children || !children.size)) {
      // git keeps no empty directories in trees (the manifest does)
      trees.children.delete(dir)
      trees.encoded.delete(dir)
      trees.written.delete(dir)
      if (trees.children.has(parent)) setChild(trees, parent, name, undefined)
      continue
    }
    const id = put("tree", encode(trees, dir, children ?? new Map()))
    if (!dir) root = id
    else {
      if (!trees.children.has(parent)) trees.children.set(parent, new Map())
      setChild(trees, parent, name, { mode: "40000", oid: id })
    }
  }
  trees.dirty.clear()
  return root || put("tree", encode(trees, "", trees.children.get("") ?? new Map()))
}

/** Set or remove one child; a kept encoding is patched when only the child's id changed, dropped otherwise. */
function setChild(trees: Trees, dir: string, name: string, entry: Entry | undefined): void {
  const children = trees.children.get(dir)!
  const before = children.get(name)
  if (entry) children.set(name, entry)
  else children.delete(name)
  const encoded = trees.encoded.get(dir)
  if (!encoded) return
  if (entry && before && before.mode === entry.mode) encoded.changed.add(name)
  else trees.encoded.delete(dir)
}

/** The tree object's content of `dir`: patched in place when kept, encoded whole otherwise. */
function encode(trees: Trees, dir: string, children: Map<string, Entry>): Buffer {
  const kept = trees.encoded.get(dir)
  if (kept) {
    for (const name of kept.changed) kept.bytes.write(children.get(name)!.oid, kept.idAt.get(name)!, 20, "hex")
    kept.changed.clear()
    return kept.bytes
  }
  const whole = serialise(children)
  // kept from the second time on: most directories are written once, and keeping all would double the listing's memory
  if (trees.written.has(dir)) trees.encoded.set(dir, { ...whole, changed: new Set() })
  else trees.written.add(dir)
  return whole.bytes
}

/** A tree object's content: entries in git's order (a directory sorts as if its name ended in "/"). */
function serialise(children: Map<string, Entry>): { bytes: Buffer; idAt: Map<string, number> } {
  const sorted = [...children].map(([name, entry]) => ({ name, entry, key: Buffer.from(entry.mode === "40000" ? `${name}/` : name) }))
  sorted.sort((a, b) => Buffer.compare(a.key, b.key))
  const parts: Buffer[] = []
  const idAt = new Map<string, number>()
  let at = 0
  for (const { name, entry } of sorted) {
    const head = Buffer.from(`${entry.mode} ${name}\0`)
    at += head.length
    idAt.set(name, at)
    at += 20
    parts.push(head, Buffer.from(entry.oid, "hex"))
  }
  return { bytes: Buffer.concat(parts), idAt }
}

function depth(dir: string): number {
  return dir ? dir.split("/").length : 0
}
