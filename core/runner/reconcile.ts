// On resume: bring the checkpoint up to date with what happened since — calls that were in
// flight when the process died, and requests a person settled with `ccode approve/deny/answer`.
import { getCall, inFlightCalls, lastCallSeq, updateCall, type CallRow } from "../store/calls.ts"
import { getRequest, insertRequest } from "../store/requests.ts"
import { commitWithCheckpoint } from "./call.ts"
import type { InFlightAnswer, RunContext } from "./context.ts"
import { newId } from "./ids.ts"
import { endLeftovers, stillRunning } from "./leftovers.ts"
import { transition, type PlanEvent, itemOf } from "./plan.ts"

/** `retriesOf`: how often a step may be retried (for a call whose command is known to have failed). */
export async function reconcile(ctx: RunContext, retriesOf: (id: string) => number = () => ctx.governor.policy.limits.retries): Promise<void> {
  const apply = (event: PlanEvent) => (ctx.state.plan = transition(ctx.state.plan, event))
  // intents are committed without a checkpoint: new calls number on from the last one stored
  ctx.state.callSeq = Math.max(ctx.state.callSeq, lastCallSeq(ctx.store, ctx.runId))
  await settleInFlight(ctx, apply, retriesOf)
  for (const [id, waiting] of Object.entries(ctx.state.waiting)) {
    const request = getRequest(ctx.store, waiting.requestId)
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
        const call = getCall(ctx.store, waiting.call.callId)
        if (call && !(await endLeftovers(ctx, call))) continue
        const answer = await ctx.human.inFlight(ctx.runId, id, item.title)
        if (answer !== "later") applyInFlight(ctx, id, waiting.call.callId, answer, apply)
      }
      continue
    }
    if (waiting.kind === "in_flight") {
      // settled with approve/deny/answer while its processes may still run: "done" waits for them,
      // any other answer ends them first (a re-run never starts beside the old copy)
      const call = getCall(ctx.store, waiting.call!.callId)
      const answer = inFlightAnswer(request)
      if (call && !(await endLeftovers(ctx, call, answer === "done" ? "wait" : "kill"))) continue
    }
    delete ctx.state.waiting[id]
    ctx.recorder.event("request.settled", { req: request.id, kind: request.kind, status: request.status, answer: request.answer })
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
        const reason = `denied by ${request.settledBy ?? "a person"}${request.answer ? `: ${request.answer}` : ""}`
        if (waiting.call) updateCall(ctx.store, waiting.call.callId, { status: "denied", errorCode: "DENIED", errorType: "denied", errorMessage: reason, finishedAt: Date.now() })
        ctx.state.counters.denied++
        apply({ type: "fail", id, retry: false, denied: "person", note: reason })
      }
    } else applyInFlight(ctx, id, waiting.call!.callId, inFlightAnswer(request), apply)
  }
  // steps the policy denied are decided again: the policy may have changed since (a person's "no" stands)
  for (const item of ctx.state.plan.items) if (item.state === "failed" && item.denied === "policy") apply({ type: "release", id: item.id })
  ctx.state.stoppedBy = undefined
  commitWithCheckpoint(ctx)
}

function inFlightAnswer(request: { status: string; answer: string | null }): InFlightAnswer {
  return request.status === "approved" ? "rerun" : request.status === "denied" ? "fail" : request.answer?.trim() === "skip" ? "skip" : "done"
}

async function settleInFlight(ctx: RunContext, apply: (e: PlanEvent) => void, retriesOf: (id: string) => number): Promise<void> {
  for (const call of inFlightCalls(ctx.store, ctx.runId)) {
    const id = call.itemId
    const item = id ? itemOf(ctx.state.plan, id) : undefined
    const tool = ctx.registry.get(call.tool)?.tool
    // the intent is committed without a checkpoint, so the item may still read `ready`
    if (item?.state === "ready") ctx.state.plan = transition(ctx.state.plan, { type: "start", id: id! })
    if (!id || !item || !["ready", "active"].includes(item.state)) {
      updateCall(ctx.store, call.id, { status: "abandoned", finishedAt: Date.now() })
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
      updateCall(ctx.store, call.id, { status: "abandoned", finishedAt: Date.now(), errorMessage: "in flight at a crash; re-run (idempotent)" })
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
          applyInFlight(ctx, id, call.id, answer, apply)
          continue
        }
      }
    }
    requestInFlight(ctx, call, id, apply)
  }
}

/** Nobody can choose now: an in_flight request, settled later with approve / deny / answer. */
function requestInFlight(ctx: RunContext, call: CallRow, id: string, apply: (e: PlanEvent) => void): void {
  const running = stillRunning(call)
  const requestId = newId("q")
  const how = running
    ? `it is ${running}; approve to kill it and run it again, deny or answer "skip" to kill it, or answer "done" to wait for it`
    : `approve to run it again, deny to fail it, or answer "done" or "skip"`
  apply({ type: "wait", id, note: `was running when ccode stopped; ${how} (${requestId})` })
  ctx.state.waiting[id] = { kind: "in_flight", requestId, call: { callId: call.id, seq: call.seq } }
  ctx.recorder.event("request.created", { req: requestId, kind: "in_flight", call: call.id, step: id, tool: call.tool, args: JSON.parse(call.args), ...(running ? { pgid: call.pgid, still_running: true } : {}) })
  ctx.recorder.audit({ type: "permission", actor: "system", callId: call.id, tool: call.tool, action: "request:in_flight", result: "asked", reason: `call was in flight when ccode stopped${running ? `; ${running}` : ""}` })
  commitWithCheckpoint(ctx, () =>
    insertRequest(ctx.store, {
      id: requestId, runId: ctx.runId, callId: call.id, itemId: id, kind: "in_flight", status: "pending",
      title: `step ${id} (${call.tool}) was running when ccode stopped${running ? ` and is ${running}` : ""}: run it again?`, detail: call.args, createdAt: Date.now(),
    }),
  )
}

/** The command had exited before ccode stopped: its recorded exit status settles the call, as if it had returned. */
function settleExited(ctx: RunContext, call: CallRow, canRetry: boolean, apply: (e: PlanEvent) => void): void {
  const id = call.itemId!
  const ok = call.exitCode === 0
  const note = ok ? undefined : `command exited with code ${call.exitCode} (before ccode stopped)${canRetry ? "; retrying" : ""}`
  updateCall(ctx.store, call.id, {
    status: ok ? "ok" : "error", finishedAt: Date.now(), output: "(finished before ccode stopped; its output was not kept)",
    errorCode: ok ? null : "EXIT_CODE", errorType: ok ? null : "execution", errorMessage: note ?? null,
  })
  ctx.recorder.audit({
    type: "tool_call", actor: "system", callId: call.id, tool: call.tool, action: "run", result: ok ? "success" : "failed",
    reason: `its command had exited with code ${call.exitCode} before ccode stopped; recorded from that status, not run again`,
  })
  if (ok) apply({ type: "succeed", id })
  else apply({ type: "fail", id, retry: canRetry, note })
}

function applyInFlight(ctx: RunContext, id: string, callId: string, answer: InFlightAnswer, apply: (e: PlanEvent) => void): void {
  const call = getCall(ctx.store, callId)
  ctx.recorder.audit({ type: "permission", actor: "user", callId, tool: call?.tool ?? null, action: `in_flight:${answer}`, result: answer === "fail" ? "denied" : "approved" })
  if (answer === "rerun") {
    ctx.state.pending[id] = { callId, seq: call?.seq ?? ++ctx.state.callSeq, approved: true }
    apply({ type: "reset", id, note: "in flight at a crash; running again" })
    return
  }
  const done = answer === "done"
  updateCall(ctx.store, callId, {
    status: done ? "ok" : "abandoned",
    finishedAt: Date.now(),
    errorMessage: done ? null : `in flight at a crash; ${answer === "skip" ? "skipped" : "marked failed"} by a person`,
    output: done ? "(marked done by a person after a crash)" : null,
  })
  if (done) {
    apply({ type: "release", id })
    apply({ type: "start", id })
    apply({ type: "succeed", id })
  } else if (answer === "skip") apply({ type: "skip", id, note: "in flight at a crash; skipped by a person" })
  else apply({ type: "fail", id, retry: false, note: "in flight at a crash; marked failed by a person" })
}
