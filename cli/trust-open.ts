// Trust checks against the store --db / CCODE_DB name, SQLite or PostgreSQL, for the CLI's synchronous
// loaders (policy, plugins): on SQLite each check is a query while the handle is open; on PostgreSQL
// the trusted files are read once (core/runstore/trust.ts) and the connection is closed at once.
import type { IsTrusted } from "../core/policy/index.ts"
import { isPostgresUrl } from "../core/store/target.ts"
import { dbTarget } from "./home.ts"

export interface TrustHandle {
  in(workspace: string): IsTrusted
  close(): void
}

export async function openTrust(db: string | undefined): Promise<TrustHandle> {
  const target = dbTarget(db)
  if (isPostgresUrl(target)) {
    const [{ openRunStore }, { readTrust }] = await Promise.all([import("../core/runstore/select.ts"), import("../core/runstore/trust.ts")])
    const store = await openRunStore(target)
    try {
      const trust = await readTrust(store)
      return { in: (workspace) => trust.in(workspace), close() {} }
    } finally {
      await store.close()
    }
  }
  const [{ openSqlite }, { trustIn }] = await Promise.all([import("../core/store/sqlite.ts"), import("../core/store/trust.ts")])
  const store = openSqlite(target)
  return { in: (workspace) => trustIn(store, workspace), close: () => store.close() }
}
