// Removing a test process's temp root, even where a test made folders read-only (chmod 0o500 to
// provoke EACCES): rmSync alone stops at the first folder it may not empty.
import { chmodSync, lstatSync, readdirSync, rmSync } from "node:fs"
import { join } from "node:path"

export function removeTree(root: string): void {
  try {
    rmSync(root, { recursive: true, force: true })
    return
  } catch {
    // some folder was read-only: give every folder back its write bit, then remove again
  }
  allowWrites(root)
  rmSync(root, { recursive: true, force: true })
}

function allowWrites(dir: string): void {
  try {
    if (!lstatSync(dir).isDirectory()) return
    chmodSync(dir, 0o700)
    for (const name of readdirSync(dir)) allowWrites(join(dir, name))
  } catch {
    // vanished meanwhile, or not ours: rmSync reports what is really left
  }
}
