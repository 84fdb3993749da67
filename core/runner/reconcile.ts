// On resume: bring the checkpoint up to date with what happened since — calls that were in
// flight when the process died, and requests a person settled with `ccode approve/deny/answer`.
import { getCall, inFlightCalls, lastCallSeq, updateCall } from "../store/calls.ts"
import { getRequest, insertRequest } from "../store/requests.ts"
import { commit } from "./call.ts"
import type { InFlightAnswer, RunContext } from "./context.ts"
import { newId } from "./ids.ts"
import { transition, type PlanEvent, itemOf } from "./plan.ts"

export async function reconcile(ctx: RunContext): Promise<void> {
  const apply = (event: PlanEvent) => (ctx.state.plan = transition(ctx.state.plan, event))
  // intents are committed without a checkpoint: new calls number on from the last one stored
  ctx.state.callSeq = Math.max(ctx.state.callSeq, lastCallSeq(ctx.store, ctx.runId))
  await settleInFlight(ctx, apply)
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
        const answer = await ctx.human.inFlight(ctx.runId, id, item.title)
        applyInFlight(ctx, id, waiting.call.callId, answer, apply)
      }
      continue
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
    } else {
      const answer: InFlightAnswer =
        request.status === "approved" ? "rerun" : request.status === "denied" ? "fail" : request.answer?.trim() === "skip" ? "skip" : "done"
      applyInFlight(ctx, id, waiting.call!.callId, answer, apply)
    }
  }
  // steps the policy denied are decided again: the policy may have changed since (a person's "no" stands)
  for (const item of ctx.state.plan.items) if (item.state === "failed" && item.denied === "policy") apply({ type: "release", id: item.id })
  ctx.state.stoppedBy = undefined
  commit(ctx)
}

async function settleInFlight(ctx: RunContext, apply: (e: PlanEvent) => void): Promise<void> {
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
    if (tool?.idempotent) {
      // safe to run again: a fresh call replaces the one that died
      updateCall(ctx.store, call.id, { status: "abandoned", finishedAt: Date.now(), errorMessage: "in flight at a crash; re-run (idempotent)" })
      apply({ type: "reset", id, note: "in flight at a crash; running again" })
      continue
    }
    if (ctx.human.interactive || ctx.approveAll) {
      // `resume --approve-all` settles a call found in flight now like any pending request: run it again
      const answer = ctx.approveAll ? "rerun" : await ctx.human.inFlight(ctx.runId, id, item.title)
      apply({ type: "wait", id, note: "in flight at a crash" })
      applyInFlight(ctx, id, call.id, answer, apply)
      continue
    }
    const requestId = newId("q")
    apply({ type: "wait", id, note: `was running when ccode stopped; approve to run it again, deny to fail it, or answer "done" (${requestId})` })
    ctx.state.waiting[id] = { kind: "in_flight", requestId, call: { callId: call.id, seq: call.seq } }
    ctx.recorder.event("request.created", { req: requestId, kind: "in_flight", call: call.id, step: id, tool: call.tool, args: JSON.parse(call.args) })
    ctx.recorder.audit({ type: "permission", actor: "system", callId: call.id, tool: call.tool, action: "request:in_flight", result: "asked", reason: "call was in flight when the process died" })
    commit(ctx, () =>
      insertRequest(ctx.store, {
        id: requestId, runId: ctx.runId, callId: call.id, itemId: id, kind: "in_flight", status: "pending",
        title: `step ${id} (${call.tool}) was running when ccode stopped: run it again?`, detail: call.args, createdAt: Date.now(),
      }),
    )
  }
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
