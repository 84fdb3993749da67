// What the agent waits for a person about: a question (ask_user), an approval, or a call that was in
// flight at a crash. With a person at the terminal it asks now; without, it writes a request and the
// run pauses (exit 3) until `ccode answer|approve|deny` and `ccode resume` settle it.
import { saveAgent } from "./save.ts"
import type { InFlightAnswer, RunContext } from "../runner/context.ts"
import { endLeftovers } from "../runner/leftovers.ts"
import { denialReason, denyWaitingCall, inFlightAnswer, leftoverChoice, reportSettled, inFlightRequest, answerInFlightCall } from "../runner/requests.ts"
import type { RequestRow } from "../store/requests.ts"
import { append } from "./calls.ts"
import { noteMessage, refusalMessage } from "./conversation.ts"
import type { AgentState, AgentWaiting, ToolCall } from "./types.ts"

/** Settle what the agent waits for, if anything; true while it still waits (the run pauses). */
export async function settleWaiting(ctx: RunContext, agent: AgentState): Promise<boolean> {
  const waiting = agent.waiting
  if (!waiting) return false
  const request = waiting.kind === "question" && !waiting.created ? undefined : await ctx.store.getRequest(waiting.requestId)
  if (waiting.kind === "in_flight" && !(await endInFlightLeftovers(ctx, waiting, request))) return true
  if (request && request.status !== "pending") {
    reportSettled(ctx, request)
    settleFromRequest(ctx, agent, waiting, request)
  } else if (ctx.human.interactive) {
    if (await askNow(ctx, agent, waiting, request)) return true
  } else {
    if (waiting.kind === "question" && !waiting.created) await createQuestion(ctx, agent, waiting)
    return true
  }
  await saveAgent(ctx, agent)
  return false
}

/** An in-flight call's processes may still run: "done" waits for them, any other answer kills them first. */
async function endInFlightLeftovers(ctx: RunContext, waiting: { callId: string; call: ToolCall }, request: RequestRow | undefined): Promise<boolean> {
  const row = { id: waiting.callId, tool: waiting.call.tool, itemId: waiting.call.key, pgid: (await ctx.store.getCall(waiting.callId))?.pgid ?? null }
  if (request && request.status !== "pending") return endLeftovers(ctx, row, leftoverChoice(inFlightAnswer(request)))
  return ctx.human.interactive ? endLeftovers(ctx, row) : true
}

function settleFromRequest(ctx: RunContext, agent: AgentState, waiting: AgentWaiting, request: RequestRow): void {
  delete agent.waiting
  if (waiting.kind === "question") {
    const text = request.status === "answered" ? `the user answered: ${request.answer ?? ""}` : `the user declined to answer${request.answer ? `: ${request.answer}` : ""}`
    append(ctx, agent, noteMessage(waiting.call, text, request.status !== "answered"))
    return
  }
  if (waiting.kind === "approval") {
    if (request.status === "approved") {
      agent.pending = { key: waiting.call.key, call: { callId: waiting.callId, seq: waiting.seq, approved: true, forRun: Boolean(request.forRun), ...(waiting.shown && { shown: waiting.shown }) } }
      return
    }
    const reason = denialReason(request)
    denyWaitingCall(ctx, waiting.callId, reason)
    append(ctx, agent, refusalMessage(waiting.call, reason))
    return
  }
  applyInFlight(ctx, agent, waiting.call, { callId: waiting.callId, seq: waiting.seq }, inFlightAnswer(request))
}

/** Ask the person now; true when they gave no answer (Ctrl-C) and the agent still waits. */
async function askNow(ctx: RunContext, agent: AgentState, waiting: AgentWaiting, request: RequestRow | undefined): Promise<boolean> {
  if (waiting.kind === "question") {
    const answer = await ctx.human.question(ctx.runId, waiting.questions, waiting.options)
    if (request) ctx.recorder.stage({ settlements: [{ id: request.id, status: "answered", answer, settledBy: "prompt" }] })
    ctx.recorder.audit({ type: "permission", actor: "user", tool: "ask_user", action: "answer", result: "approved", reason: "answered at the prompt" })
    delete agent.waiting
    append(ctx, agent, noteMessage(waiting.call, `the user answered: ${answer}`))
    return false
  }
  if (waiting.kind === "approval") {
    // a person is here now: the call is decided again and asked at the prompt
    if (request) ctx.recorder.stage({ settlements: [{ id: request.id, status: "answered", answer: "asked again at the terminal", settledBy: "resume" }] })
    delete agent.waiting
    agent.pending = { key: waiting.call.key, call: { callId: waiting.callId, seq: waiting.seq } }
    return false
  }
  const answer = await ctx.human.inFlight(ctx.runId, waiting.call.key, `${waiting.call.tool} ${JSON.stringify(waiting.call.args)}`)
  if (answer === "later") return true
  if (request) ctx.recorder.stage({ settlements: [{ id: request.id, status: answer === "fail" ? "denied" : answer === "rerun" ? "approved" : "answered", answer, settledBy: "prompt" }] })
  delete agent.waiting
  applyInFlight(ctx, agent, waiting.call, { callId: waiting.callId, seq: waiting.seq }, answer)
  return false
}

/** A call in flight at a crash, decided by a person: run it again, or tell the model what became of it. */
export function applyInFlight(ctx: RunContext, agent: AgentState, call: ToolCall, row: { callId: string; seq: number }, answer: InFlightAnswer): void {
  answerInFlightCall(ctx, { callId: row.callId, tool: call.tool }, answer)
  if (answer === "rerun") {
    agent.pending = { key: call.key, call: { ...row, approved: true } }
    return
  }
  const done = answer === "done"
  const text = done
    ? "this call was running when ccode stopped; a person confirmed it finished, but its output was not kept"
    : `this call was running when ccode stopped and was not run again (${answer === "skip" ? "skipped" : "marked failed"} by a person); it may or may not have taken effect`
  append(ctx, agent, noteMessage(call, text, !done))
}

/** The in-flight request for a call that was running at a crash and cannot safely run twice. */
export async function requestInFlight(ctx: RunContext, agent: AgentState, call: ToolCall, row: { callId: string; seq: number; pgid: number | null }, requestId: string): Promise<void> {
  agent.waiting = { kind: "in_flight", requestId, call, callId: row.callId, seq: row.seq }
  const { writes } = inFlightRequest(ctx, { requestId, call: { id: row.callId, tool: call.tool, itemId: call.key, pgid: row.pgid, args: call.args }, name: `call ${call.key}` })
  await saveAgent(ctx, agent, writes)
}

async function createQuestion(ctx: RunContext, agent: AgentState, waiting: Extract<AgentWaiting, { kind: "question" }>): Promise<void> {
  waiting.created = true
  const title = ctx.redactor.text(waiting.questions.join(" / "))
  ctx.recorder.event("request.created", { req: waiting.requestId, kind: "question", step: waiting.call.key, tool: "ask_user", questions: waiting.questions, options: waiting.options })
  ctx.recorder.audit({ type: "permission", actor: "agent", tool: "ask_user", action: "request:question", result: "asked", reason: title })
  await saveAgent(ctx, agent, {
    requests: [{
      id: waiting.requestId, runId: ctx.runId, itemId: waiting.call.key, kind: "question", status: "pending", title,
      detail: JSON.stringify(ctx.redactor.value({ questions: waiting.questions, options: waiting.options })), createdAt: Date.now(),
    }],
  })
}
