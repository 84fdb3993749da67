// Circuit breaker per tool as a pure reducer over JSON state: closed -> open after consecutive
// failures, half-open after the recovery time (one trial call), closed or reopened by the trial.
// Pure: no clock (every function takes `now`), every state change comes back as a Transition.
import type { Policy } from "../policy/types.ts"
import type { ToolResult } from "../tools/types.ts"
import { formatDuration } from "../base/duration.ts"
import { preview, trip, type Trip } from "./trip.ts"

export type BreakerPolicy = Policy["circuit_breaker"]
export type CircuitState = "closed" | "open" | "half_open"

export interface Breaker {
  state: CircuitState
  /** consecutive failures while closed */
  failures: number
  /** when it (re)opened */
  openedAt?: number
  /** half-open: when the one trial call started (a trial older than the recovery time is presumed lost) */
  trialAt?: number
  lastError?: string
}

/** A state change: the runner writes one event and one audit row for each. */
export interface Transition {
  tool: string
  from: CircuitState
  to: CircuitState
  at: number
  reason: string
}

export const CLOSED: Breaker = { state: "closed", failures: 0 }

/** What a finished call says about the tool's health. */
export type BreakerVerdict = "failure" | "success" | "neutral"

/** Error types that say the tool itself is broken (not the request, not the policy). */
const TOOL_FAILURES = new Set(["execution", "network", "timeout", "parse"])
/** The tool never really ran: a refusal or arguments it rejected say nothing about its health. */
const NOT_RUN = new Set(["denied", "circuit_open", "param"])

/**
 * A command that ran and exited non-zero (EXIT_CODE) means the shell tool worked, and a missing
 * file is a correct answer: both are successes for the breaker, whatever the loop detector thinks.
 */
export function breakerVerdict(result: Pick<ToolResult, "status" | "error">): BreakerVerdict {
  if (result.status === "ok" || !result.error) return "success"
  if (NOT_RUN.has(result.error.type)) return "neutral"
  return TOOL_FAILURES.has(result.error.type) && result.error.code !== "EXIT_CODE" ? "failure" : "success"
}

/** Whether a call may start now; refused while open, or while the half-open trial is running. */
export function breakerAllows(breaker: Breaker, now: number, policy: BreakerPolicy): boolean {
  if (breaker.state === "closed") return true
  if (breaker.state === "open") return now - (breaker.openedAt ?? now) >= policy.recovery_timeout
  return breaker.trialAt === undefined || now - breaker.trialAt >= policy.recovery_timeout
}

/** A call is starting: an open breaker whose recovery time has passed lets it through as the trial. */
export function breakerStart(tool: string, breaker: Breaker, now: number, policy: BreakerPolicy): { breaker: Breaker; transition?: Transition } {
  if (breaker.state === "open" && breakerAllows(breaker, now, policy)) {
    const next: Breaker = { ...breaker, state: "half_open", trialAt: now }
    const reason = `recovery time ${formatDuration(policy.recovery_timeout)} passed: one trial call`
    return { breaker: next, transition: { tool, from: "open", to: "half_open", at: now, reason } }
  }
  if (breaker.state === "half_open") return { breaker: { ...breaker, trialAt: now } }
  return { breaker }
}

/** A call finished; `verdict` is breakerVerdict(result) unless the runner knows better. */
export function breakerResult(
  tool: string,
  breaker: Breaker,
  verdict: BreakerVerdict,
  error: string | undefined,
  now: number,
  policy: BreakerPolicy,
): { breaker: Breaker; transition?: Transition } {
  if (verdict === "neutral") {
    // a half-open trial that never reached the tool proves nothing: let the next call be the trial
    if (breaker.state !== "half_open" || breaker.trialAt === undefined) return { breaker }
    const { trialAt: _, ...rest } = breaker
    return { breaker: rest }
  }
  const failed = verdict === "failure"
  if (breaker.state === "closed") {
    if (!failed) return { breaker: breaker.failures === 0 ? breaker : CLOSED }
    const failures = breaker.failures + 1
    const lastError = error === undefined ? breaker.lastError : preview(error, 300)
    if (failures < policy.failure_threshold) return { breaker: withError({ state: "closed", failures }, lastError) }
    const reason = `${failures} consecutive failures (circuit_breaker.failure_threshold: ${policy.failure_threshold})`
    return { breaker: withError({ state: "open", failures, openedAt: now }, lastError), transition: { tool, from: "closed", to: "open", at: now, reason } }
  }
  if (breaker.state === "half_open") {
    if (!failed) return { breaker: CLOSED, transition: { tool, from: "half_open", to: "closed", at: now, reason: "the trial call succeeded" } }
    const lastError = error === undefined ? breaker.lastError : preview(error, 300)
    const reopened = withError({ state: "open", failures: breaker.failures + 1, openedAt: now }, lastError)
    return { breaker: reopened, transition: { tool, from: "half_open", to: "open", at: now, reason: "the trial call failed" } }
  }
  // open: a call that started before the breaker opened (parallel) changes nothing
  return { breaker }
}

/** The refusal for a call to a tool whose breaker does not allow it. */
export function breakerTrip(tool: string, breaker: Breaker, now: number, policy: BreakerPolicy): Trip {
  const retryAt = breaker.state === "open" ? (breaker.openedAt ?? now) + policy.recovery_timeout : (breaker.trialAt ?? now) + policy.recovery_timeout
  const wait = formatDuration(Math.max(0, retryAt - now))
  const why = breaker.state === "open" ? `${breaker.failures} consecutive failures` : "its trial call is still running"
  const last = breaker.lastError ? ` Last error: "${breaker.lastError}".` : ""
  const reason =
    `Circuit breaker open: tool ${tool} is disabled after ${why}.${last} It allows one trial call in ${wait}` +
    ` (circuit_breaker.recovery_timeout); use another approach meanwhile. To tolerate more failures, raise` +
    " circuit_breaker.failure_threshold in the policy."
  return trip("circuit_breaker", "deny", reason, {
    tool,
    state: breaker.state,
    failures: breaker.failures,
    last_error: breaker.lastError,
    retry_at: retryAt,
  })
}

function withError(breaker: Breaker, lastError: string | undefined): Breaker {
  return lastError === undefined ? breaker : { ...breaker, lastError }
}
