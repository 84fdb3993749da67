// Writes a snapshot's commit object and its ref straight into the shadow repository: two files,
// instead of two git processes on every step. Only ever writes into ccode's own shadow repository.
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { deflateSync } from "node:zlib"

/** A loose object, as git writes it: zlib("<type> <size>\0<content>") under objects/xx/yyyy. Returns its id. */
export function writeObject(gitDir: string, type: "blob" | "tree" | "commit", content: string | Uint8Array, write = true): string {
  const body = typeof content === "string" ? Buffer.from(content) : Buffer.from(content)
  const raw = Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body])
  const id = new Bun.CryptoHasher("sha1").update(raw).digest("hex")
  if (!write) return id
  const path = join(gitDir, "objects", id.slice(0, 2), id.slice(2))
  if (!existsSync(path)) atomicWrite(path, deflateSync(raw, { level: 1 }), 0o444)
  return id
}

/** A commit of `tree` (no parent: each snapshot stands alone, kept by its own ref). */
export function writeCommit(gitDir: string, tree: string, message: string, now = Date.now()): string {
  const seconds = Math.floor(now / 1000)
  const who = `ccode <ccode@localhost> ${seconds} +0000`
  return writeObject(gitDir, "commit", `tree ${tree}\nauthor ${who}\ncommitter ${who}\n\n${message}`)
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
