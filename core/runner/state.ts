// The checkpoint: everything a run needs to continue, as plain JSON.
import { initGuardState, type GuardState } from "../guards/index.ts"
import type { Grant } from "../policy/types.ts"
import type { AgentState } from "../agent/types.ts"
import type { Driver } from "./driver.ts"
import type { Plan } from "./plan.ts"
import type { Segment } from "./elsewhere.ts"

export interface StepConfig {
  tool: string
  args: Record<string, unknown>
  retries?: number
  timeout?: number
  breakpoint: boolean
  preview?: boolean
  /** `if:` as written, decided when the step is due */
  if?: string
  /** the step's own env, over the task's */
  env?: Record<string, string>
  /** relative to the task's workdir */
  workingDirectory?: string
}

/** A call that already has an id and sequence number (decided before, or in flight at a crash). */
export interface PendingCall {
  callId: string
  seq: number
  /** the person approved this call: an `ask` no longer stops it */
  approved?: boolean
  /** approved "for this run": add the call's grant when it runs */
  forRun?: boolean
  /** the digest of the call as the person was shown it (approved.ts): the approval holds only for that call */
  shown?: string
}

/** Why a plan item is blocked on a person, and what they were asked. */
export interface Waiting {
  kind: "approval" | "breakpoint" | "in_flight"
  requestId: string
  call?: PendingCall
}

export interface RunState {
  v: 1
  plan: Plan
  /** last call sequence number used */
  callSeq: number
  counters: { calls: number; denied: number; failed: number; turns: number }
  grants: Grant[]
  /** plan items waiting for a person, by item id */
  waiting: Record<string, Waiting>
  /** calls to reuse when their item runs again (approved, or re-run after a crash), by item id */
  pending: Record<string, PendingCall>
  /** breakpoints a person already let through, by plan item */
  passed: string[]
  /** a guard stopped the run; cleared by resume */
  stoppedBy?: string
  /** limits, breakers, loop history, wall clock (core/guards) */
  guards: GuardState
  /** workspace files this run changed (for summary.md and reports) */
  changed: string[]
  /** the workspace fingerprint when the last segment ended (resume compares against it) */
  fingerprint?: unknown
  /** runs kept on PostgreSQL: where the last segment ran and the workspace it left (elsewhere.ts) */
  segment?: Segment
  /** the agent driver's conversation, notes and waits (agent runs only) */
  agent?: AgentState
  /** what finished steps handed on ($CCODE_OUTPUT, a plugin's data), by step id; redacted when taken */
  outputs?: Record<string, Record<string, string>>
}

export function initialState(plan: Plan, guards: Driver["guards"] = "steps", now = Date.now()): RunState {
  return {
    v: 1, plan, callSeq: 0, counters: { calls: 0, denied: 0, failed: 0, turns: 0 }, grants: [], waiting: {}, pending: {},
    passed: [], guards: initGuardState(guards, now), changed: [],
  }
}
