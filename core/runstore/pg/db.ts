// The drizzle handle over Bun's built-in PostgreSQL client (no driver package in the binary).
import { SQL } from "bun"
import { drizzle, type BunSQLDatabase } from "drizzle-orm/bun-sql"
import * as schema from "./schema.ts"

export type PgDb = BunSQLDatabase<typeof schema>
export type PgTx = Parameters<Parameters<PgDb["transaction"]>[0]>[0]

export function pgClient(url: string): SQL {
  // a handful of connections: one process runs one run (or a small batch) at a time
  return new SQL(url, { max: 4, idleTimeout: 30, connectionTimeout: 10 })
}

export function pgDb(client: SQL): PgDb {
  return drizzle({ client, schema })
}
