// Audit benchmarks: rows written per second (100,000 rows), and a query by run
// over 1,000,000 rows. Writing is measured twice: the writer's own cost (rows committed 1,000 at a
// time) against the budget, and as a run commits them (3 rows per call transaction), where the
// cost of each SQLite commit dominates (informational: the commit is shared with the call's state).
// Runnable alone: `bun bench/audit.bench.ts`; prints one JSON object per line.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { queryAudit } from "../core/audit/query.ts"
import { verifyStore } from "../core/audit/verify.ts"
import { appendAuditRows, type AuditInput } from "../core/audit/write.ts"
import { openStore, type Store } from "../core/store/open.ts"
import { report } from "./lib.ts"


function row(run: string, i: number): AuditInput {
  return {
    runId: run, callId: `c${i}`, type: i % 3 === 0 ? "decision" : i % 3 === 1 ? "tool_call" : "permission", actor: "policy",
    tool: "shell", action: "decide", result: "approved", risk: "low", autoApproved: true,
    reason: "risk low is within the auto-approve threshold low", data: JSON.stringify({ args: { command: `bun test --filter case-${i}` }, rules: [] }),
  }
}

function write(store: Store, runs: number, rowsPerRun: number, perTx: number): number {
  const started = performance.now()
  for (let r = 0; r < runs; r++) {
    const run = `r${String(r).padStart(7, "0")}`
    for (let i = 0; i < rowsPerRun; i += perTx) {
      store.tx(() => {
        const rows: AuditInput[] = []
        for (let j = i; j < Math.min(i + perTx, rowsPerRun); j++) rows.push(row(run, j))
        appendAuditRows(store, rows)
      })
    }
  }
  return performance.now() - started
}

/** One result line in the shared format (bench/lib.ts); `max` is the budget's upper bound, `min` its lower one. */
function result(name: string, value: number, unit: string, limit?: { max?: number; min?: number }): void {
  const rounded = Math.round(value * 100) / 100
  const budget = limit?.max !== undefined ? `<= ${limit.max}` : limit?.min !== undefined ? `>= ${limit.min}` : undefined
  const ok = limit?.max !== undefined ? value <= limit.max : limit?.min !== undefined ? value >= limit.min : undefined
  report({ name, value: rounded, unit, ...(budget ? { budget, ok } : {}) })
}

const dir = mkdtempSync(join(tmpdir(), "ccode-bench-audit-"))
try {
  const batched = openStore(join(dir, "write.db"))
  const ms = write(batched, 100, 1000, 1000)
  batched.close()
  result("audit: 100,000 rows written (1,000 per transaction)", ms, "ms", { max: 2000 })
  result("audit: rows written per second", 100_000 / (ms / 1000), "rows/s", { min: 50_000 })
  const perCall = openStore(join(dir, "per-call.db"))
  result("audit: 100,000 rows written as runs commit them (3 per transaction)", write(perCall, 100, 1000, 3), "ms")
  perCall.close()

  // 1,000,000 rows over 2,000 runs of 500 rows; the query asks for one run in the middle
  const big = openStore(join(dir, "query.db"))
  write(big, 2000, 500, 500)
  const run = "r0001000"
  const times: number[] = []
  let found = 0
  for (let i = 0; i < 50; i++) {
    const t = performance.now()
    found = queryAudit(big, { runs: [run] }).length
    times.push(performance.now() - t)
  }
  if (found !== 500) throw new Error(`query by run found ${found} rows, expected 500`)
  times.sort((a, b) => a - b)
  result("audit: query by run over 1,000,000 rows (median)", times[Math.floor(times.length / 2)]!, "ms", { max: 20 })
  const filtered: number[] = []
  for (let i = 0; i < 20; i++) {
    const t = performance.now()
    queryAudit(big, { runs: [run], types: ["decision"], results: ["approved"], risks: ["low"] })
    filtered.push(performance.now() - t)
  }
  filtered.sort((a, b) => a - b)
  result("audit: run + type + decision + risk query over 1,000,000 rows (median)", filtered[Math.floor(filtered.length / 2)]!, "ms", { max: 20 })
  if (process.env.CCODE_BIN) {
    // the same query as a user runs it: process start, open, migrate check, query, JSONL out
    const wall: number[] = []
    for (let i = 0; i < 7; i++) {
      const t = performance.now()
      const proc = Bun.spawnSync([process.env.CCODE_BIN, "audit", "--run", run, "--format", "jsonl", "--db", join(dir, "query.db")], { stdout: "pipe", stderr: "pipe" })
      wall.push(performance.now() - t)
      if (proc.exitCode !== 0) throw new Error(`ccode audit failed: ${proc.stderr.toString()}`)
    }
    wall.sort((a, b) => a - b)
    result("audit: `ccode audit --run ID --format jsonl` over 1,000,000 rows, wall time (median)", wall[3]!, "ms")
  }
  const t = performance.now()
  const verified = verifyStore(big)
  if (!verified.ok || verified.rows !== 1_000_000) throw new Error(`verify: ${JSON.stringify(verified.problem ?? verified.rows)}`)
  result("audit: verify 1,000,000 rows", performance.now() - t, "ms")
  big.close()
} finally {
  rmSync(dir, { recursive: true, force: true })
}
