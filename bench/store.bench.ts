// Store benchmarks, SQLite against PostgreSQL (a throwaway local server, fsync on): audit rows per
// second with 16 writer processes on one chain (one row per transaction, the worst case: every append
// takes the chain head's lock; and 4 rows per transaction, as a step commits them), and the store writes of one step as the runner commits them (the
// write-ahead call row, then the result with a checkpoint, 2 events and 3 audit rows).
// `bun run bench store`, or alone: `bun bench/store.bench.ts`. PostgreSQL is skipped (with a line
// saying so) when initdb/pg_ctl are not installed.
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { RunStore } from "../core/runstore/api.ts"
import { migrateDb, openRunStore } from "../core/runstore/select.ts"
import { findPgBin, PG_MISSING, startPg } from "../tests/store/postgres.ts"
import { removeTree } from "../tests/tmp.ts"
import { report } from "./lib.ts"

const WRITERS = 16
const ROWS = 200
const STEPS = 300

async function auditWriters(target: string, perTx = 1): Promise<number> {
  await migrateDb(target)
  const startAt = Date.now() + 3000 // every writer has opened its connection by then
  const procs = Array.from({ length: WRITERS }, (_, i) =>
    Bun.spawn([process.execPath, join(import.meta.dir, "..", "tests", "store", "audit-writer.ts"), target, String(ROWS), `w${i}`, String(startAt), String(perTx)], { stdout: "pipe", stderr: "inherit" }),
  )
  const done = await Promise.all(procs.map(async (p) => ({ code: await p.exited, out: await new Response(p.stdout).text() })))
  if (done.some((d) => d.code !== 0)) throw new Error("a writer failed")
  const last = Math.max(...done.map((d) => (JSON.parse(d.out) as { finishedAt: number }).finishedAt))
  const store = await openRunStore(target)
  const verified = await store.verifyAudit()
  await store.close()
  if (!verified.ok || verified.rows !== WRITERS * ROWS) throw new Error(`chain broken: ${JSON.stringify(verified)}`)
  return (WRITERS * ROWS) / ((last - startAt) / 1000)
}

async function stepWrites(store: RunStore): Promise<number> {
  const now = Date.now()
  await store.createRun({ id: "bench", task: "bench", taskFile: "t.yaml", workdir: "/w", status: "running", driver: "steps", createdAt: now, updatedAt: now })
  const started = performance.now()
  for (let seq = 1; seq <= STEPS; seq++) {
    const row = { id: `c${seq}`, runId: "bench", seq, tool: "shell", args: JSON.stringify({ command: `make test-${seq}` }), argsHash: `h${seq}`, decision: "allow" as const, status: "running" as const, startedAt: Date.now() }
    await store.commit({ runId: "bench", calls: [row], audit: [{ type: "decision", actor: "policy", runId: "bench", callId: row.id, result: "approved" }] })
    await store.commit({
      runId: "bench",
      calls: [{ ...row, status: "ok", finishedAt: Date.now(), durationMs: 1, exitCode: 0, output: "ok\n", bytes: 3 }],
      checkpoint: { seq, state: { step: seq, counters: { ok: seq }, pending: [] } },
      events: [{ ts: Date.now(), type: "step.started", data: "{}" }, { ts: Date.now(), type: "step.finished", data: "{}" }],
      audit: [
        { type: "tool_call", actor: "agent", runId: "bench", callId: row.id, result: "success" },
        { type: "checkpoint", actor: "system", runId: "bench", action: `checkpoint ${seq}`, result: "success" },
        { type: "state_change", actor: "system", runId: "bench" },
      ],
    })
  }
  return (performance.now() - started) / STEPS
}

const dir = mkdtempSync(join(tmpdir(), "ccode-bench-store-"))
try {
  const sqliteRate = await auditWriters(join(dir, "writers.db"))
  report({ name: `store sqlite: audit rows/s, ${WRITERS} writer processes`, value: Math.round(sqliteRate), unit: "rows/s" })
  report({ name: `store sqlite: audit rows/s, ${WRITERS} writers, 4 rows/tx`, value: Math.round(await auditWriters(join(dir, "writers4.db"), 4)), unit: "rows/s" })
  await migrateDb(join(dir, "steps.db"))
  const sqliteStore = await openRunStore(join(dir, "steps.db"))
  const sqliteStep = await stepWrites(sqliteStore)
  await sqliteStore.close()
  report({ name: "store sqlite: writes of one step (2 commits)", value: Math.round(sqliteStep * 100) / 100, unit: "ms", budget: "<= 10", ok: sqliteStep <= 10 })
  if (!findPgBin()) console.error(`store postgres: skipped — ${PG_MISSING}`)
  else {
    const pg = await startPg({ durable: true })
    try {
      const pgRate = await auditWriters(await pg.createDatabase())
      report({ name: `store postgres: audit rows/s, ${WRITERS} writer processes`, value: Math.round(pgRate), unit: "rows/s" })
      report({ name: `store postgres: audit rows/s, ${WRITERS} writers, 4 rows/tx`, value: Math.round(await auditWriters(await pg.createDatabase(), 4)), unit: "rows/s" })
      const url = await pg.createDatabase()
      await migrateDb(url)
      const pgStore = await openRunStore(url)
      const pgStep = await stepWrites(pgStore)
      await pgStore.close()
      report({ name: "store postgres: writes of one step (2 commits)", value: Math.round(pgStep * 100) / 100, unit: "ms", budget: "<= 10", ok: pgStep <= 10 })
    } finally {
      await pg.stop()
    }
  }
} finally {
  removeTree(dir)
}
