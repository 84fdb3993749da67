// Trusted policy/plugin/task files: the content hash a person approved with `ccode trust`, keyed by
// the workspace root it was approved for and the file's path, so a file trusted for one workspace
// lends nothing to a task in another. Plain SQL, so the policy loader can check trust without the ORM.
import { realpathOr } from "../base/paths.ts"
import type { SqliteStore } from "./sqlite.ts"

export interface TrustedFile {
  /** the workspace root the file is trusted for ("" for rows recorded before trust had workspaces) */
  workspace: string
  path: string
  hash: string
  trustedAt: number
}

/** The trust check of one workspace: (file, content hash) -> trusted? Paths are compared after realpath. */
export function trustIn(store: SqliteStore, workspace: string): (file: string, hash: string, other?: string) => boolean {
  const root = realpathOr(workspace)
  return (file, hash, other) => isTrustedFile(store, other === undefined ? root : realpathOr(other), realpathOr(file), hash)
}

export function isTrustedFile(store: SqliteStore, workspace: string, path: string, hash: string): boolean {
  const row = store.sqlite.query("SELECT hash FROM trust WHERE path = ?").get(trustKey(workspace, path)) as { hash: string } | null
  return row?.hash === hash
}

export function recordTrust(store: SqliteStore, workspace: string, path: string, hash: string): void {
  store.sqlite
    .query("INSERT INTO trust (path, hash, trusted_at) VALUES (?, ?, ?) ON CONFLICT(path) DO UPDATE SET hash = excluded.hash, trusted_at = excluded.trusted_at")
    .run(trustKey(workspace, path), hash, Date.now())
}

export function revokeTrust(store: SqliteStore, workspace: string, path: string): boolean {
  return store.sqlite.query("DELETE FROM trust WHERE path = ?").run(trustKey(workspace, path)).changes > 0
}

export function trustedFiles(store: SqliteStore): TrustedFile[] {
  const rows = store.sqlite.query("SELECT path, hash, trusted_at FROM trust ORDER BY path").all() as { path: string; hash: string; trusted_at: number }[]
  return rows.map((r) => {
    const cut = r.path.indexOf("\0")
    return { workspace: cut < 0 ? "" : r.path.slice(0, cut), path: cut < 0 ? r.path : r.path.slice(cut + 1), hash: r.hash, trustedAt: r.trusted_at }
  })
}

// One column holds both parts (no schema change): a NUL can be in neither path. Rows from before
// have no workspace part, so they match nothing: such files must be trusted again (fail closed).
function trustKey(workspace: string, path: string): string {
  return `${workspace}\0${path}`
}

