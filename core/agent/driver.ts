// The agent driver: turn -> the model's tool calls -> one decision each -> execution -> results back
// to the model -> next turn, until it finishes, answers without tool calls, waits for a person, or a
// guard or limit stops it. Everything it knows lives in ctx.state.agent, checkpointed with each call.
import { afterTurn, checkBeforeTurn, diffFingerprints, type Fingerprint } from "../guards/index.ts"
import { trip, type Trip } from "../guards/trip.ts"
import type { RunContext } from "../runner/context.ts"
import { haltOrContinue } from "../runner/guarding.ts"
import { passGate } from "../runner/control.ts"
import { scratchpadTool } from "../tools/builtin/agent.ts"
import { isReadOnly } from "../tools/declare.ts"
import { append, runModelCall } from "./calls.ts"
import { assistantMessage, firstLine, lastAssistant, newAgentState, openCalls } from "./conversation.ts"
import { askModel, createProvider } from "./model.ts"
import { toolSpec } from "./prompt.ts"
import { prepareAgent, type AgentSetup } from "./setup.ts"
import type { AgentState, Message, Provider } from "./types.ts"
import { countUsage } from "./usage.ts"
import { attachHistory } from "./history.ts"
import { saveAgent } from "./save.ts"
import { settleWaiting } from "./waiting.ts"

/** Tools whose success says nothing about the workspace changing (for the stall guard without a fingerprint). */

export async function driveAgent(ctx: RunContext): Promise<void> {
  // checked when the run was prepared; read again here so a resume uses the task file as it is now
  const setup = prepareAgent(ctx.task, ctx.registry, ctx.env, ctx.inputs)
  const agent = await attachHistory(ctx.store, ctx.runId, (ctx.state.agent ??= newAgentState(ctx.redactor.text(setup.goal))))
  // the scratchpad reads and writes this run's own notes
  ctx.registry.set("scratchpad", { tool: scratchpadTool(() => agent.scratchpad), source: "builtin" })
  const offered = new Set(setup.tools)
  const specs = setup.tools.map((name) => toolSpec(ctx.registry.get(name)!.tool))
  let provider: Provider | undefined
  let mark: { turn: number; fingerprint?: Fingerprint } | undefined
  while (!ctx.stop && !agent.outcome) {
    if (!(await passGate(ctx))) break // paused in the panel: between calls, never inside one
    if (agent.waiting && (await settleWaiting(ctx, agent))) break
    if (ctx.stop || agent.outcome) break
    const open = openCalls(agent)
    if (open.length) {
      const call = open[0]!
      await runModelCall(ctx, agent, call, offered)
      if (!ctx.stop && !agent.waiting && !agent.outcome && openCalls(agent)[0] === call) {
        agent.outcome = { status: "failed", message: `internal error: call ${call.key} (${call.tool}) could not be settled` }
      }
      continue
    }
    const last = lastAssistant(agent)
    if (last && !last.closed) {
      await closeTurn(ctx, agent, last, mark?.turn === last.turn ? mark.fingerprint : undefined)
      continue
    }
    if (!(await mayTakeTurn(ctx, agent, setup))) break
    provider ??= await createProvider(setup, ctx.env)
    const answer = await askModel(ctx, agent, provider, setup, specs)
    if (!answer) break
    const turn = ++agent.turns
    ctx.state.counters.turns = turn
    mark = { turn, fingerprint: ctx.fingerprint }
    const message = assistantMessage(agent, turn, answer)
    append(ctx, agent, message)
    const stored = agent.messages[agent.messages.length - 1] as Extract<Message, { role: "assistant" }>
    ctx.recorder.event("agent.message", { turn, text: stored.text, calls: stored.calls.map((c) => ({ id: c.id, key: c.key, tool: c.tool, args: c.args })) })
    countUsage(ctx, agent, turn, provider.model, answer.usage)
    if (!stored.calls.length) {
      stored.closed = true
      agent.outcome = { status: "completed", message: firstLine(stored.text) || "the agent answered without calling a tool" }
    }
    // checkpointed before any of its calls runs: a call in flight at a crash is found in its turn
    await saveAgent(ctx, agent)
  }
  // whatever ended this segment, its usage rows are in the table before summary.md is written
  await saveAgent(ctx, agent)
}

/** All of a turn's calls have results: count the turn for max_steps and the stall guard. */
async function closeTurn(ctx: RunContext, agent: AgentState, turn: Extract<Message, { role: "assistant" }>, before?: Fingerprint): Promise<void> {
  const after = ctx.fingerprint
  const workspaceChanged = before && after ? diffFingerprints(before, after).changed : wroteSomething(ctx, agent, turn)
  const next = afterTurn(ctx.state.guards, { workspaceChanged }, Date.now(), ctx.governor.policy)
  ctx.state.guards = next.state
  turn.closed = true
  // without a trip this rides along with the next commit: a crash before it just closes the turn again
  if (next.trip) {
    await haltOrContinue(ctx, next.trip)
    await saveAgent(ctx, agent)
  }
}

/** Limits before asking the model again: the policy's (turns, tokens, cost, wall time) and the task's max_turns. */
async function mayTakeTurn(ctx: RunContext, agent: AgentState, setup: AgentSetup): Promise<boolean> {
  const found = checkBeforeTurn(ctx.state.guards, Date.now(), ctx.governor.policy) ?? maxTurns(agent, setup)
  if (!found || (await haltOrContinue(ctx, found))) return true
  await saveAgent(ctx, agent)
  return false
}

function maxTurns(agent: AgentState, setup: AgentSetup): Trip | undefined {
  if (setup.maxTurns === undefined || agent.turns < setup.maxTurns) return undefined
  const reason = `Limit reached: max_turns — ${agent.turns} of ${setup.maxTurns} agent turns used (agent.max_turns in the task). To go on, raise it, then \`ccode resume\`.`
  return trip("limit", "pause", reason, { limit: "max_turns", used: agent.turns, max: setup.maxTurns })
}

function wroteSomething(ctx: RunContext, agent: AgentState, turn: Extract<Message, { role: "assistant" }>): boolean {
  const ids = new Set(turn.calls.filter((c) => !isReadOnly(ctx.registry.get(c.tool)?.tool)).map((c) => c.id))
  return agent.messages.some((m) => m.role === "tool" && ids.has(m.id) && !m.error)
}
