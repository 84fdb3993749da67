// Ends a segment of a run: works out status and exit code, writes summary.md, the run row,
// run.paused / run.finished events and the session_end audit row.
import { join } from "node:path"
import { pauseGuards } from "../guards/index.ts"
import type { RunStatus } from "../store/runs.ts"
import { commitWithCheckpoint } from "./call.ts"
import { wallTime, type RunContext } from "./context.ts"
import { planOutcome, type Plan } from "./plan.ts"
import { writeSummary } from "./summary.ts"
import { workspaceMark, type WorkspaceMark } from "./elsewhere.ts"
import { fingerprintWorkspace, type Fingerprint } from "../guards/index.ts"
import { loadFingerprint } from "../guards/fingerprint-file.ts"

export interface RunResult {
  runId: string
  task: string
  status: RunStatus
  exitCode: number
  message: string
  summaryPath?: string
  pending: { id: string; kind: string; title: string }[]
}

export const EXIT: Record<RunStatus, number> = {
  completed: 0, failed: 1, denied: 5, stopped: 4, paused: 3, interrupted: 130, cancelled: 1, running: 1,
}

/** Status of a run from its plan and why it stopped. Pure. */
export function runStatus(plan: Plan, stop: RunContext["stop"]): { status: RunStatus; message: string } {
  if (stop?.status === "interrupted") return { status: "interrupted", message: stop.reason }
  const live = plan.items.filter((i) => !i.continueOnError)
  const failed = live.filter((i) => i.state === "failed" && !i.denied)
  if (failed.length) return { status: "failed", message: `step ${failed.map((i) => i.id).join(", ")} failed: ${failed[0]!.note ?? ""}`.trim() }
  const denied = live.filter((i) => i.state === "failed" && i.denied)
  if (denied.length || stop?.status === "denied") {
    return { status: "denied", message: stop?.status === "denied" ? stop.reason : `step ${denied[0]!.id} was denied: ${denied[0]!.note ?? ""}` }
  }
  if (stop?.status === "stopped") return { status: "stopped", message: stop.reason }
  const outcome = planOutcome(plan)
  if (outcome === "waiting") return { status: "paused", message: "waiting for a person" }
  if (outcome === "completed") return { status: "completed", message: "all steps done" }
  return { status: "failed", message: "the plan cannot go on" }
}

export async function finishRun(ctx: RunContext, homeDir: string): Promise<RunResult> {
  // an agent run counts its turns; a scripted plan its finished steps
  const { status, message, steps } = ctx.driver.status(ctx)
  const exitCode = EXIT[status]
  const summaryPath = join(homeDir, "runs", ctx.runId, "summary.md")
  const pending = (await ctx.store.requestsOf(ctx.runId, "pending")).map((r) => ({ id: r.id, kind: r.kind, title: r.title }))
  if (status === "paused") ctx.recorder.event("run.paused", { requests: pending.map((p) => p.id), message })
  ctx.recorder.event("run.finished", { task: ctx.task.name, status, exit_code: exitCode, steps, denied: ctx.state.counters.denied, message }, { summary_path: summaryPath })
  ctx.recorder.audit({ type: "session_end", actor: "system", action: status, result: status === "completed" ? "success" : status === "failed" ? "failed" : null, reason: message })
  const terminal = status === "completed" || status === "failed"
  ctx.state.guards = pauseGuards(ctx.state.guards, Date.now())
  ctx.state.fingerprint = ctx.fingerprint
  if (ctx.state.segment) ctx.state.segment = { ...ctx.state.segment, workspace: await workspaceLeft(ctx) }
  const ending = { status, exitCode, message, finishedAt: terminal ? Date.now() : null, pid: null }
  // the summary is written before the commit that ends the run: a crash in between leaves a run that
  // is not finished in the database (resume finishes it and writes the summary again), never a
  // finished run without its summary
  try {
    await writeSummary(ctx.store, { ...(await ctx.store.findRun(ctx.runId)), ...ending, updatedAt: Date.now() }, summaryPath, wallTime(ctx), ctx.state.changed)
  } catch (error) {
    ctx.reporter.output(ctx.runId, "", `warning: could not write ${summaryPath}: ${(error as Error).message}\n`)
  }
  await commitWithCheckpoint(ctx, { run: ending })
  return { runId: ctx.runId, task: ctx.task.name, status, exitCode, message, summaryPath, pending }
}

/** The workspace this segment leaves, for a resume elsewhere to compare with (undefined: it could not be read). */
async function workspaceLeft(ctx: RunContext): Promise<WorkspaceMark | undefined> {
  // taken now (the last one seen may predate the last step's writes); the last one lends its hashes
  const previous = loadFingerprint(ctx.fingerprint as Fingerprint | undefined)
  const taken = await fingerprintWorkspace(ctx.workspace, { previous, ignore: ctx.ownPaths }).catch(() => undefined)
  return taken && workspaceMark(taken)
}
