// Opens the one SQLite database: WAL, busy timeout, foreign keys, migrations applied on open.
// Owns the connection; everything else receives a Store.
import { Database } from "bun:sqlite"
import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite"
import { migrations } from "./migrations.gen.ts"
import * as schema from "./schema.ts"

export type Db = BunSQLiteDatabase<typeof schema>

export interface Store {
  path: string
  sqlite: Database
  db: Db
  /** run fn in one IMMEDIATE transaction (the write lock is taken up front, so concurrent writers queue instead of failing) */
  tx<T>(fn: () => T): T
  close(): void
}

export class StoreError extends Error {
  readonly exitCode = 2
}

export function openStore(path: string): Store {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true })
  let sqlite: Database
  try {
    sqlite = new Database(path, { create: true, strict: true })
  } catch (error) {
    throw new StoreError(`cannot open database ${path}: ${(error as Error).message}`)
  }
  sqlite.run("PRAGMA busy_timeout = 15000")
  sqlite.run("PRAGMA journal_mode = WAL")
  sqlite.run("PRAGMA synchronous = NORMAL")
  sqlite.run("PRAGMA foreign_keys = ON")
  migrate(sqlite)
  const db = drizzle(sqlite, { schema })
  return {
    path,
    sqlite,
    db,
    tx: (fn) => sqlite.transaction(fn).immediate(),
    close: () => sqlite.close(),
  }
}

// user_version counts applied migrations; re-checked inside the write lock so two processes
// opening a fresh database at once do not both apply the same migration.
function migrate(sqlite: Database): void {
  const version = () => (sqlite.query("PRAGMA user_version").get() as { user_version: number }).user_version
  if (version() >= migrations.length) return
  sqlite
    .transaction(() => {
      const current = version()
      if (current > migrations.length) {
        throw new StoreError(`database ${sqlite.filename} was written by a newer ccode (schema ${current}); upgrade ccode`)
      }
      for (const migration of migrations.slice(current)) {
        for (const statement of migration.sql.split("--> statement-breakpoint")) {
          if (statement.trim()) sqlite.run(statement)
        }
      }
      sqlite.run(`PRAGMA user_version = ${migrations.length}`)
    })
    .immediate()
}
