// Opening the database a command was pointed at (--db, CCODE_DB, or $CCODE_HOME/ccode.db).
import type { RunStore } from "../core/runstore/api.ts"
import { openRunStore } from "../core/runstore/select.ts"
import { sqliteRunStore } from "../core/runstore/sqlite.ts"
import { openStore, type Store } from "../core/store/open.ts"
import { isPostgresUrl } from "../core/store/target.ts"
import { ccodeHome, dbTarget } from "./home.ts"

export { ccodeHome }

/**
 * The run store --db / CCODE_DB names, SQLite or PostgreSQL. `local`:
 * the SQLite file itself when that is the store (what stays on the machine, such as undo snapshots).
 * `readonly`: inspection commands never write a SQLite file (PostgreSQL: they only read anyway).
 */
export async function openRunDb(flag: string | undefined, opts: { readonly?: boolean } = {}): Promise<{ store: RunStore; local?: Store }> {
  const target = dbTarget(flag)
  if (isPostgresUrl(target)) return { store: await openRunStore(target) }
  const local = openStore(target, opts)
  return { store: sqliteRunStore(local), local }
}
