// Gates before a step runs: breakpoints (confirm before this step). With a person: prompt
// continue / skip / stop; without one: a request, and the run pauses (exit 3).
import { commitWithCheckpoint } from "./call.ts"
import type { RunContext } from "./context.ts"
import { newId } from "./ids.ts"
import { transition, itemOf } from "./plan.ts"

export type GateResult = "continue" | "skip" | "waiting"

export async function breakpointGate(ctx: RunContext, id: string): Promise<GateResult> {
  const item = itemOf(ctx.state.plan, id)!
  if (ctx.human.interactive) {
    const answer = await ctx.human.breakpoint(ctx.runId, id, item.title)
    ctx.recorder.audit({ type: "permission", actor: "user", action: `breakpoint:${answer}`, result: answer === "continue" ? "approved" : "denied", reason: `breakpoint before ${id}` })
    if (answer === "continue") {
      ctx.state.passed.push(id)
      await commitWithCheckpoint(ctx)
      return "continue"
    }
    if (answer === "skip") {
      ctx.state.plan = transition(ctx.state.plan, { type: "skip", id, note: "skipped at its breakpoint" })
      await commitWithCheckpoint(ctx)
      return "skip"
    }
  }
  const requestId = newId("q")
  ctx.state.plan = transition(ctx.state.plan, { type: "wait", id, note: `breakpoint: waiting for confirmation (${requestId})` })
  ctx.state.waiting[id] = { kind: "breakpoint", requestId }
  ctx.recorder.event("request.created", { req: requestId, kind: "breakpoint", step: id, title: item.title })
  ctx.recorder.audit({ type: "permission", actor: "system", action: "request:breakpoint", result: "asked", reason: `breakpoint before ${id}`, data: { request: requestId } })
  await commitWithCheckpoint(ctx, {
    requests: [{
      id: requestId, runId: ctx.runId, itemId: id, kind: "breakpoint", status: "pending",
      title: ctx.redactor.text(`breakpoint before step ${id}: ${item.title}`), createdAt: Date.now(),
    }],
  })
  return "waiting"
}
