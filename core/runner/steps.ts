// The scripted driver: runs plan items in dependency order (in parallel up to limits.parallel
// and --jobs), with breakpoints, retries with backoff, and continue_on_error.
import { setTimeout as sleep } from "node:timers/promises"
import { backoffDelay, shouldRetry, STEP_BACKOFF_CAP_MS } from "../guards/index.ts"
import type { ToolResult } from "../tools/types.ts"
import { commitWithCheckpoint, runCall, type CallOutcome } from "./call.ts"
import type { RunContext } from "./context.ts"
import { breakpointGate } from "./gates.ts"
import { passGate } from "./control.ts"
import { readyItems, transition, type PlanEvent, itemOf } from "./plan.ts"
import type { StepConfig } from "./state.ts"

export async function driveSteps(ctx: RunContext, steps: Map<string, StepConfig>): Promise<void> {
  const limits = ctx.governor.policy.limits
  const parallel = Math.max(1, Math.min(ctx.options.jobs, limits.parallel))
  const active = new Map<string, Promise<void>>()
  for (;;) {
    if (!ctx.stop) {
      for (const item of readyItems(ctx.state.plan)) {
        if (active.size >= parallel) break
        if (active.has(item.id)) continue
        const job = runItem(ctx, item.id, steps.get(item.id)!).finally(() => active.delete(item.id))
        active.set(item.id, job)
      }
    }
    if (active.size === 0) break
    await Promise.race(active.values())
  }
}

async function runItem(ctx: RunContext, id: string, step: StepConfig): Promise<void> {
  const apply = (event: PlanEvent) => (ctx.state.plan = transition(ctx.state.plan, event))
  if (!(await passGate(ctx, id))) return // paused or at a breakpoint set in the panel; stopping: stays ready
  if (step.breakpoint && !ctx.state.passed.includes(id)) {
    const gate = await breakpointGate(ctx, id)
    if (gate !== "continue") return
  }
  const pending = ctx.state.pending[id]
  apply({ type: "start", id })
  const retries = step.retries ?? ctx.governor.policy.limits.retries
  const applyOutcome = (outcome: CallOutcome) => {
    delete ctx.state.pending[id]
    switch (outcome.kind) {
      case "halted":
        apply({ type: "reset", id, note: `stopped by guard ${outcome.trip.guard}` })
        return
      case "interrupted":
        return // stays active with its call in flight: resume asks a person what became of it
      case "waiting":
        ctx.state.waiting[id] = { kind: "approval", requestId: outcome.requestId, call: { callId: outcome.callId, seq: outcome.seq } }
        apply({ type: "wait", id, note: `waiting for approval (${outcome.requestId})` })
        return
      case "denied":
        apply({ type: "fail", id, retry: false, denied: outcome.decision.by === "user" ? "person" : "policy", note: outcome.result.error?.message })
        return
      case "ran":
        apply(eventFor(ctx, id, outcome.result, retries))
    }
  }
  const attempt = itemOf(ctx.state.plan, id)!.attempts
  const outcome = await runCall(ctx, { tool: step.tool, args: step.args, itemId: id, timeoutMs: step.timeout, attempt, preview: step.preview }, applyOutcome, pending)
  const item = itemOf(ctx.state.plan, id)!
  if (outcome.kind === "ran" && item.state === "ready" && !ctx.stop) await backoff(ctx, item.attempts)
  if (outcome.kind === "ran" && item.state === "failed") ctx.state.counters.failed++
}

function eventFor(ctx: RunContext, id: string, result: ToolResult, retries: number): PlanEvent {
  if (result.status === "ok") return { type: "succeed", id }
  const item = itemOf(ctx.state.plan, id)!
  // a failure while the run is stopping keeps its retries: the step is ready again, and resume retries it
  const retry = shouldRetry(item.attempts, retries, result.error?.type)
  const note = `${result.error?.message ?? "failed"}${retry ? ` (attempt ${item.attempts} of ${retries + 1}, retrying)` : ""}`
  return { type: "fail", id, retry, note }
}

async function backoff(ctx: RunContext, attempt: number): Promise<void> {
  const delay = backoffDelay(attempt, ctx.governor.policy.limits.retry_backoff, Math.random, { capMs: STEP_BACKOFF_CAP_MS })
  // a stop (signal, guard) ends the wait at once: the step stays ready and resume retries it
  await sleep(delay, undefined, { signal: ctx.cancel.signal }).catch(() => {})
}
