import { describe, expect, test } from "bun:test"
import {
  endSegment, limitBeforeCall, limitBeforeTurn, NO_USAGE, remainingWallTime, startSegment, toolTimeoutFor, touch, wallTimeUsed,
  type WallClock,
} from "../../core/guards/limits.ts"
import { guardPolicy, viaCheckpoint } from "./fixtures.ts"

const limits = guardPolicy({ limits: { max_wall_time: 10 * 60_000 } }).limits
const MIN = 60_000

describe("wall time across resumes", () => {
  test("time while paused does not count; time while running does, over every segment", () => {
    let clock: WallClock = viaCheckpoint(startSegment({ elapsedMs: 0 }, 0))
    expect(wallTimeUsed(clock, 4 * MIN)).toBe(4 * MIN)
    clock = viaCheckpoint(endSegment(clock, 4 * MIN)) // paused for approval
    expect(wallTimeUsed(clock, 60 * MIN)).toBe(4 * MIN) // an hour later, still 4 minutes used
    clock = viaCheckpoint(startSegment(clock, 60 * MIN)) // `ccode resume`
    expect(wallTimeUsed(clock, 65 * MIN)).toBe(9 * MIN)
    expect(remainingWallTime(clock, 65 * MIN, limits)).toBe(MIN)
    expect(limitBeforeCall(limits, NO_USAGE, clock, 65 * MIN, "steps")).toBeUndefined()
    const trip = limitBeforeCall(limits, NO_USAGE, clock, 66 * MIN, "steps")
    expect(trip).toMatchObject({ guard: "limit", action: "pause", evidence: { limit: "max_wall_time", used: 10 * MIN, max: 10 * MIN } })
    expect(trip?.reason).toBe(
      "Limit reached: max_wall_time — 10m0s of 10m0s wall time used (across resumes). To go on, raise limits.max_wall_time in the policy, then `ccode resume`.",
    )
  })

  test("a run that crashed counts its last segment up to the last time it was seen", () => {
    let clock = startSegment({ elapsedMs: 2 * MIN }, 0)
    clock = viaCheckpoint(touch(clock, 3 * MIN)) // last checkpoint before kill -9
    const resumed = startSegment(clock, 50 * MIN)
    expect(resumed).toEqual({ elapsedMs: 5 * MIN, segmentStart: 50 * MIN, lastSeen: 50 * MIN })
    expect(wallTimeUsed(resumed, 51 * MIN)).toBe(6 * MIN)
  })
})

describe("agent limits", () => {
  test("the tool call after max_tool_calls is stopped, in agent runs only", () => {
    const clock = startSegment({ elapsedMs: 0 }, 0)
    const used = { ...NO_USAGE, toolCalls: 100 }
    expect(limitBeforeCall(limits, { ...NO_USAGE, toolCalls: 99 }, clock, 0, "agent")).toBeUndefined()
    expect(limitBeforeCall(limits, used, clock, 0, "agent")).toMatchObject({ action: "pause", evidence: { limit: "max_tool_calls", used: 100, max: 100 } })
    // a scripted plan of 500 steps runs whole
    expect(limitBeforeCall(limits, { ...NO_USAGE, toolCalls: 500 }, clock, 0, "steps")).toBeUndefined()
  })

  test("turns, tokens and cost stop the next turn", () => {
    const clock = startSegment({ elapsedMs: 0 }, 0)
    const withBudget = { ...limits, max_tokens: 1000, max_cost: 0.5 }
    expect(limitBeforeTurn(withBudget, { ...NO_USAGE, steps: 19 }, clock, 0, "agent")).toBeUndefined()
    const steps = limitBeforeTurn(withBudget, { ...NO_USAGE, steps: 20 }, clock, 0, "agent")
    expect(steps?.reason).toBe("Limit reached: max_steps — 20 of 20 agent turns used. To go on, raise limits.max_steps in the policy (or --max-steps N), then `ccode resume`.")
    expect(limitBeforeTurn(withBudget, { ...NO_USAGE, tokens: 1000 }, clock, 0, "agent")?.evidence).toEqual({ limit: "max_tokens", used: 1000, max: 1000 })
    expect(limitBeforeTurn(withBudget, { ...NO_USAGE, cost: 0.50001 }, clock, 0, "agent")?.evidence).toMatchObject({ limit: "max_cost" })
    expect(limitBeforeTurn(limits, { ...NO_USAGE, tokens: 1e9, cost: 1e9 }, clock, 0, "agent")).toBeUndefined() // no budget set
  })

  test("a call nested deeper than max_depth is denied, not paused", () => {
    const clock = startSegment({ elapsedMs: 0 }, 0)
    expect(limitBeforeCall(limits, NO_USAGE, clock, 0, "agent", 5)).toBeUndefined()
    const trip = limitBeforeCall(limits, NO_USAGE, clock, 0, "agent", 6)
    expect(trip).toMatchObject({ guard: "limit", action: "deny", evidence: { limit: "max_depth", used: 6, max: 5 } })
    expect(trip?.reason).toContain("limits.max_depth")
  })
})

describe("tool timeouts", () => {
  test("the policy's per-tool value, else the tool's own, else the default", () => {
    expect(toolTimeoutFor(limits, "shell")).toBe(120_000)
    expect(toolTimeoutFor(limits, "shell", "10m")).toBe(120_000) // the policy names shell: it wins
    expect(toolTimeoutFor(limits, "build_site", "10m")).toBe(600_000)
    expect(toolTimeoutFor(limits, "read_file")).toBe(30_000)
  })

  test("a step's timeout may shorten the call but never outlast the policy", () => {
    expect(toolTimeoutFor(limits, "shell", undefined, "5s")).toBe(5000)
    expect(toolTimeoutFor(limits, "shell", undefined, "1h")).toBe(120_000)
    expect(toolTimeoutFor(limits, "shell", undefined, 90_000)).toBe(90_000)
    expect(toolTimeoutFor(limits, "shell", undefined, "soon")).toBe(120_000) // not a duration: ignored
  })
})
