// The store conformance suite on PostgreSQL: one throwaway server for the file, a fresh database per
// test. Skipped (saying why) only when the server binaries cannot be found.
import { afterAll, beforeAll, describe, test } from "bun:test"
import { SQL } from "bun"
import { conformance } from "./conformance.ts"
import { findPgBin, PG_MISSING, startPg, type PgServer } from "./postgres.ts"

if (!findPgBin()) {
  describe.skip(`store conformance (postgres): ${PG_MISSING}`, () => test("skipped", () => {}))
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
