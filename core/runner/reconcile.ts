// On resume: bring the checkpoint up to date with what happened since — calls that were in
// flight when the process died, and requests a person settled with `ccode approve/deny/answer`.
import type { CallRow } from "../store/calls.ts"
import { commitWithCheckpoint } from "./call.ts"
import type { InFlightAnswer, RunContext } from "./context.ts"
import { newId } from "./ids.ts"
import { endLeftovers } from "./leftovers.ts"
import { transition, type PlanEvent, itemOf } from "./plan.ts"
import { denialReason, denyWaitingCall, inFlightAnswer, leftoverChoice, reportSettled, inFlightRequest, answerInFlightCall } from "./requests.ts"

/** `retriesOf`: how often a step may be retried (for a call whose command is known to have failed). */
export async function reconcile(ctx: RunContext, retriesOf: (id: string) => number = () => ctx.governor.policy.limits.retries): Promise<void> {
  const apply = (event: PlanEvent) => (ctx.state.plan = transition(ctx.state.plan, event))
  // intents are committed without a checkpoint: new calls number on from the last one stored
  ctx.state.callSeq = Math.max(ctx.state.callSeq, await ctx.store.lastCallSeq(ctx.runId))
  await settleInFlight(ctx, apply, retriesOf)
  for (const [id, waiting] of Object.entries(ctx.state.waiting)) {
    const request = await ctx.store.getRequest(waiting.requestId)
    const item = itemOf(ctx.state.plan, id)
    if (!item || item.state !== "blocked") {
      delete ctx.state.waiting[id]
      continue
    }
    if (!request || request.status === "pending") {
      // a person is here now: ask again at the terminal instead of waiting for `ccode approve`
      if (ctx.human.interactive && waiting.kind !== "in_flight") {
        delete ctx.state.waiting[id]
        if (waiting.call) ctx.state.pending[id] = waiting.call
        apply({ type: "release", id })
      } else if (ctx.human.interactive && waiting.call) {
        const call = await ctx.store.getCall(waiting.call.callId)
        if (call && !(await endLeftovers(ctx, call))) continue
        const answer = await ctx.human.inFlight(ctx.runId, id, item.title)
        if (answer !== "later") applyInFlight(ctx, id, call, waiting.call.callId, answer, apply)
      }
      continue
    }
    if (waiting.kind === "in_flight") {
      // settled with approve/deny/answer while its processes may still run: "done" waits for them,
      // any other answer ends them first (a re-run never starts beside the old copy)
      const call = await ctx.store.getCall(waiting.call!.callId)
      if (call && !(await endLeftovers(ctx, call, leftoverChoice(inFlightAnswer(request))))) continue
    }
    delete ctx.state.waiting[id]
    reportSettled(ctx, request)
    if (waiting.kind === "breakpoint") {
      if (request.status === "approved") {
        ctx.state.passed.push(id)
        apply({ type: "release", id })
      } else apply({ type: "skip", id, note: "skipped at its breakpoint" })
    } else if (waiting.kind === "approval") {
      if (request.status === "approved") {
        ctx.state.pending[id] = { ...waiting.call!, approved: true, forRun: Boolean(request.forRun) }
        apply({ type: "release", id })
      } else {
        const reason = denialReason(request)
        denyWaitingCall(ctx, waiting.call?.callId, reason)
        apply({ type: "fail", id, retry: false, denied: "person", note: reason })
      }
    } else applyInFlight(ctx, id, await ctx.store.getCall(waiting.call!.callId), waiting.call!.callId, inFlightAnswer(request), apply)
  }
  // steps the policy denied are decided again: the policy may have changed since (a person's "no" stands)
  for (const item of ctx.state.plan.items) if (item.state === "failed" && item.denied === "policy") apply({ type: "release", id: item.id })
  ctx.state.stoppedBy = undefined
  await commitWithCheckpoint(ctx)
}

async function settleInFlight(ctx: RunContext, apply: (e: PlanEvent) => void, retriesOf: (id: string) => number): Promise<void> {
  for (const call of await ctx.store.inFlightCalls(ctx.runId)) {
    const id = call.itemId
    const item = id ? itemOf(ctx.state.plan, id) : undefined
    const tool = ctx.registry.get(call.tool)?.tool
    // the intent is committed without a checkpoint, so the item may still read `ready`
    if (item?.state === "ready") ctx.state.plan = transition(ctx.state.plan, { type: "start", id: id! })
    if (!id || !item || !["ready", "active"].includes(item.state)) {
      ctx.recorder.stage({ callPatches: [{ id: call.id, patch: { status: "abandoned", finishedAt: Date.now() } }] })
      continue
    }
    if (call.exitCode !== null) {
      // its command had exited before ccode stopped: that is its outcome (only the output was lost)
      await endLeftovers(ctx, call, "kill")
      settleExited(ctx, call, itemOf(ctx.state.plan, id)!.attempts <= retriesOf(id), apply)
      continue
    }
    if (tool?.idempotent) {
      await endLeftovers(ctx, call, "kill")
      // safe to run again: a fresh call replaces the one that died
      ctx.recorder.stage({ callPatches: [{ id: call.id, patch: { status: "abandoned", finishedAt: Date.now(), errorMessage: "in flight at a crash; re-run (idempotent)" } }] })
      apply({ type: "reset", id, note: "in flight at a crash; running again" })
      continue
    }
    if (ctx.human.interactive || ctx.approveAll) {
      // its processes may outlive the ccode that died: --approve-all ends them (the call runs again),
      // a person chooses to kill or wait; then a person settles the call like any pending request
      if (await endLeftovers(ctx, call, ctx.approveAll ? "kill" : undefined)) {
        const answer = ctx.approveAll ? "rerun" : await ctx.human.inFlight(ctx.runId, id, item.title)
        if (answer !== "later") {
          apply({ type: "wait", id, note: "in flight at a crash" })
          applyInFlight(ctx, id, call, call.id, answer, apply)
          continue
        }
      }
    }
    const requestId = newId("q")
    const { writes, note } = inFlightRequest(ctx, { requestId, call: { ...call, args: JSON.parse(call.args) }, name: `step ${id}` })
    apply({ type: "wait", id, note })
    ctx.state.waiting[id] = { kind: "in_flight", requestId, call: { callId: call.id, seq: call.seq } }
    await commitWithCheckpoint(ctx, writes)
  }
}

/** The command had exited before ccode stopped: its recorded exit status settles the call, as if it had returned. */
function settleExited(ctx: RunContext, call: CallRow, canRetry: boolean, apply: (e: PlanEvent) => void): void {
  const id = call.itemId!
  const ok = call.exitCode === 0
  const note = ok ? undefined : `command exited with code ${call.exitCode} (before ccode stopped)${canRetry ? "; retrying" : ""}`
  ctx.recorder.stage({
    callPatches: [{ id: call.id, patch: {
      status: ok ? "ok" : "error", finishedAt: Date.now(), output: "(finished before ccode stopped; its output was not kept)",
      errorCode: ok ? null : "EXIT_CODE", errorType: ok ? null : "execution", errorMessage: note ?? null,
    } }],
  })
  ctx.recorder.audit({
    type: "tool_call", actor: "system", callId: call.id, tool: call.tool, action: "run", result: ok ? "success" : "failed",
    reason: `its command had exited with code ${call.exitCode} before ccode stopped; recorded from that status, not run again`,
  })
  if (ok) apply({ type: "succeed", id })
  else apply({ type: "fail", id, retry: canRetry, note })
}

/** `call`: the call's row as stored (undefined when it is not) */
function applyInFlight(ctx: RunContext, id: string, call: CallRow | undefined, callId: string, answer: InFlightAnswer, apply: (e: PlanEvent) => void): void {
  answerInFlightCall(ctx, { callId, tool: call?.tool ?? null }, answer)
  if (answer === "rerun") {
    ctx.state.pending[id] = { callId, seq: call?.seq ?? ++ctx.state.callSeq, approved: true }
    apply({ type: "reset", id, note: "in flight at a crash; running again" })
    return
  }
  if (answer === "done") {
    apply({ type: "release", id })
    apply({ type: "start", id })
    apply({ type: "succeed", id })
  } else if (answer === "skip") apply({ type: "skip", id, note: "in flight at a crash; skipped by a person" })
  else apply({ type: "fail", id, retry: false, note: "in flight at a crash; marked failed by a person" })
}
