// All guard state of a run as one JSON value for the checkpoint, and the small pure steps the
// runner calls around turns and calls. Pure: no clock (`now` is passed in), no I/O, no randomness.
import type { Policy } from "../policy/types.ts"
import { breakerAllows, breakerResult, breakerStart, breakerTrip, breakerVerdict, CLOSED, type Breaker, type BreakerVerdict, type Transition } from "./breaker.ts"
import {
  endSegment, limitBeforeCall, limitBeforeTurn, NO_USAGE, startSegment, touch,
  type Driver, type Usage, type WallClock,
} from "./limits.ts"
import { detectLoop, loopEntry, loopTrip, remember, type CallSummary, type LoopEntry } from "./loop.ts"
import { outputHash } from "./similarity.ts"
import { NO_STALL, stallStep, stallTrip, type StallState } from "./stall.ts"
import type { Trip } from "./trip.ts"

export type GuardPolicy = Pick<Policy, "limits" | "loop_detection" | "circuit_breaker">

export interface GuardState {
  v: 1
  driver: Driver
  usage: Usage
  clock: WallClock
  /** recent calls for the loop detector (a ring, oldest first) */
  history: LoopEntry[]
  /** circuit breakers by tool name; a tool without one is closed */
  breakers: Record<string, Breaker>
  stall: StallState
  /** hashes of the current turn's successful outputs, consumed by afterTurn */
  turnOutputs: string[]
  /** the trip the run paused on; resumeGuards clears it */
  tripped?: Trip
}

/** The guards after one finished call: the new state, a trip if one fired, and what changed. */
export interface GuardUpdate {
  state: GuardState
  /** a pausing guard fired (also kept in state.tripped) */
  trip?: Trip
  transitions: Transition[]
}

/** A new run: the first wall-time segment starts now. */
export function initGuardState(driver: Driver, now: number): GuardState {
  return {
    v: 1, driver, usage: NO_USAGE, clock: startSegment({ elapsedMs: 0 }, now),
    history: [], breakers: {}, stall: NO_STALL, turnOutputs: [],
  }
}

/**
 * `ccode resume`: a new wall-time segment (a segment a crash left open counts until last seen),
 * and the person's "go on" settles the trip — the loop or stall evidence is forgotten so the same
 * evidence does not stop the run again at once. Limits are checked afresh against the current policy.
 */
export function resumeGuards(state: GuardState, now: number): GuardState {
  const next: GuardState = { ...state, clock: startSegment(state.clock, now) }
  delete next.tripped
  if (state.tripped?.guard === "loop") next.history = []
  if (state.tripped?.guard === "stalled") next.stall = { ...state.stall, noopTurns: 0 }
  return next
}

/** The run pauses or finishes: stop counting wall time. */
export function pauseGuards(state: GuardState, now: number): GuardState {
  return { ...state, clock: endSegment(state.clock, now) }
}

/** May this tool be called now? A pending pause, the limits, then the tool's circuit breaker. */
export function checkBeforeCall(state: GuardState, tool: string, now: number, policy: GuardPolicy, depth = 0): Trip | undefined {
  if (state.tripped) return state.tripped
  const limit = limitBeforeCall(policy.limits, state.usage, state.clock, now, state.driver, depth)
  if (limit) return limit
  const breaker = state.breakers[tool] ?? CLOSED
  if (!breakerAllows(breaker, now, policy.circuit_breaker)) return breakerTrip(tool, breaker, now, policy.circuit_breaker)
  return undefined
}

/** May the agent take another turn (ask the model again)? */
export function checkBeforeTurn(state: GuardState, now: number, policy: GuardPolicy): Trip | undefined {
  if (state.tripped) return state.tripped
  return limitBeforeTurn(policy.limits, state.usage, state.clock, now, state.driver)
}

/** A call passed checkBeforeCall and is about to run: count it; an open breaker past its recovery time lets it through as the trial. */
export function startCall(state: GuardState, tool: string, now: number, policy: GuardPolicy): { state: GuardState; transitions: Transition[] } {
  const started = breakerStart(tool, state.breakers[tool] ?? CLOSED, now, policy.circuit_breaker)
  const next: GuardState = {
    ...state,
    usage: { ...state.usage, toolCalls: state.usage.toolCalls + 1 },
    clock: touch(state.clock, now),
    breakers: { ...state.breakers, [tool]: started.breaker },
  }
  return { state: next, transitions: started.transition ? [started.transition] : [] }
}

/**
 * A call the agent proposed has an outcome — it ran, or it was refused (a refused call still
 * counts for the loop detector: proposing it again and again is a loop too). Calls that ran also
 * update the tool's breaker; `verdict` overrides how the result counts for it.
 */
export function recordCall(state: GuardState, summary: CallSummary, now: number, policy: GuardPolicy, verdict?: BreakerVerdict): GuardUpdate {
  const transitions: Transition[] = []
  let breakers = state.breakers
  const judged = verdict ?? breakerVerdict(summary.result)
  const current = state.breakers[summary.tool]
  if (current || judged === "failure") {
    const error = summary.result.error ? `${summary.result.error.code}: ${summary.result.error.message}` : undefined
    const after = breakerResult(summary.tool, current ?? CLOSED, judged, error, now, policy.circuit_breaker)
    if (after.transition) transitions.push(after.transition)
    breakers = { ...breakers, [summary.tool]: after.breaker }
  }
  // a scripted plan is bounded by itself and repeats steps on purpose (retries, `true` x 500):
  // the loop detector watches agents only
  const history = state.driver === "agent" ? remember(state.history, loopEntry(summary, now), policy.loop_detection) : state.history
  // the stall detector counts agent turns: a scripted plan has none, so nothing piles up here
  const turnOutputs = summary.result.status === "ok" && state.driver === "agent" ? [...state.turnOutputs, outputHash(summary.result.text ?? "")] : state.turnOutputs
  const next: GuardState = { ...state, breakers, history, turnOutputs, clock: touch(state.clock, now) }
  // when these failures just opened the tool's breaker, that is the answer: the agent is told the
  // tool is disabled; only if it keeps calling it do the refusals add up to a loop
  const opened = transitions.some((t) => t.to === "open")
  const finding = opened || state.driver !== "agent" ? undefined : detectLoop(history, now, policy.loop_detection)
  if (!finding) return { state: next, transitions }
  const found = loopTrip(finding, policy.loop_detection)
  return { state: { ...next, tripped: found }, trip: found, transitions }
}

export interface TurnReport {
  /** the workspace changed during the turn (by ccode's own calls) */
  workspaceChanged: boolean
  tokens?: number
  cost?: number
}

/** An agent turn ended: count it, add its usage, and look for a stall. */
export function afterTurn(state: GuardState, turn: TurnReport, now: number, policy: GuardPolicy): { state: GuardState; trip?: Trip } {
  const usage: Usage = {
    ...state.usage,
    steps: state.usage.steps + 1,
    tokens: state.usage.tokens + (turn.tokens ?? 0),
    cost: state.usage.cost + (turn.cost ?? 0),
  }
  const next: GuardState = { ...state, usage, turnOutputs: [], clock: touch(state.clock, now) }
  if (state.driver !== "agent") return { state: next }
  next.stall = stallStep(state.stall, { workspaceChanged: turn.workspaceChanged, outputHashes: state.turnOutputs })
  const stalled = stallTrip(next.stall, policy.limits.max_noop_iterations)
  return stalled ? { state: { ...next, tripped: stalled }, trip: stalled } : { state: next }
}

/** Tokens or cost reported outside a turn boundary (streaming usage, sub-agents). */
export function recordUsage(state: GuardState, used: { tokens?: number; cost?: number }, now: number): GuardState {
  const usage = { ...state.usage, tokens: state.usage.tokens + (used.tokens ?? 0), cost: state.usage.cost + (used.cost ?? 0) }
  return { ...state, usage, clock: touch(state.clock, now) }
}

/** A pause decided outside this module (external change, a person) kept with the state for resume. */
export function setTripped(state: GuardState, tripped: Trip): GuardState {
  return { ...state, tripped }
}

/** Tools the agent must be told are disabled right now, and why. */
export function disabledTools(state: GuardState, now: number, policy: GuardPolicy): { tool: string; reason: string }[] {
  const out: { tool: string; reason: string }[] = []
  for (const [tool, breaker] of Object.entries(state.breakers)) {
    if (!breakerAllows(breaker, now, policy.circuit_breaker)) out.push({ tool, reason: breakerTrip(tool, breaker, now, policy.circuit_breaker).reason })
  }
  return out
}
