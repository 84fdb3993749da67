import { expect, test } from "bun:test"
import { join } from "node:path"
import { verifyStore } from "../../core/audit/verify.ts"
import { openStore } from "../../core/store/open.ts"
import { tempDb } from "./helpers.ts"

test("four processes writing to one database at once leave one valid chain with every row", async () => {
  const db = tempDb()
  openStore(db).close() // migrate once, so the workers race on rows, not on the schema
  const worker = join(import.meta.dir, "append-worker.ts")
  const procs = ["ra", "rb", "rc", "rd"].map((run) => Bun.spawn(["bun", worker, db, run, "150"], { stdout: "ignore", stderr: "pipe" }))
  const codes = await Promise.all(procs.map((p) => p.exited))
  expect(codes).toEqual([0, 0, 0, 0])
  const store = openStore(db)
  const result = verifyStore(store)
  expect(result.ok).toBe(true)
  expect(result.rows).toBe(4 * 300) // 150 transactions of 1, 2, 3, 1, 2, 3 ... rows
  const perRun = store.sqlite.query("SELECT run_id, count(*) AS n FROM audit GROUP BY run_id ORDER BY run_id").all()
  expect(perRun).toEqual(["ra", "rb", "rc", "rd"].map((run_id) => ({ run_id, n: 300 })))
}, 60_000)

test("audit verify in a loop while 8 processes write raises no false alarm", async () => {
  const db = tempDb()
  openStore(db).close()
  const worker = join(import.meta.dir, "append-worker.ts")
  const writers = Array.from({ length: 8 }, (_, i) => Bun.spawn(["bun", worker, db, `w${i}`, "90"], { stdout: "ignore", stderr: "pipe" }))
  const verifier = Bun.spawn(["bun", join(import.meta.dir, "verify-worker.ts"), db, "4000"], { stdout: "pipe", stderr: "pipe" })
  expect(await Promise.all(writers.map((p) => p.exited))).toEqual(Array(8).fill(0))
  const passes = (await new Response(verifier.stdout).text()).trim().split("\n")
  expect(await verifier.exited).toBe(0)
  expect(passes.length).toBeGreaterThan(5)
  expect(passes.filter((line) => line !== "ok")).toEqual([])
  const store = openStore(db)
  expect(verifyStore(store)).toMatchObject({ ok: true, rows: 8 * 180 })
  store.close()
}, 90_000)
