// One tool call the model proposed, run through the runner's runCall (decide, ask, write-ahead,
// execute, commit). Its outcome lands in the conversation inside `applyOutcome`, so the checkpoint written
// with the call's result already holds the tool message: a crash never loses or repeats it.
import type { Redactor } from "../redact/index.ts"
import { policyStamp } from "../policy/fingerprint.ts"
import { runCall, type CallOutcome } from "../runner/call.ts"
import type { RunContext } from "../runner/context.ts"
import { newId } from "../runner/ids.ts"
import { PLAN_STATUSES } from "../tools/builtin/agent.ts"
import { applyPlanUpdate, type PlanUpdate } from "./plan.ts"
import { refusalMessage, resultMessage } from "./conversation.ts"
import { saveAgent } from "./save.ts"
import type { AgentState, Message, ToolCall } from "./types.ts"

export async function runModelCall(ctx: RunContext, agent: AgentState, call: ToolCall, offered: ReadonlySet<string>): Promise<void> {
  const pending = agent.pending?.key === call.key ? agent.pending.call : undefined
  if (!offered.has(call.tool)) return refuseUnoffered(ctx, agent, call, offered)
  if (!call.args || typeof call.args !== "object" || Array.isArray(call.args)) {
    append(ctx, agent, { role: "tool", id: call.id, tool: call.tool, error: true, text: `error INVALID_PARAM: the arguments must be a JSON object, got ${JSON.stringify(call.args)}` })
    return await saveAgent(ctx, agent)
  }
  const args = call.args as Record<string, unknown>
  const applyOutcome = (outcome: CallOutcome) => {
    delete agent.pending
    switch (outcome.kind) {
      case "halted":
        return // a guard stopped the run first: the call runs on resume
      case "interrupted":
        return // stopped by a signal part-way: in flight, a person settles it on resume
      case "waiting":
        agent.waiting = { kind: "approval", requestId: outcome.requestId, call, callId: outcome.callId, seq: outcome.seq, ...(outcome.shown && { shown: outcome.shown }) }
        return
      case "denied":
        append(ctx, agent, refusalMessage(call, outcome.decision.reason))
        return
      case "ran":
        if (outcome.result.status === "ok") {
          if (call.tool === "ask_user") {
            // the answer is the result: a person gives it at the prompt, or later with `ccode answer`
            const { questions, options } = args as { questions: string[]; options?: string[] }
            agent.waiting = { kind: "question", requestId: newId("q"), call, questions, options, created: false }
            return
          }
          applyEffect(ctx, agent, call.tool, args)
        }
        append(ctx, agent, resultMessage(call, outcome.result))
    }
  }
  await runCall(ctx, { tool: call.tool, args, itemId: call.key }, applyOutcome, pending)
}

/** What the agent-only tools mean for the run, applied to its state before the result is committed. */
function applyEffect(ctx: RunContext, agent: AgentState, tool: string, args: Record<string, unknown>): void {
  if (tool === "finish") {
    const { success, summary } = args as { success: boolean; summary: string }
    agent.outcome = { status: success ? "completed" : "failed", message: ctx.redactor.text(summary) }
  } else if (tool === "update_plan") {
    const items = (args.items as PlanUpdate[]).filter((i) => (PLAN_STATUSES as readonly string[]).includes(i.status))
    ctx.state.plan = applyPlanUpdate(ctx.state.plan, items.map((i) => ({ ...i, title: ctx.redactor.text(i.title) })))
    ctx.recorder.event("plan.updated", { items: ctx.state.plan.items.map((i) => ({ id: i.id, title: i.title, state: i.state })) })
  }
}

async function refuseUnoffered(ctx: RunContext, agent: AgentState, call: ToolCall, offered: ReadonlySet<string>): Promise<void> {
  const reason = `the tool "${call.tool}" is not offered in this task (agent.tools: ${[...offered].join(", ")})`
  ctx.recorder.audit({ type: "decision", actor: "policy", tool: call.tool, action: "decide", result: "denied", reason, data: { args: call.args, call: call.key, ...policyStamp(ctx.governor.policy) } })
  ctx.state.counters.denied++
  append(ctx, agent, refusalMessage(call, reason))
  await saveAgent(ctx, agent)
}

/** Add a message to the conversation, redacted: the conversation is stored in the checkpoint. */
export function append(ctx: { redactor: Redactor }, agent: AgentState, message: Message): void {
  agent.messages.push(redact(ctx.redactor, message))
}

export function redact(redactor: Redactor, message: Message): Message {
  switch (message.role) {
    case "user":
    case "tool":
      return { ...message, text: redactor.text(message.text) }
    case "assistant":
      return { ...message, text: redactor.text(message.text), calls: message.calls.map((c) => ({ ...c, args: redactor.value(c.args) })) }
  }
}
