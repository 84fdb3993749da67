// The end of a batch: a `batch.finished` event on stdout with --json, one summary line for a person.
import type { BatchEntry } from "../../core/runner/batch.ts"
import { out } from "../out.ts"

export interface BatchReport {
  batch: string
  entries: BatchEntry[]
  exitCode: number
  failFast: boolean
  stoppedBy?: string
}

/** The `batch.finished` event: `run` is null (it is about no single run), `runs` lists every task. Pure. */
export function batchEvent(report: BatchReport, now = new Date()): Record<string, unknown> {
  return {
    type: "batch.finished", ts: now.toISOString(), run: null, batch: report.batch, exit_code: report.exitCode,
    fail_fast: report.failFast, stopped_by: report.stoppedBy ?? null, runs: report.entries,
  }
}

/** "batch b…: 3 runs — 1 failed, 1 interrupted, 1 not started (exit 1)". Pure. */
export function batchLine(report: BatchReport): string {
  const counts = new Map<string, number>()
  for (const e of report.entries) counts.set(e.status, (counts.get(e.status) ?? 0) + 1)
  const parts = [...counts].map(([status, n]) => `${n} ${status.replace("_", " ")}`)
  const why = report.stoppedBy ? `; stopped by --fail-fast after run ${report.stoppedBy} failed` : ""
  return `batch ${report.batch}: ${report.entries.length} runs — ${parts.join(", ")}${why} (exit ${report.exitCode})`
}

export function reportBatch(report: BatchReport, json: boolean): void {
  if (json) out(JSON.stringify(batchEvent(report)))
  else process.stderr.write(`${batchLine(report)}\n`)
}
