// PostgreSQL schema versions: the migrations drizzle-kit generated into drizzle/pg/ (embedded in the
// binary), applied in order in ONE transaction under an advisory lock, so two operators migrating at
// once apply each migration once. ccode_migrations records what was applied. Nothing here runs unless
// asked (`ccode db migrate`): a shared database is never migrated as a side effect.
import type { SQL } from "bun"
import { GENESIS } from "../../audit/chain.ts"
import type { SchemaStatus } from "../api.ts"
import { StoreError } from "../../store/sqlite.ts"
import { migrations } from "./migrations.gen.ts"

// any constant: the advisory lock only has to be the same for every ccode
const MIGRATE_LOCK = 0x6363_6f64

export async function pgSchemaStatus(client: SQL, location: string): Promise<SchemaStatus> {
  return status(await appliedCount(client), location)
}

export async function migratePg(client: SQL, location: string): Promise<{ before: SchemaStatus; after: SchemaStatus }> {
  return client.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATE_LOCK})`
    await tx.unsafe("CREATE TABLE IF NOT EXISTS ccode_migrations (idx integer PRIMARY KEY, tag text NOT NULL, applied_at bigint NOT NULL)")
    const before = status(await appliedCount(tx as unknown as SQL), location)
    if (before.state === "newer") throw newerSchema(before)
    for (const [idx, migration] of migrations.entries()) {
      if (idx < before.applied) continue
      for (const statement of migration.sql.split("--> statement-breakpoint")) if (statement.trim()) await tx.unsafe(statement)
      await tx`INSERT INTO ccode_migrations (idx, tag, applied_at) VALUES (${idx}, ${migration.tag}, ${Date.now()})`
    }
    if (before.pending.length) {
      // the chain head every append locks: created once, from the table (empty: the genesis link)
      await tx`INSERT INTO audit_head (id, last_id, hash)
               SELECT 1, coalesce(max(id), 0), coalesce((SELECT hash FROM audit ORDER BY id DESC LIMIT 1), ${GENESIS}) FROM audit
               ON CONFLICT (id) DO NOTHING`
    }
    return { before, after: status(migrations.length, location) }
  })
}

export function newerSchema(s: SchemaStatus): StoreError {
  return new StoreError(`PostgreSQL database ${s.location} was written by a newer ccode (schema ${s.applied}, this ccode knows ${s.latest}); upgrade ccode`)
}

export function behindSchema(s: SchemaStatus): StoreError {
  const where = s.applied === 0 ? "has no ccode schema yet" : `is at schema ${s.applied} of ${s.latest}`
  return new StoreError(
    `PostgreSQL database ${s.location} ${where}; run \`ccode db migrate\` with the same --db / CCODE_DB first (ccode never migrates a shared database by itself)`,
  )
}

async function appliedCount(client: SQL): Promise<number> {
  const [table] = await client`SELECT to_regclass('ccode_migrations') IS NOT NULL AS present`
  if (!table?.present) return 0
  const [row] = await client`SELECT coalesce(max(idx) + 1, 0)::int AS applied FROM ccode_migrations`
  return Number(row?.applied ?? 0)
}

function status(applied: number, location: string): SchemaStatus {
  const latest = migrations.length
  return {
    backend: "postgres", location, applied, latest,
    pending: migrations.slice(applied).map((m) => m.tag),
    state: applied > latest ? "newer" : applied < latest ? "behind" : "current",
  }
}
