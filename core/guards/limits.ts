// Run limits: turns, tool calls, depth, tokens, cost and wall time (counted across resumes), and
// which timeout a tool call gets. Pure: `now` is always passed in.
import type { Policy } from "../policy/types.ts"
import { formatDuration, parseDuration } from "../base/duration.ts"
import { trip, type Trip } from "./trip.ts"

export type Limits = Policy["limits"]
/**
 * Step/call/depth limits bound agent runs only (an MCP session counts as one); a scripted plan is
 * bounded by itself. Checkpoints written before this name was settled say "plan" for "steps".
 */
export type Driver = "agent" | "steps"

export interface Usage {
  steps: number
  toolCalls: number
  tokens: number
  cost: number
}

/** Wall time: the ms of earlier segments plus the running one. A segment is one process's share of the run. */
export interface WallClock {
  elapsedMs: number
  /** start of the running segment; undefined while paused */
  segmentStart?: number
  /** last time the run was seen alive: a segment that never ended (crash) counts up to here */
  lastSeen?: number
}

export const NO_USAGE: Usage = { steps: 0, toolCalls: 0, tokens: 0, cost: 0 }

export function wallTimeUsed(clock: WallClock, now: number): number {
  return clock.elapsedMs + (clock.segmentStart === undefined ? 0 : Math.max(0, now - clock.segmentStart))
}

/** A process starts (or resumes) the run. A segment left open by a crash counts until it was last seen. */
export function startSegment(clock: WallClock, now: number): WallClock {
  let elapsedMs = clock.elapsedMs
  if (clock.segmentStart !== undefined) elapsedMs += Math.max(0, (clock.lastSeen ?? clock.segmentStart) - clock.segmentStart)
  return { elapsedMs, segmentStart: now, lastSeen: now }
}

/** The run pauses or ends: time until the person resumes it is not the run's. */
export function endSegment(clock: WallClock, now: number): WallClock {
  return { elapsedMs: wallTimeUsed(clock, now), lastSeen: now }
}

export function touch(clock: WallClock, now: number): WallClock {
  return { ...clock, lastSeen: Math.max(now, clock.lastSeen ?? now) }
}

export function remainingWallTime(clock: WallClock, now: number, limits: Limits): number {
  return Math.max(0, limits.max_wall_time - wallTimeUsed(clock, now))
}

/** Before a tool call: wall time for every run; tool calls and depth for agent runs. */
export function limitBeforeCall(limits: Limits, usage: Usage, clock: WallClock, now: number, driver: Driver, depth = 0): Trip | undefined {
  const wall = wallTrip(limits, clock, now)
  if (wall) return wall
  if (driver !== "agent") return undefined
  if (usage.toolCalls >= limits.max_tool_calls) {
    return limitTrip("max_tool_calls", `${usage.toolCalls} of ${limits.max_tool_calls} tool calls used`, usage.toolCalls, limits.max_tool_calls)
  }
  if (depth > limits.max_depth) {
    const reason =
      `Limit reached: max_depth — a call at nesting depth ${depth} was refused (limits.max_depth: ${limits.max_depth}).` +
      " Raise limits.max_depth in the policy to allow deeper nesting."
    return trip("limit", "deny", reason, { limit: "max_depth", used: depth, max: limits.max_depth })
  }
  return undefined
}

/** Before an agent turn (a model request): wall time, turns, tokens and cost. */
export function limitBeforeTurn(limits: Limits, usage: Usage, clock: WallClock, now: number, driver: Driver): Trip | undefined {
  const wall = wallTrip(limits, clock, now)
  if (wall) return wall
  if (driver === "agent" && usage.steps >= limits.max_steps) {
    return limitTrip("max_steps", `${usage.steps} of ${limits.max_steps} agent turns used`, usage.steps, limits.max_steps, "--max-steps N")
  }
  if (limits.max_tokens !== undefined && usage.tokens >= limits.max_tokens) {
    return limitTrip("max_tokens", `${usage.tokens} of ${limits.max_tokens} tokens used`, usage.tokens, limits.max_tokens)
  }
  if (limits.max_cost !== undefined && usage.cost >= limits.max_cost) {
    return limitTrip("max_cost", `${round(usage.cost)} of ${limits.max_cost} spent`, round(usage.cost), limits.max_cost)
  }
  return undefined
}

/**
 * The timeout of one call. The policy is the ceiling: its per-tool value, else the tool's own
 * declared timeout, else limits.tool_timeout. A step's (or the agent's) `timeout` may only shorten it,
 * so an argument can never outlast what the policy allows.
 */
export function toolTimeoutFor(limits: Limits, toolName: string, toolDeclared?: string | number, stepOverride?: string | number, mayExceed = false): number {
  const declared = toolDeclared === undefined ? undefined : parseDuration(toolDeclared)
  const ceiling = limits.tool_timeouts[toolName] ?? declared ?? limits.tool_timeout
  const override = stepOverride === undefined ? undefined : parseDuration(stepOverride)
  // a step written in a trusted task may ask for more, up to limits.max_tool_timeout (set only for
  // trusted tasks: see core/runner/prepare.ts); a model's `timeout` argument never can
  const most = mayExceed && limits.max_tool_timeout !== undefined ? Math.max(ceiling, limits.max_tool_timeout) : ceiling
  return override !== undefined && override > 0 ? Math.min(override, most) : ceiling
}

function wallTrip(limits: Limits, clock: WallClock, now: number): Trip | undefined {
  const used = wallTimeUsed(clock, now)
  if (used < limits.max_wall_time) return undefined
  const what = `${formatDuration(used)} of ${formatDuration(limits.max_wall_time)} wall time used (across resumes)`
  return limitTrip("max_wall_time", what, used, limits.max_wall_time)
}

function limitTrip(limit: string, what: string, used: number, max: number, flag?: string): Trip {
  const raise = flag ? `raise limits.${limit} in the policy (or ${flag})` : `raise limits.${limit} in the policy`
  const reason = `Limit reached: ${limit} — ${what}. To go on, ${raise}, then \`ccode resume\`.`
  return trip("limit", "pause", reason, { limit, used, max })
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000
}
