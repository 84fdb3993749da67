// Writes a snapshot's objects and its ref straight into the shadow repository, instead of git
// processes on every step: the objects of a step gathered and written as one pack, the ref as a file.
// Only ever writes into ccode's own shadow repository.
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { deflateSync } from "node:zlib"
import { objectId, packedObject, writePack, type ObjectType, type PackedObject } from "./packfile.ts"

/** Objects on their way into the shadow repository: gathered in memory, written as one pack by `flush`. */
export interface ObjectWriter {
  /** hash `content` and keep it for the next flush; its id */
  add(type: ObjectType, content: string | Uint8Array): string
  /** write what was added as one pack (nothing when nothing was added) */
  flush(): void
  /** the packs this process wrote, with the ids they hold (the end of a segment packs them together) */
  readonly packs: { name: string; ids: string[] }[]
}

/** Gathered objects are written once they add up to this much (deflated), so a big change does not sit in memory. */
const FLUSH_BYTES = 16 * 1024 * 1024

export function objectWriter(gitDir: string): ObjectWriter {
  let pending = new Map<string, PackedObject>()
  let bytes = 0
  const packs: { name: string; ids: string[] }[] = []
  const writer: ObjectWriter = {
    packs,
    add(type, content) {
      const object = packedObject(type, typeof content === "string" ? Buffer.from(content) : content)
      if (!pending.has(object.id)) {
        pending.set(object.id, object)
        bytes += object.deflated.length
        if (bytes >= FLUSH_BYTES) writer.flush()
      }
      return object.id
    },
    flush() {
      if (!pending.size) return
      const objects = [...pending.values()]
      // kept until written: a failed write (a full disk) is tried again by the next flush
      const name = writePack(gitDir, objects)
      pending = new Map()
      bytes = 0
      packs.push({ name, ids: objects.map((o) => o.id) })
    },
  }
  return writer
}

/** A loose object, as git writes it: zlib("<type> <size>\0<content>") under objects/xx/yyyy. Returns its id. */
export function writeObject(gitDir: string, type: ObjectType, content: Uint8Array): string {
  const id = objectId(type, content)
  const path = join(gitDir, "objects", id.slice(0, 2), id.slice(2))
  if (!existsSync(path)) atomicWrite(path, deflateSync(Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]), { level: 1 }), 0o444)
  return id
}

/** A commit of `tree` (no parent: each snapshot stands alone, kept by its own ref). */
export function writeCommit(objects: ObjectWriter, tree: string, message: string, now = Date.now()): string {
  const seconds = Math.floor(now / 1000)
  const who = `ccode <ccode@localhost> ${seconds} +0000`
  return objects.add("commit", `tree ${tree}\nauthor ${who}\ncommitter ${who}\n\n${message}`)
}

/** refs/ccode/snapshots/<id>: keeps the snapshot (and its manifest) from any pruning. */
export function writeSnapshotRef(gitDir: string, id: string): void {
  atomicWrite(join(gitDir, "refs", "ccode", "snapshots", id), `${id}\n`, 0o644)
}

/** directories known to exist: a mkdir per object would cost more than the object */
const made = new Set<string>()

function atomicWrite(path: string, data: string | Uint8Array, mode: number): void {
  const dir = dirname(path)
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true })
    made.add(dir)
  }
  const temp = `${path}.tmp-${process.pid}`
  try {
    writeFileSync(temp, data, { mode })
  } catch (error) {
    // its directory was removed meanwhile (prune-packed removes emptied object directories)
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error
    mkdirSync(dir, { recursive: true })
    writeFileSync(temp, data, { mode })
  }
  renameSync(temp, path)
}
