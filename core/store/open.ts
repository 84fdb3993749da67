// The store most of ccode uses: the SQLite connection (sqlite.ts) plus drizzle-orm over the schema.
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite"
import * as schema from "./schema.ts"
import { openSqlite, type OpenOptions, type SqliteStore } from "./sqlite.ts"

export { StoreError, storeProblem, type SqliteStore, type OpenOptions } from "./sqlite.ts"

export type Db = BunSQLiteDatabase<typeof schema>

export interface Store extends SqliteStore {
  db: Db
}

export function openStore(path: string, opts: OpenOptions = {}): Store {
  const base = openSqlite(path, opts)
  return { ...base, db: drizzle(base.sqlite, { schema }) }
}
