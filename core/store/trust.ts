// Trusted policy/plugin files: the content hash a person approved with `ccode trust`.
// Plain SQL, so the policy loader can check trust without loading the ORM.
import type { SqliteStore } from "./sqlite.ts"

export function isTrustedFile(store: SqliteStore, path: string, hash: string): boolean {
  const row = store.sqlite.query("SELECT hash FROM trust WHERE path = ?").get(path) as { hash: string } | null
  return row?.hash === hash
}

export function recordTrust(store: SqliteStore, path: string, hash: string): void {
  store.sqlite
    .query("INSERT INTO trust (path, hash, trusted_at) VALUES (?, ?, ?) ON CONFLICT(path) DO UPDATE SET hash = excluded.hash, trusted_at = excluded.trusted_at")
    .run(path, hash, Date.now())
}

export function revokeTrust(store: SqliteStore, path: string): boolean {
  return store.sqlite.query("DELETE FROM trust WHERE path = ?").run(path).changes > 0
}

export function trustedFiles(store: SqliteStore): { path: string; hash: string; trustedAt: number }[] {
  return (store.sqlite.query("SELECT path, hash, trusted_at FROM trust ORDER BY path").all() as { path: string; hash: string; trusted_at: number }[])
    .map((r) => ({ path: r.path, hash: r.hash, trustedAt: r.trusted_at }))
}
