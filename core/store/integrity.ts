// A damaged database is found when SQLite reports it (quick_check on every open costs too much on
// a large db): then `PRAGMA quick_check` runs once, and a failed check is remembered beside the file
// (for that very file: its inode) so no run starts on it until it is replaced.
import { Database } from "bun:sqlite"
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs"

interface Damage {
  ino: number
  found: string
  at: string
}

const markerOf = (path: string) => `${path}.damaged`

export function isCorruption(error: unknown): boolean {
  return String((error as { code?: unknown })?.code ?? "").startsWith("SQLITE_CORRUPT")
}

/** Run quick_check on the file; when it fails, remember it and return what it found. */
export function checkIntegrity(path: string): string | undefined {
  let found: string
  try {
    const db = new Database(path, { readonly: true })
    try {
      const rows = db.query("PRAGMA quick_check(20)").all() as { quick_check: string }[]
      found = rows.map((r) => r.quick_check).join("; ")
    } finally {
      db.close()
    }
  } catch (error) {
    found = (error as Error).message
  }
  if (found === "ok") return undefined
  try {
    writeFileSync(markerOf(path), JSON.stringify({ ino: statSync(path).ino, found, at: new Date().toISOString() } satisfies Damage))
  } catch {
    // a read-only folder: the next failure finds it again
  }
  return found
}

/** What an earlier failed check found in this file (not in one that replaced it since), if any. */
export function knownDamage(path: string): string | undefined {
  const marker = markerOf(path)
  if (!existsSync(marker)) return undefined
  try {
    const damage = JSON.parse(readFileSync(marker, "utf8")) as Damage
    return existsSync(path) && statSync(path).ino === damage.ino ? `${damage.found} (checked ${damage.at})` : undefined
  } catch {
    return undefined
  }
}
