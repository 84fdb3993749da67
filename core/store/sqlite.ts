// Opens the SQLite database without the ORM: WAL, busy timeout, foreign keys, migrations applied on
// open. The hot paths that must start fast (`ccode hook`) use this directly; openStore adds drizzle.
import { Database } from "bun:sqlite"
import { existsSync, mkdirSync } from "node:fs"
import { dirname } from "node:path"
import { checkIntegrity, isCorruption, knownDamage } from "./integrity.ts"
import { migrations } from "./migrations.gen.ts"
import { StoreError, storeProblem } from "./problem.ts"

export { StoreError, storeProblem } from "./problem.ts"

export interface SqliteStore {
  path: string
  sqlite: Database
  /** run fn in one IMMEDIATE transaction (the write lock is taken up front, so concurrent writers queue instead of failing) */
  tx<T>(fn: () => T): T
  close(): void
}

export interface OpenOptions {
  /** inspection commands: never write (they work on a read-only CCODE_HOME) */
  readonly?: boolean
}

export function openSqlite(path: string, opts: OpenOptions = {}): SqliteStore {
  if (opts.readonly && path !== ":memory:" && existsSync(path)) {
    const store = openReadonly(path)
    if (store) return store
  }
  if (path !== ":memory:") {
    const damage = knownDamage(path)
    if (damage) {
      throw new StoreError(`${path} failed an integrity check (${damage}); ccode will not run on it. Move it aside (or point --db / CCODE_DB elsewhere) to start a fresh one; \`sqlite3 ${path} .recover\` may save its rows`)
    }
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
    if (isCorruption(error)) checkIntegrity(path)
    throw storeProblem(error, path) ?? new StoreError(`cannot open database ${path}: ${(error as Error).message} (check --db / CCODE_DB)`)
  }
  try {
    migrate(sqlite)
  } catch (error) {
    if (isCorruption(error)) checkIntegrity(path)
    throw storeProblem(error, path) ?? error
  }
  const tx = <T>(fn: () => T): T => {
    try {
      return sqlite.transaction(fn).immediate()
    } catch (error) {
      // every write goes through here: SQLite saying "corrupt" is when the check is worth its cost
      if (isCorruption(error) && path !== ":memory:") checkIntegrity(path)
      throw error
    }
  }
  return { path, sqlite, tx, close: () => sqlite.close() }
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

/** A read-only connection to an up-to-date database; undefined when it needs migrating first (a writer does that). */
function openReadonly(path: string): SqliteStore | undefined {
  let sqlite: Database
  try {
    sqlite = new Database(path, { readonly: true, strict: true })
    sqlite.run("PRAGMA busy_timeout = 15000")
    const { user_version } = sqlite.query("PRAGMA user_version").get() as { user_version: number }
    if (user_version !== migrations.length) {
      sqlite.close()
      return undefined
    }
  } catch (error) {
    throw storeProblem(error, path) ?? new StoreError(`cannot open database ${path} for reading: ${(error as Error).message} (check --db / CCODE_DB)`)
  }
  const refuse = () => {
    throw new StoreError(`database ${path} was opened read-only for inspection`)
  }
  return { path, sqlite, tx: refuse, close: () => sqlite.close() }
}
