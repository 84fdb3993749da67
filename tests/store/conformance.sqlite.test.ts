// The store conformance suite on SQLite: a fresh database file per test.
import { afterAll } from "bun:test"
import { Database } from "bun:sqlite"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { removeTree } from "../tmp.ts"
import { conformance } from "./conformance.ts"

const dir = mkdtempSync(join(tmpdir(), "ccode-store-"))
afterAll(() => removeTree(dir))
let n = 0

conformance("sqlite", () => ({
  fresh: async () => join(dir, `db${++n}.sqlite`),
  exec: async (target, sql) => {
    const db = new Database(target)
    try {
      db.run(sql)
    } finally {
      db.close()
    }
  },
}))
