// Retry decisions and backoff delays. Pure: randomness comes in as a function, no clock, no sleeping.
import type { ErrorType } from "../tools/types.ts"

export type Jitter = "full" | "equal"

export interface BackoffOptions {
  /** longest delay ever returned (default: 60s, or the base itself when that is larger) */
  capMs?: number
  /** full: anywhere in [0, d]; equal (default): in [d/2, d], so the delay still grows visibly */
  jitter?: Jitter
}

export const DEFAULT_BACKOFF_CAP_MS = 60_000

/**
 * Delay before retry number `attempt` (1 = the first retry): base * 2^(attempt-1), capped,
 * with jitter so many runs retrying the same service do not retry in step.
 * `random` returns a number in [0, 1) like Math.random.
 */
export function backoffDelay(attempt: number, baseMs: number, random: () => number, opts: BackoffOptions = {}): number {
  const cap = Math.max(opts.capMs ?? Math.max(DEFAULT_BACKOFF_CAP_MS, baseMs), 0)
  const exponent = Math.min(Math.max(attempt, 1) - 1, 30)
  const ceiling = Math.min(baseMs * 2 ** exponent, cap)
  const r = Math.min(Math.max(random(), 0), 1)
  const delay = (opts.jitter ?? "equal") === "full" ? ceiling * r : ceiling / 2 + (ceiling / 2) * r
  return Math.round(delay)
}

/** A step's retries stop at once for a call that was wrong (bad arguments) or refused (denied): running it again meets the same answer. */
export function isRetryable(type: ErrorType | undefined): boolean {
  return type !== "param" && type !== "denied"
}

/**
 * Should a failed step run again? `attempts` counts attempts so far (1 after the first).
 * A scripted step's own failure (tests failing, a timeout, a missing file it waits for) is retried;
 * a wrong or refused call is not.
 */
export function shouldRetry(attempts: number, retries: number, type: ErrorType | undefined): boolean {
  return attempts <= retries && isRetryable(type)
}

/** The longest a scripted step waits between attempts (docs/runner.md). */
export const STEP_BACKOFF_CAP_MS = 30_000
