// `ccode cancel RUN`: end a paused or stopped run for good. Its history stays (calls, events, audit);
// its pending requests close as cancelled; calls left in flight by a crash close as abandoned. A run
// with a live process is refused (it is stopped first, so it checkpoints), and so is a run with a
// call whose processes outlived ccode: cancelling never leaves a half-settled call behind.
import { hostname } from "node:os"
import { join } from "node:path"
import type { AuditInput } from "../audit/write.ts"
import type { RunStore } from "../runstore/api.ts"
import { TERMINAL, type RunRow } from "../store/runs.ts"
import { EXIT } from "./finish.ts"
import { stillRunning } from "./leftovers.ts"
import { runIsLive } from "./liveness.ts"
import { writeSummary } from "./summary.ts"

export class CancelError extends Error {
  readonly exitCode = 2
}

export interface Cancelled {
  run: string
  task: string
  /** the status the run had before */
  from: string
  status: "cancelled"
  exit_code: number
  requests: string[]
  abandoned_calls: string[]
  summary_path?: string
}

/** Why a run cannot be cancelled now, or undefined when it can. Pure but for the liveness probes. */
export function refusal(run: RunRow, here = hostname()): string | undefined {
  if (TERMINAL.includes(run.status as never)) return `run ${run.id} is already ${run.status}; only paused, stopped, interrupted, denied or crashed runs can be cancelled`
  if (run.driver === "mcp" || run.driver === "hook") return `run ${run.id} is a \`ccode ${run.driver}\` session, not a task run; it ends with its host`
  if (run.status === "running" && run.host && run.host !== here && run.pid !== null) {
    return `run ${run.id} is marked running on host ${run.host}; ccode cannot tell from here whether it is still alive — stop it there first`
  }
  if (runIsLive(run)) {
    return `run ${run.id} is still running (pid ${run.pid}); stop it first (Ctrl-C, or kill -INT ${run.pid}) so it writes a checkpoint, then cancel it`
  }
  return undefined
}

export async function cancelRun(store: RunStore, idOrPrefix: string, home: string): Promise<Cancelled> {
  const run = await store.findRun(idOrPrefix) // RunNotFound: exit 2
  const why = refusal(run)
  if (why) throw new CancelError(why)
  const calls = await store.inFlightCalls(run.id)
  for (const call of calls) {
    const running = stillRunning(call)
    if (running) {
      throw new CancelError(`run ${run.id}: step ${call.itemId ?? call.id} (${call.tool}) was in flight when ccode stopped and is ${running}; end it (kill -- -${call.pgid ?? "PGID"}) or let \`ccode resume ${run.id}\` settle it, then cancel`)
    }
  }
  const pending = await store.requestsOf(run.id, "pending")
  const now = Date.now()
  const message = `cancelled by the user (was ${run.status})`
  const exitCode = EXIT.cancelled
  const audit: AuditInput[] = [
    ...calls.map((call): AuditInput => ({ runId: run.id, callId: call.id, type: "tool_call", actor: "user", tool: call.tool, action: "abandon", result: null, reason: "in flight when ccode stopped; run cancelled" })),
    ...pending.map((request): AuditInput => ({
      runId: run.id, callId: request.callId, type: "permission", actor: "user", action: `cancel:${request.kind}`, result: "denied",
      reason: `${request.title} — closed: the run was cancelled`, data: JSON.stringify({ request: request.id, kind: request.kind }),
    })),
    {
      runId: run.id, type: "state_change", actor: "user", action: "cancel", result: null, reason: message,
      data: JSON.stringify({ from: run.status, requests: pending.map((r) => r.id), abandoned_calls: calls.map((c) => c.id) }),
    },
  ]
  // one transaction, written only if the run is still as read: a resume (or cancel) that claimed it
  // meanwhile, on any machine, wins, and a request settled meanwhile fails it whole (exit 2)
  await store.commit({
    runId: run.id,
    runIs: { status: run.status, pid: run.pid },
    run: { status: "cancelled", exitCode, message, finishedAt: now, pid: null },
    callPatches: calls.map((call) => ({ id: call.id, patch: { status: "abandoned", finishedAt: now, errorMessage: "in flight when ccode stopped; the run was cancelled, its outcome is unknown" } })),
    settlements: pending.map((request) => ({ id: request.id, status: "cancelled", settledBy: "cancel" })),
    audit,
  })
  const result: Cancelled = { run: run.id, task: run.task, from: run.status, status: "cancelled", exit_code: exitCode, requests: pending.map((r) => r.id), abandoned_calls: calls.map((c) => c.id) }
  // the summary says cancelled (written after the commit: a crash in between leaves it for `runs show`)
  const summary = await rewriteSummary(store, result.run, home)
  return summary ? { ...result, summary_path: summary } : result
}

async function rewriteSummary(store: RunStore, runId: string, home: string): Promise<string | undefined> {
  const run = await store.findRun(runId)
  const path = join(home, "runs", run.id, "summary.md")
  try {
    await writeSummary(store, run, path, (run.finishedAt ?? run.updatedAt) - run.createdAt)
    return path
  } catch {
    return undefined // a read-only home: the run row and the audit say it all
  }
}
