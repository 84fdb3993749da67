// Opening the store a --db / CCODE_DB value names, and the operator's schema commands on it.
// PostgreSQL: opening checks the schema and refuses when it is behind; only migrateDb migrates.
// SQLite: a private file, migrated on open as it always was.
import type { RunStore, SchemaStatus } from "./api.ts"
import { openSqliteRunStore, sqliteSchemaStatus } from "./sqlite.ts"
import { openSqlite } from "../store/sqlite.ts"
import { isPostgresUrl, redactUrl } from "../store/target.ts"

export async function openRunStore(target: string): Promise<RunStore> {
  if (!isPostgresUrl(target)) return openSqliteRunStore(target)
  const { openPgRunStore } = await import("./pg/backend.ts")
  return openPgRunStore(target)
}

export async function schemaStatusOf(target: string): Promise<SchemaStatus> {
  if (!isPostgresUrl(target)) return sqliteSchemaStatus(target)
  const [{ pgClient }, { pgSchemaStatus }, { pgProblem }] = await Promise.all([import("./pg/db.ts"), import("./pg/migrate.ts"), import("./pg/backend.ts")])
  const client = pgClient(target)
  try {
    return await pgSchemaStatus(client, redactUrl(target))
  } catch (error) {
    throw pgProblem(error, redactUrl(target))
  } finally {
    await client.close()
  }
}

export async function migrateDb(target: string): Promise<{ before: SchemaStatus; after: SchemaStatus }> {
  if (!isPostgresUrl(target)) {
    const before = sqliteSchemaStatus(target)
    openSqlite(target).close()
    return { before, after: sqliteSchemaStatus(target) }
  }
  const [{ pgClient }, { migratePg }, { pgProblem }] = await Promise.all([import("./pg/db.ts"), import("./pg/migrate.ts"), import("./pg/backend.ts")])
  const client = pgClient(target)
  try {
    return await migratePg(client, redactUrl(target))
  } catch (error) {
    throw (error as { exitCode?: number }).exitCode === 2 ? error : pgProblem(error, redactUrl(target))
  } finally {
    await client.close()
  }
}
