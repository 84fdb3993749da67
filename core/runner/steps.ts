// The scripted driver: runs plan items in dependency order (in parallel up to limits.parallel
// and --jobs), with breakpoints, retries with backoff, and continue_on_error.
import { setTimeout as sleep } from "node:timers/promises"
import { backoffDelay, shouldRetry, STEP_BACKOFF_CAP_MS } from "../guards/index.ts"
import type { ToolResult } from "../tools/types.ts"
import { commitWithCheckpoint, runCall, type CallOutcome } from "./call.ts"
import type { RunContext } from "./context.ts"
import { breakpointGate } from "./gates.ts"
import { passGate } from "./control.ts"
import { planIndex, readyItems, transition, type PlanEvent, itemOf } from "./plan.ts"
import type { StepConfig } from "./state.ts"
import { conditionHolds, dueCall, scopeOf, StepRefused, takeOutputs, type DueCall } from "./step-inputs.ts"

export async function driveSteps(ctx: RunContext, steps: Map<string, StepConfig>): Promise<void> {
  const limits = ctx.governor.policy.limits
  const parallel = Math.max(1, Math.min(ctx.options.jobs, limits.parallel))
  const active = new Map<string, Promise<void>>()
  for (;;) {
    if (!ctx.stop) {
      const settledUpTo = firstUnsettled(ctx)
      for (const item of readyItems(ctx.state.plan)) {
        if (active.size >= parallel) break
        if (active.has(item.id)) continue
        // an `if:` is decided on a settled past: every step above it has ended (docs/task.md)
        if (steps.get(item.id)!.if !== undefined && planIndex(ctx.state.plan, item.id) > settledUpTo) continue

        const job = runItem(ctx, item.id, steps.get(item.id)!).finally(() => active.delete(item.id))
        active.set(item.id, job)
      }
    }
    if (active.size === 0) break
    await Promise.race(active.values())
  }
}

/** The plan index of the first item that is due or running (none above it is). */
function firstUnsettled(ctx: RunContext): number {
  // pending items are left out: one above that needs this very step must not wait for it forever
  const i = ctx.state.plan.items.findIndex((item) => item.state === "ready" || item.state === "active")
  return i < 0 ? ctx.state.plan.items.length : i
}

async function runItem(ctx: RunContext, id: string, step: StepConfig): Promise<void> {
  const apply = (event: PlanEvent) => (ctx.state.plan = transition(ctx.state.plan, event))
  if (step.if !== undefined && !conditionHolds(step, scopeOf(ctx))) {
    const reason = `if: ${step.if} was false`
    apply({ type: "skip", id, note: reason })
    ctx.recorder.event("step.skipped", { step: id, reason })
    await commitWithCheckpoint(ctx)
    return
  }
  if (!(await passGate(ctx, id))) return // paused or at a breakpoint set in the panel; stopping: stays ready
  if (step.breakpoint && !ctx.state.passed.includes(id)) {
    const gate = await breakpointGate(ctx, id)
    if (gate !== "continue") return
  }
  const pending = ctx.state.pending[id]
  let due: DueCall
  try {
    due = dueCall(ctx, id, step, itemOf(ctx.state.plan, id)!.attempts + 1)
  } catch (error) {
    if (!(error instanceof StepRefused)) throw error
    apply({ type: "start", id })
    apply({ type: "fail", id, retry: false, denied: "policy", note: error.message })
    ctx.recorder.audit({ type: "decision", actor: "policy", tool: step.tool, action: "decide", result: "denied", reason: error.message, data: { step: id } })
    ctx.state.counters.denied++
    await commitWithCheckpoint(ctx)
    return
  }
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
        ctx.state.waiting[id] = { kind: "approval", requestId: outcome.requestId, call: { callId: outcome.callId, seq: outcome.seq, ...(outcome.shown && { shown: outcome.shown }) } }
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
  const outcome = await runCall(ctx, { tool: step.tool, args: due.args, env: due.env, finish: (result) => withOutputs(ctx, id, step, due, result), itemId: id, timeoutMs: step.timeout, attempt, preview: step.preview }, applyOutcome, pending)
  const item = itemOf(ctx.state.plan, id)!
  if (outcome.kind === "ran" && item.state === "ready" && !ctx.stop) await backoff(ctx, item.attempts)
  if (outcome.kind === "ran" && item.state === "failed") ctx.state.counters.failed++
}

// Outputs are taken before the result is recorded, so a refused $CCODE_OUTPUT is the step's recorded failure.
function withOutputs(ctx: RunContext, id: string, step: StepConfig, due: DueCall, result: ToolResult): ToolResult {
  const taken = takeOutputs(ctx, due.outputFile, result, ctx.registry.get(step.tool)?.source !== "builtin")
  if ("outputs" in taken) {
    ctx.state.outputs = { ...ctx.state.outputs, [id]: taken.outputs }
    return result
  }
  // a failed step keeps its own error; a successful one fails with the file's
  if (result.status !== "ok") return result
  return { ...result, status: "error", error: { code: "OUTPUT_INVALID", type: "param", message: taken.error } }
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
