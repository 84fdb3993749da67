// What every driver does the same way with a person's requests: the in-flight request for a call that
// was running when ccode stopped (title and detail redacted), how a settled request reads (its
// in-flight answer, the reason of a denial), and what such an answer does to the call's row. The
// driver then goes on its own way: a plan item moves, or the model is told.
import type { RequestRow } from "../store/requests.ts"
import type { InFlightAnswer, RunContext } from "./context.ts"
import { stillRunning, type InFlightRow } from "./leftovers.ts"
import type { StateWrites } from "./recorder.ts"


/** approve: run it again; deny: it failed; answer "skip": skip it; any other answer: it was done. */
export function inFlightAnswer(request: Pick<RequestRow, "status" | "answer">): InFlightAnswer {
  return request.status === "approved" ? "rerun" : request.status === "denied" ? "fail" : request.answer?.trim() === "skip" ? "skip" : "done"
}

/** Processes of a call still running: "done" waits for them, any other answer ends them first (never two copies at once). */
export function leftoverChoice(answer: InFlightAnswer): "wait" | "kill" {
  return answer === "done" ? "wait" : "kill"
}

/** "denied by cli: not today" */
export function denialReason(request: Pick<RequestRow, "answer" | "settledBy">): string {
  return `denied by ${request.settledBy ?? "a person"}${request.answer ? `: ${request.answer}` : ""}`
}

/** Catch-up: the run's event stream learns a request was settled while ccode was not running. */
export function reportSettled(ctx: RunContext, request: RequestRow): void {
  ctx.recorder.event("request.settled", { req: request.id, kind: request.kind, status: request.status, answer: request.answer })
}

/** A person denied a call that waited for approval: its row and the run's count say so. */
export function denyWaitingCall(ctx: RunContext, callId: string | undefined, reason: string): void {
  if (callId) ctx.recorder.stage({ callPatches: [{ id: callId, patch: { status: "denied", errorCode: "DENIED", errorType: "denied", errorMessage: reason, finishedAt: Date.now() } }] })
  ctx.state.counters.denied++
}

/**
 * A person's answer about a call in flight at a crash, on the call's row and in the audit trail.
 * "rerun" leaves the row as it is: the same call runs again under its id.
 */
export function answerInFlightCall(ctx: RunContext, call: { callId: string; tool: string | null }, answer: InFlightAnswer): void {
  ctx.recorder.audit({ type: "permission", actor: "user", callId: call.callId, tool: call.tool, action: `in_flight:${answer}`, result: answer === "fail" ? "denied" : "approved" })
  if (answer === "rerun") return
  const done = answer === "done"
  ctx.recorder.stage({
    callPatches: [{ id: call.callId, patch: {
      status: done ? "ok" : "abandoned",
      finishedAt: Date.now(),
      errorMessage: done ? null : `in flight at a crash; ${answer === "skip" ? "skipped" : "marked failed"} by a person`,
      output: done ? "(marked done by a person after a crash)" : null,
    } }],
  })
}

export interface InFlightRequest {
  requestId: string
  call: InFlightRow & { args: unknown }
  /** how the request names the call: `step build`, `call t3.1` */
  name: string
}

/**
 * Nobody can choose now: an in_flight request, settled later with approve / deny / answer. Records
 * the event and audit row; returns the request's row write and what blocks the item, for the
 * driver's commit. The title and detail are redacted like every request's.
 */
export function inFlightRequest(ctx: RunContext, { requestId, call, name }: InFlightRequest): { writes: StateWrites; note: string } {
  const running = stillRunning(call)
  const how = running
    ? `it is ${running}; approve to kill it and run it again, deny or answer "skip" to kill it, or answer "done" to wait for it`
    : `approve to run it again, deny to fail it, or answer "done" or "skip"`
  ctx.recorder.event("request.created", {
    req: requestId, kind: "in_flight", call: call.id, step: call.itemId, tool: call.tool, args: call.args, ...(running ? { pgid: call.pgid, still_running: true } : {}),
  })
  ctx.recorder.audit({ type: "permission", actor: "system", callId: call.id, tool: call.tool, action: "request:in_flight", result: "asked", reason: `call was in flight when ccode stopped${running ? `; ${running}` : ""}` })
  const request = {
    id: requestId, runId: ctx.runId, callId: call.id, itemId: call.itemId, kind: "in_flight" as const, status: "pending" as const,
    title: ctx.redactor.text(`${name} (${call.tool}) was running when ccode stopped${running ? ` and is ${running}` : ""}: run it again?`),
    detail: JSON.stringify(ctx.redactor.value({ tool: call.tool, args: call.args })), createdAt: Date.now(),
  }
  return { writes: { requests: [request] }, note: `was running when ccode stopped; ${how} (${requestId})` }
}
