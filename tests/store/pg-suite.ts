// A describe block with a throwaway PostgreSQL server for its tests (started before them, stopped
// and removed after); without the server binaries, left out with a warning (a failure under CI).
import { afterAll, beforeAll, describe } from "bun:test"
import { findPgBin, pgMissing, startPg, type PgServer } from "./postgres.ts"

export function describeWithPg(what: string, body: (server: () => PgServer) => void): void {
  if (!findPgBin()) return pgMissing(what)
  describe(what, () => {
    let pg: PgServer | undefined
    beforeAll(async () => {
      pg = await startPg()
    }, 120_000)
    afterAll(() => pg?.stop(), 60_000)
    body(() => pg!)
  })
}
