// `ccode db status|migrate` on a throwaway PostgreSQL and on SQLite files, through the compiled binary;
// and every command reading a postgres:// --db / CCODE_DB (undo included) without leaking its password.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { ccode, sandbox } from "./harness.ts"
import { findPgBin, pgMissing, startPg, type PgServer } from "../store/postgres.ts"

describe("ccode db on SQLite", () => {
  test("status reads a missing file without creating it; migrate creates and migrates it", async () => {
    const sb = sandbox()
    const db = join(sb.root, "fresh.db")
    const before = await ccode(sb, ["db", "status", "--db", db, "--json"])
    expect(before.code).toBe(0)
    expect(JSON.parse(before.stdout)).toMatchObject({ backend: "sqlite", location: db, applied: 0, state: "behind" })
    expect(existsSync(db)).toBe(false)
    const migrated = await ccode(sb, ["db", "migrate", "--db", db, "--json"])
    expect(migrated.code).toBe(0)
    const after = JSON.parse(migrated.stdout)
    expect(after).toMatchObject({ backend: "sqlite", state: "current", pending: [] })
    expect(after.migrated).toEqual(JSON.parse(before.stdout).pending)
    expect((await ccode(sb, ["db", "status", "--db", db])).stdout).toContain("up to date")
  }, 120_000)

  test("--help shows an example with a postgres URL", async () => {
    const help = await ccode(sandbox(), ["db", "migrate", "--help"])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain("ccode db migrate --db postgres://")
  }, 120_000)
})

if (!findPgBin()) {
  pgMissing("ccode db on PostgreSQL")
} else {
  describe("ccode db on PostgreSQL", () => {
    let pg: PgServer
    beforeAll(async () => {
      pg = await startPg()
    }, 120_000)
    afterAll(() => pg?.stop(), 60_000)
    // trust authentication accepts any password: enough to see that it is never shown
    const withPassword = (url: string) => url.replace("postgres://ccode@", "postgres://ccode:s3cret-pw@")

    test("status says behind and names `ccode db migrate`; migrate applies once; the password is never shown", async () => {
      const sb = sandbox()
      const url = withPassword(await pg.createDatabase())
      const human = await ccode(sb, ["db", "status", "--db", url])
      expect(human.code).toBe(0)
      expect(human.stdout).toContain("run `ccode db migrate`")
      const status = await ccode(sb, ["db", "status", "--json"], { env: { CCODE_DB: url } })
      expect(JSON.parse(status.stdout)).toMatchObject({ backend: "postgres", applied: 0, state: "behind", pending: ["0000_init"] })
      const first = await ccode(sb, ["db", "migrate", "--db", url, "--json"])
      expect(first.code).toBe(0)
      expect(JSON.parse(first.stdout)).toMatchObject({ state: "current", migrated: ["0000_init"] })
      const again = await ccode(sb, ["db", "migrate", "--db", url])
      expect(again.code).toBe(0)
      expect(again.stdout).toContain("already up to date")
      for (const r of [human, status, first, again]) {
        expect(r.stdout + r.stderr).not.toContain("s3cret-pw")
        expect(r.stdout).toContain("ccode:***@127.0.0.1")
      }
    }, 120_000)

    test("four operators migrating at once: each migration is applied once, all succeed", async () => {
      const sb = sandbox()
      const url = await pg.createDatabase()
      const results = await Promise.all(Array.from({ length: 4 }, () => ccode(sb, ["db", "migrate", "--db", url, "--json"])))
      for (const r of results) expect(r.code, r.stderr).toBe(0)
      expect(results.flatMap((r) => JSON.parse(r.stdout).migrated)).toEqual(["0000_init"])
    }, 120_000)

    test("a server that is not there: exit 2 with the URL (password hidden)", async () => {
      const sb = sandbox()
      const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } })
      const port = server.port
      server.stop(true)
      const r = await ccode(sb, ["db", "status", "--db", `postgres://ccode:s3cret-pw@127.0.0.1:${port}/x`])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(`cannot use PostgreSQL database postgres://ccode:***@127.0.0.1:${port}/x`)
      expect(r.stderr).not.toContain("s3cret-pw")
    }, 120_000)

    test("undo reads runs from a postgres:// database: an unknown run is exit 2 and writes nothing; policy and plugins read trust from it", async () => {
      const sb = sandbox()
      const url = withPassword(await pg.createDatabase())
      await ccode(sb, ["db", "migrate", "--db", url])
      sb.file(".ccode/policy.yaml", "version: 1\n")
      for (const args of [["policy", "show", "--db", url], ["plugins", "ls", "--no-mcp", "--db", url]]) {
        const r = await ccode(sb, args)
        expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(0)
        expect(r.stderr).not.toContain("s3cret-pw")
      }
      const r = await ccode(sb, ["undo", "x", "--db", url])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('no run "x" in postgres://')
      expect(r.stderr).not.toContain("s3cret-pw")
      const viaEnv = await ccode(sb, ["undo", "x"], { env: { CCODE_DB: url } })
      expect(viaEnv.code).toBe(2)
      expect(viaEnv.stderr).toContain('no run "x"')
      // nothing was written: no run, no audit row
      const audit = await ccode(sb, ["audit", "--json", "--db", url])
      expect(audit.code).toBe(0)
      expect(JSON.parse(audit.stdout)).toEqual([])
    }, 120_000)
  })
}
