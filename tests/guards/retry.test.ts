import { describe, expect, test } from "bun:test"
import { backoffDelay, isRetryable, shouldRetry, STEP_BACKOFF_CAP_MS } from "../../core/guards/retry.ts"

const lowest = () => 0
const highest = () => 0.999999

describe("backoff", () => {
  test("doubles with each attempt", () => {
    const ceilings = [1, 2, 3, 4, 5].map((attempt) => backoffDelay(attempt, 1000, highest, { jitter: "full" }))
    expect(ceilings).toEqual([1000, 2000, 4000, 8000, 16000])
  })

  test("never exceeds the cap, however many attempts", () => {
    expect(backoffDelay(10, 1000, highest, { capMs: 30_000, jitter: "full" })).toBe(30_000)
    expect(backoffDelay(1000, 1000, highest)).toBe(60_000) // default cap
    expect(Number.isFinite(backoffDelay(1e9, 1000, highest))).toBe(true)
  })

  test("a base above the default cap is kept as the first delay, an explicit cap still wins", () => {
    expect(backoffDelay(1, 120_000, highest, { jitter: "full" })).toBe(120_000)
    expect(backoffDelay(1, 120_000, highest, { capMs: 10_000, jitter: "full" })).toBe(10_000)
  })

  test("full jitter spreads delays over [0, ceiling]", () => {
    expect(backoffDelay(3, 1000, lowest, { jitter: "full" })).toBe(0)
    expect(backoffDelay(3, 1000, () => 0.5, { jitter: "full" })).toBe(2000)
  })

  test("equal jitter (the default) keeps at least half the ceiling so delays still grow", () => {
    expect(backoffDelay(3, 1000, lowest)).toBe(2000)
    expect(backoffDelay(3, 1000, highest)).toBe(4000)
    const samples = Array.from({ length: 200 }, (_, i) => backoffDelay(2, 1000, () => i / 200))
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(1000)
    expect(Math.max(...samples)).toBeLessThanOrEqual(2000)
  })

  test("attempt 0 or below behaves as the first retry", () => {
    expect(backoffDelay(0, 500, highest, { jitter: "full" })).toBe(500)
  })
})

describe("which failures to retry", () => {
  test("only a wrong call (param) or a refused one (denied) is never retried: what a scripted step does today", () => {
    for (const type of ["param", "denied"] as const) expect(isRetryable(type)).toBe(false)
    for (const type of ["timeout", "network", "not_found", "execution", "circuit_open", undefined] as const) expect(isRetryable(type)).toBe(true)
  })

  test("a failing step is retried `retries` times, a refused one never", () => {
    expect([1, 2, 3].map((attempts) => shouldRetry(attempts, 2, "execution"))).toEqual([true, true, false])
    expect(shouldRetry(1, 2, "denied")).toBe(false)
    expect(shouldRetry(1, 2, "param")).toBe(false)
    expect(shouldRetry(1, 0, "timeout")).toBe(false)
  })

  test("a step's backoff stops growing at 30 s", () => {
    expect(backoffDelay(20, 1000, highest, { capMs: STEP_BACKOFF_CAP_MS })).toBe(30_000)
    expect(backoffDelay(20, 1000, lowest, { capMs: STEP_BACKOFF_CAP_MS })).toBe(15_000)
  })
})
