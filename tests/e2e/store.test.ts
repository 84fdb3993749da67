// A damaged database stops ccode before it runs anything, with what to do; inspection never writes.
import { afterEach, expect, test } from "bun:test"
import { existsSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { ccode, sandbox, type Sandbox } from "./harness.ts"

const boxes: Sandbox[] = []
afterEach(() => {
  for (const sb of boxes.splice(0)) rmSync(sb.root, { recursive: true, force: true })
})

test("a corrupt database: run and runs ls exit 2 saying what to do, and no step runs", async () => {
  const sb = sandbox()
  boxes.push(sb)
  writeFileSync(sb.db, "garbage, not a database ".repeat(200))
  sb.file("task.yaml", "version: 1\nsteps:\n  - run: touch ran.txt\n")
  const run = await ccode(sb, ["run", "task.yaml", "--yes"])
  expect(run.code).toBe(2)
  expect(run.stderr).toContain("damaged or not a ccode database")
  expect(existsSync(join(sb.work, "ran.txt"))).toBe(false)
  const ls = await ccode(sb, ["runs", "ls"])
  expect(ls.code).toBe(2)
  expect(ls.stderr).toContain("Move it aside")
}, 60_000)

test("runs ls, show and audit verify leave the database file untouched", async () => {
  const sb = sandbox()
  boxes.push(sb)
  sb.file("task.yaml", "version: 1\nsteps:\n  - run: echo hi\n")
  expect((await ccode(sb, ["run", "task.yaml", "--yes"])).code).toBe(0)
  const before = await Bun.file(sb.db).bytes()
  const mtime = Bun.file(sb.db).lastModified
  for (const args of [["runs", "ls"], ["audit", "verify"], ["audit", "--format", "json"]]) expect((await ccode(sb, args)).code).toBe(0)
  expect(Bun.file(sb.db).lastModified).toBe(mtime)
  expect(Buffer.compare(Buffer.from(await Bun.file(sb.db).bytes()), Buffer.from(before))).toBe(0)
}, 60_000)
