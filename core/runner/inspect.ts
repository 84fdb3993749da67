// Read-only views of runs for `ccode runs`: plain objects with snake_case fields, as --json prints them.
import type { RunStore } from "../runstore/api.ts"
import type { RunRow } from "../store/runs.ts"
import { excerpt, type OutputExcerpt } from "./output.ts"
import { runIsLive } from "./liveness.ts"

export function runView(run: RunRow) {
  return {
    id: run.id,
    task: run.task,
    task_file: run.taskFile,
    workdir: run.workdir,
    // a `running` row whose process is gone crashed: say so (resume picks it up)
    status: run.status === "running" && run.pid !== null && !runIsLive(run) ? "crashed" : run.status,
    exit_code: run.exitCode,
    driver: run.driver,
    batch: run.batch,
    message: run.message,
    created_at: new Date(run.createdAt).toISOString(),
    updated_at: new Date(run.updatedAt).toISOString(),
    finished_at: run.finishedAt ? new Date(run.finishedAt).toISOString() : null,
  }
}

export async function runDetail(store: RunStore, run: RunRow) {
  const [plan, calls, requests] = await Promise.all([store.loadPlan(run.id), store.callsOf(run.id), store.requestsOf(run.id)])
  return {
    ...runView(run),
    plan: plan.map((p) => ({ id: p.id, title: p.title, state: p.state, attempts: p.attempts })),
    calls: calls.map((c) => ({
      id: c.id, seq: c.seq, step: c.itemId, tool: c.tool, args: JSON.parse(c.args) as unknown, decision: c.decision,
      risk: c.risk, by: c.decidedBy, status: c.status, exit_code: c.exitCode, duration_ms: c.durationMs,
      error: c.errorCode ? { code: c.errorCode, type: c.errorType, message: c.errorMessage } : null,
      ...storedOutput(c),
    })),
    requests: requests.map((r) => ({ id: r.id, kind: r.kind, status: r.status, title: r.title, answer: r.answer, call: r.callId, step: r.itemId })),
  }
}

/** A call's stored output (redacted; capped head + tail when large) with the byte count the tool wrote. */
export function storedOutput(c: { output: string | null; bytes: number | null }): OutputExcerpt {
  return excerpt(c.output ?? "", c.bytes ?? 0, Number.POSITIVE_INFINITY, 0)
}
