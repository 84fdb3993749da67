// Opens the SQLite database without the ORM: WAL, busy timeout, foreign keys, migrations applied on
// open. The hot paths that must start fast (`ccode hook`) use this directly; openStore adds drizzle.
import { Database } from "bun:sqlite"
import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import { migrations } from "./migrations.gen.ts"

export interface SqliteStore {
  path: string
  sqlite: Database
  /** run fn in one IMMEDIATE transaction (the write lock is taken up front, so concurrent writers queue instead of failing) */
  tx<T>(fn: () => T): T
  close(): void
}

export class StoreError extends Error {
  readonly exitCode = 2
}

export function openSqlite(path: string): SqliteStore {
  if (path !== ":memory:") {
    try {
      mkdirSync(dirname(path), { recursive: true })
    } catch (error) {
      throw new StoreError(`cannot create the folder of database ${path}: ${(error as Error).message}`)
    }
  }
  let sqlite: Database
  try {
    sqlite = new Database(path, { create: true, strict: true })
    sqlite.run("PRAGMA busy_timeout = 15000")
    sqlite.run("PRAGMA journal_mode = WAL")
    sqlite.run("PRAGMA synchronous = NORMAL")
    sqlite.run("PRAGMA foreign_keys = ON")
  } catch (error) {
    throw new StoreError(`cannot open database ${path}: ${(error as Error).message} (check --db / CCODE_DB)`)
  }
  migrate(sqlite)
  return { path, sqlite, tx: (fn) => sqlite.transaction(fn).immediate(), close: () => sqlite.close() }
}

// user_version counts applied migrations; re-checked inside the write lock so two processes
// opening a fresh database at once do not both apply the same migration.
function migrate(sqlite: Database): void {
  const version = () => (sqlite.query("PRAGMA user_version").get() as { user_version: number }).user_version
  if (version() === migrations.length) return
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
      // a database written before the chain head existed gets one from its table now, once: from here
      // on, rows without a head are a removal that verify reports
      sqlite.run("INSERT INTO audit_head (id, last_id, hash) SELECT 1, id, hash FROM audit WHERE NOT EXISTS (SELECT 1 FROM audit_head) ORDER BY id DESC LIMIT 1")
      sqlite.run(`PRAGMA user_version = ${migrations.length}`)
    })
    .immediate()
}
