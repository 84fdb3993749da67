import { describe, expect, test } from "bun:test"
import {
  breakerAllows, breakerResult, breakerStart, breakerTrip, breakerVerdict, CLOSED, type Breaker, type BreakerVerdict, type Transition,
} from "../../core/guards/breaker.ts"
import { guardPolicy, viaCheckpoint } from "./fixtures.ts"

const policy = guardPolicy().circuit_breaker // 3 failures, 5 minutes
const MIN = 60_000

/** One call of `web_fetch` at `now`: refused, or started and finished with `verdict`. Breaker state goes through a checkpoint. */
function call(breaker: Breaker, now: number, verdict: BreakerVerdict, log: Transition[]): { breaker: Breaker; refused: boolean } {
  if (!breakerAllows(breaker, now, policy)) return { breaker, refused: true }
  const started = breakerStart("web_fetch", viaCheckpoint(breaker), now, policy)
  if (started.transition) log.push(started.transition)
  const finished = breakerResult("web_fetch", viaCheckpoint(started.breaker), verdict, verdict === "failure" ? "NETWORK: connect ECONNREFUSED" : undefined, now, policy)
  if (finished.transition) log.push(finished.transition)
  return { breaker: viaCheckpoint(finished.breaker), refused: false }
}

describe("circuit breaker", () => {
  test("opens after failure_threshold consecutive failures and refuses calls", () => {
    const log: Transition[] = []
    let b = CLOSED
    for (let i = 0; i < 2; i++) b = call(b, i * 1000, "failure", log).breaker
    expect(b.state).toBe("closed")
    expect(b.failures).toBe(2)
    b = call(b, 2000, "failure", log).breaker
    expect(b.state).toBe("open")
    expect(log).toEqual([{ tool: "web_fetch", from: "closed", to: "open", at: 2000, reason: "3 consecutive failures (circuit_breaker.failure_threshold: 3)" }])
    expect(call(b, 3000, "success", log).refused).toBe(true)
    expect(call(b, 2000 + 5 * MIN - 1, "success", log).refused).toBe(true)
  })

  test("a success in between resets the count: failures must be consecutive", () => {
    const log: Transition[] = []
    let b = CLOSED
    for (const verdict of ["failure", "failure", "success", "failure", "failure"] as const) b = call(b, 0, verdict, log).breaker
    expect(b.state).toBe("closed")
    expect(b.failures).toBe(2)
    expect(log).toEqual([])
  })

  test("after the recovery time one trial call goes through; success closes", () => {
    const log: Transition[] = []
    let b = CLOSED
    for (let i = 0; i < 3; i++) b = call(b, 0, "failure", log).breaker
    const trialAt = 5 * MIN
    const trial = call(b, trialAt, "success", log)
    expect(trial.refused).toBe(false)
    expect(trial.breaker).toEqual({ state: "closed", failures: 0 })
    expect(log.map((t) => `${t.from}->${t.to}@${t.at}`)).toEqual(["closed->open@0", "open->half_open@300000", "half_open->closed@300000"])
  })

  test("a failed trial reopens it for another recovery time", () => {
    const log: Transition[] = []
    let b = CLOSED
    for (let i = 0; i < 3; i++) b = call(b, 0, "failure", log).breaker
    b = call(b, 5 * MIN, "failure", log).breaker
    expect(b.state).toBe("open")
    expect(b.openedAt).toBe(5 * MIN)
    expect(log.at(-1)).toMatchObject({ from: "half_open", to: "open", reason: "the trial call failed" })
    expect(call(b, 9 * MIN, "success", log).refused).toBe(true)
    expect(call(b, 10 * MIN, "success", log).breaker.state).toBe("closed")
  })

  test("only one trial at a time while half-open", () => {
    let b = CLOSED
    for (let i = 0; i < 3; i++) b = call(b, 0, "failure", []).breaker
    const started = breakerStart("web_fetch", b, 5 * MIN, policy).breaker
    expect(started.state).toBe("half_open")
    expect(breakerAllows(started, 5 * MIN + 1000, policy)).toBe(false)
    // a trial lost in a crash does not keep the tool disabled forever
    expect(breakerAllows(started, 10 * MIN, policy)).toBe(true)
  })

  test("a refused or rejected trial proves nothing: the next call may be the trial", () => {
    let b = CLOSED
    for (let i = 0; i < 3; i++) b = call(b, 0, "failure", []).breaker
    const started = breakerStart("web_fetch", b, 5 * MIN, policy).breaker
    const neutral = breakerResult("web_fetch", started, "neutral", undefined, 5 * MIN, policy)
    expect(neutral.transition).toBeUndefined()
    expect(neutral.breaker.state).toBe("half_open")
    expect(breakerAllows(neutral.breaker, 5 * MIN + 1, policy)).toBe(true)
  })

  test("the refusal names the tool, the last error, when it retries and what to raise", () => {
    let b = CLOSED
    for (let i = 0; i < 3; i++) b = call(b, 0, "failure", []).breaker
    const trip = breakerTrip("web_fetch", b, 60_000, policy)
    expect(trip).toMatchObject({ guard: "circuit_breaker", action: "deny" })
    expect(trip.reason).toContain("tool web_fetch is disabled after 3 consecutive failures")
    expect(trip.reason).toContain('Last error: "NETWORK: connect ECONNREFUSED"')
    expect(trip.reason).toContain("in 4m0s")
    expect(trip.reason).toContain("circuit_breaker.failure_threshold")
    expect(trip.evidence).toMatchObject({ tool: "web_fetch", failures: 3, retry_at: 5 * MIN })
  })
})

describe("what counts as a failure of the tool", () => {
  test("broken tools fail; wrong requests, denials and failing commands do not", () => {
    const err = (type: "execution" | "network" | "timeout" | "param" | "not_found" | "denied" | "parse" | "circuit_open", code = "X") =>
      breakerVerdict({ status: "error", error: { type, code, message: "m" } })
    expect(err("network")).toBe("failure")
    expect(err("timeout")).toBe("failure")
    expect(err("execution", "MCP_EXECUTION_ERROR")).toBe("failure")
    expect(err("parse")).toBe("failure")
    expect(err("execution", "EXIT_CODE")).toBe("success") // `bun test` failing is the command's failure, not the shell's
    expect(err("not_found")).toBe("success")
    expect(err("param")).toBe("neutral")
    expect(err("denied")).toBe("neutral")
    expect(err("circuit_open")).toBe("neutral")
    expect(breakerVerdict({ status: "ok" })).toBe("success")
  })
})
