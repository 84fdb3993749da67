// Token use and cost of each model turn: the usage row, the agent.usage event, and the guard
// state that limits.max_tokens and limits.max_cost are checked against.
import { recordUsage } from "../guards/index.ts"
import type { Policy } from "../policy/types.ts"
import type { RunContext } from "../runner/context.ts"
import type { StateWrites } from "../runner/recorder.ts"
import type { AgentState, ModelTurn } from "./types.ts"

/** Cost of one turn from the policy's prices (per million tokens); undefined when the model has no price. Pure. */
export function turnCost(prices: Policy["prices"], model: string, used: ModelTurn["usage"]): number | undefined {
  const price = prices[model]
  if (!price) return undefined
  return (used.input * price.input_per_mtok + used.output * price.output_per_mtok) / 1_000_000
}

/**
 * Count a turn's usage into the agent state and the guards and buffer its event. Its usage row waits
 * in the state (so every checkpoint carries it) until the driver's next own commit writes it with
 * `saveUsage`: one transaction less per turn.
 */
export function countUsage(ctx: RunContext, agent: AgentState, turn: number, model: string, used: ModelTurn["usage"]): void {
  const policy = ctx.governor.policy
  const priced = turnCost(policy.prices, model, used)
  if (priced === undefined && policy.limits.max_cost !== undefined && model !== "replay" && !agent.warned.includes(`price:${model}`)) {
    agent.warned.push(`price:${model}`)
    const message = `limits.max_cost is set but the policy has no price for model "${model}" (prices.${model}: {input_per_mtok, output_per_mtok}); its cost counts as 0`
    ctx.recorder.event("policy.warning", { message })
    ctx.recorder.audit({ type: "policy", actor: "policy", action: "missing_price", reason: message })
  }
  const cost = priced ?? 0
  agent.usage = { input: agent.usage.input + used.input, output: agent.usage.output + used.output, cost: agent.usage.cost + cost }
  ctx.state.guards = recordUsage(ctx.state.guards, { tokens: used.input + used.output, cost }, Date.now())
  ctx.recorder.event("agent.usage", {
    turn, model, input_tokens: used.input, output_tokens: used.output, cost,
    total_tokens: agent.usage.input + agent.usage.output, total_cost: agent.usage.cost,
  })
  ;(agent.unsaved ??= []).push({ turn, model, input: used.input, output: used.output, cost, at: Date.now() })
}

/** The buffered usage rows, for the commit about to be made (cleared before its checkpoint is serialised). */
export function saveUsage(agent: AgentState): StateWrites {
  const rows = agent.unsaved
  if (!rows?.length) return {}
  delete agent.unsaved
  return { usage: rows.map((r) => ({ turn: r.turn, model: r.model, inputTokens: r.input, outputTokens: r.output, cost: r.cost, createdAt: r.at })) }
}
