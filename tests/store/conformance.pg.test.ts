// The store conformance suite on PostgreSQL: one throwaway server for the file, a fresh database per
// test. Without the server binaries: left out with a warning, or a failure under CI.
import { afterAll, beforeAll, describe, test } from "bun:test"
import { SQL } from "bun"
import { conformance } from "./conformance.ts"
import { findPgBin, pgMissing, startPg, type PgServer } from "./postgres.ts"

if (!findPgBin()) {
  pgMissing("store conformance (postgres)")
} else {
  let pg: PgServer
  beforeAll(async () => {
    pg = await startPg()
  }, 120_000)
  afterAll(() => pg?.stop(), 60_000)
  conformance("postgres", () => ({
    fresh: () => pg.createDatabase(),
    exec: async (target, sql) => {
      const client = new SQL(target, { max: 1 })
      try {
        await client.unsafe(sql)
      } finally {
        await client.close()
      }
    },
  }))
}
