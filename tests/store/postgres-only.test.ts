// What only the PostgreSQL store does: refuse a database that is behind instead of migrating it, keep
// NUL characters (which PostgreSQL text cannot hold) from failing a commit; and the test server's own
// promises (found off PATH, nothing left after stop).
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { SQL } from "bun"
import { readdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { migrateDb, openRunStore } from "../../core/runstore/select.ts"
import { findPgBin, pgMissing, startPg, type PgServer } from "./postgres.ts"

if (!findPgBin()) {
  pgMissing("PostgreSQL store")
} else {
  describe("PostgreSQL store", () => {
    let pg: PgServer
    beforeAll(async () => {
      pg = await startPg()
    }, 120_000)
    afterAll(() => pg?.stop(), 60_000)

    test("a database without the schema is refused, naming `ccode db migrate`; nothing is created", async () => {
      const url = await pg.createDatabase()
      await expect(openRunStore(url)).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining("run `ccode db migrate`") })
      const { before } = await migrateDb(url)
      expect(before.applied).toBe(0)
    }, 60_000)

    test("migrating a database whose table names are taken stops with exit 2 and changes nothing", async () => {
      const url = await pg.createDatabase()
      const client = new SQL(url, { max: 1 })
      await client`CREATE TABLE audit (note text)`
      await expect(migrateDb(url)).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining("already exists") })
      const [tables] = await client`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`
      expect(tables.n).toBe(1)
      await client.close()
    }, 60_000)

    test("verify pages through a log larger than one page: intact, then a change past the first page is found", async () => {
      const url = await pg.createDatabase()
      await migrateDb(url)
      const store = await openRunStore(url)
      for (let batch = 0; batch < 12; batch++) {
        await store.appendAudit(Array.from({ length: 1000 }, (_, i) => ({ type: "tool_call" as const, actor: "agent" as const, action: `b${batch} ${i}` })))
      }
      expect(await store.verifyAudit()).toMatchObject({ ok: true, rows: 12_000, head: { lastId: 12_000 } })
      const client = new SQL(url, { max: 1 })
      await client`UPDATE audit SET action = 'rewritten' WHERE id = 7001`
      await client.close()
      expect(await store.verifyAudit()).toMatchObject({ ok: false, problem: { kind: "changed", id: 7001 } })
      await store.close()
    }, 120_000)

    test("NUL characters are stored as U+FFFD, before the audit hash is taken", async () => {
      const url = await pg.createDatabase()
      await migrateDb(url)
      const store = await openRunStore(url)
      const now = Date.now()
      await store.createRun({ id: "r", task: "t", taskFile: "f", workdir: "/", status: "running", driver: "steps", createdAt: now, updatedAt: now })
      await store.commit({
        runId: "r",
        calls: [{ id: "c", runId: "r", seq: 1, tool: "shell", args: "{}", argsHash: "h", status: "ok", startedAt: now, output: "a\0b" }],
        audit: [{ type: "tool_call", actor: "agent", reason: "bin\0ary" }],
        events: [{ ts: now, type: "x", data: JSON.stringify({ text: "n\0l" }) }],
      })
      expect((await store.getCall("c"))!.output).toBe("a\uFFFDb")
      expect((await store.queryAudit({}))[0]!.reason).toBe("bin\uFFFDary")
      expect(await store.runEvents("r")).toEqual([{ text: "n\0l" }]) // JSON escapes it: kept exactly
      expect(await store.verifyAudit()).toMatchObject({ ok: true, rows: 1 })
      await store.close()
    }, 60_000)
  })

  test("the server binaries are found in /usr/lib/postgresql/*/bin when they are not on PATH", () => {
    const path = process.env.PATH
    process.env.PATH = "/nonexistent"
    try {
      const found = findPgBin()
      if (readdirSync("/usr/lib").includes("postgresql")) expect(found?.initdb).toMatch(/^\/usr\/lib\/postgresql\/\d+\/bin\/initdb$/)
      else expect(found).toBeUndefined()
    } finally {
      process.env.PATH = path
    }
  })

  test("a stopped test server leaves no process and no folder", async () => {
    const before = readdirSync(tmpdir()).filter((n) => n.startsWith("ccode-pg-"))
    const server = await startPg()
    const url = await server.createDatabase()
    const port = Number(new URL(url).port)
    expect(readdirSync(tmpdir()).filter((n) => n.startsWith("ccode-pg-")).length).toBe(before.length + 1)
    await server.stop()
    expect(readdirSync(tmpdir()).filter((n) => n.startsWith("ccode-pg-"))).toEqual(before)
    const probe = Bun.listen({ hostname: "127.0.0.1", port, socket: { data() {} } }) // the port is free again
    probe.stop(true)
    const postmasters = (await Bun.$`ps -eo args`.text()).split("\n").filter((l) => l.includes(`-p ${port}`))
    expect(postmasters).toEqual([])
  }, 120_000)
}
