// Steering a live run from outside the runner (the terminal panel): pause between calls, stop before
// chosen steps, and a read-only look at the run. The runner only asks `gate`; it never knows who answers.
import { pauseGuards } from "../guards/index.ts"
import type { Policy } from "../policy/types.ts"
import { wallTime, type RunContext } from "./context.ts"
import type { PlanItem } from "./plan.ts"

/** What a view may see of a run: plan items, usage and the budgets they count against. */
export interface RunLook {
  driver: "steps" | "agent"
  items: readonly PlanItem[]
  usage: { steps: number; tokens: number; cost: number }
  wallMs: number
  limits: Pick<Policy["limits"], "max_steps" | "max_wall_time" | "max_tokens" | "max_cost">
}

export interface RunControl {
  /** the run offers its look; a view pulls it whenever it repaints */
  attach(runId: string, look: () => RunLook): void
  /**
   * Asked between calls: before a step starts (its id) or before an agent turn (undefined).
   * Resolves when the run may go on, or when `signal` aborts (the run is stopping).
   */
  gate(runId: string, step: string | undefined, signal: AbortSignal): Promise<void>
}

export function lookOf(ctx: RunContext): RunLook {
  const { max_steps, max_wall_time, max_tokens, max_cost } = ctx.governor.policy.limits
  const usage = ctx.state.guards.usage
  return {
    driver: ctx.task.spec.agent ? "agent" : "steps",
    items: ctx.state.plan.items,
    usage: { steps: ctx.task.spec.agent ? usage.steps : ctx.state.plan.items.filter((i) => i.state === "done").length, tokens: usage.tokens, cost: usage.cost },
    wallMs: wallTime(ctx),
    limits: { max_steps, max_wall_time, max_tokens, max_cost },
  }
}

/** Wait at the control (if any). False: the run is stopping, start nothing. */
export async function passGate(ctx: RunContext, step?: string): Promise<boolean> {
  if (!ctx.control || ctx.stop) return !ctx.stop
  const asked = Date.now()
  await ctx.control.gate(ctx.runId, step, ctx.cancel.signal)
  const now = Date.now()
  // time spent paused by a person is not the run's: it does not count against max_wall_time
  if (now - asked > 1000) {
    const paused = pauseGuards(ctx.state.guards, asked)
    ctx.state.guards = { ...paused, clock: { ...paused.clock, segmentStart: now, lastSeen: now } }
  }
  return !ctx.stop
}
