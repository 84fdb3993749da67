import { describe, expect, test } from "bun:test"
import {
  afterTurn, checkBeforeCall, checkBeforeTurn, disabledTools, initGuardState, pauseGuards, recordCall, recordUsage, resumeGuards,
  setTripped, startCall, type GuardState, type Transition,
} from "../../core/guards/index.ts"
import type { CallSummary } from "../../core/guards/loop.ts"
import { externalChangeTrip } from "../../core/guards/workspace-diff.ts"
import { failed, guardPolicy, ok, viaCheckpoint } from "./fixtures.ts"

const policy = guardPolicy()
const MIN = 60_000

/** The runner's loop around one call, with the state checkpointed (JSON) after every step. */
function runCall(state: GuardState, summary: CallSummary, now: number, transitions: Transition[] = []) {
  const refused = checkBeforeCall(state, summary.tool, now, policy)
  if (refused) return { state, refused }
  const started = startCall(state, summary.tool, now, policy)
  transitions.push(...started.transitions)
  const outcome = recordCall(viaCheckpoint(started.state), summary, now, policy)
  transitions.push(...outcome.transitions)
  return { state: viaCheckpoint(outcome.state), refused: undefined, trip: outcome.trip }
}

describe("one GuardState through a run", () => {
  test("starts empty and survives a checkpoint unchanged", () => {
    const state = initGuardState("agent", 1000)
    expect(viaCheckpoint(state)).toEqual(state)
    expect(state.usage).toEqual({ steps: 0, toolCalls: 0, tokens: 0, cost: 0 })
    expect(checkBeforeCall(state, "shell", 1000, policy)).toBeUndefined()
    expect(checkBeforeTurn(state, 1000, policy)).toBeUndefined()
  })

  test("a doom loop pauses the run until resume, and resume does not trip on the same evidence", () => {
    let state = initGuardState("agent", 0)
    const repeat = ok("read_file", { path: "a.ts" }, "same")
    let last
    for (let i = 0; i < 3; i++) {
      last = runCall(state, repeat, i * 1000)
      state = last.state
    }
    expect(last?.trip).toMatchObject({ guard: "loop", action: "pause", evidence: { loop_type: "repeat", count: 3 } })
    expect(state.usage.toolCalls).toBe(3)
    // the pause holds for every tool and every turn until the person resumes
    expect(checkBeforeCall(state, "list_dir", 5000, policy)?.guard).toBe("loop")
    expect(checkBeforeTurn(state, 5000, policy)?.guard).toBe("loop")
    state = viaCheckpoint(pauseGuards(state, 5000))

    state = viaCheckpoint(resumeGuards(state, 10 * MIN))
    expect(state.tripped).toBeUndefined()
    expect(checkBeforeCall(state, "read_file", 10 * MIN, policy)).toBeUndefined()
    const again = runCall(state, repeat, 10 * MIN + 1000)
    expect(again.trip).toBeUndefined()
  })

  test("a failing tool is disabled with transitions to record; other tools keep working; it recovers", () => {
    let state = initGuardState("agent", 0)
    const transitions: Transition[] = []
    for (let i = 0; i < 3; i++) {
      state = runCall(state, failed("web_fetch", { url: `https://a/${i}` }, `HTTP ${500 + i} from upstream`, { type: "network", code: "NET" }), i * 1000, transitions).state
    }
    expect(transitions.map((t) => `${t.tool}:${t.from}->${t.to}`)).toEqual(["web_fetch:closed->open"])
    const refused = checkBeforeCall(state, "web_fetch", 3000, policy)
    expect(refused).toMatchObject({ guard: "circuit_breaker", action: "deny", evidence: { tool: "web_fetch", state: "open" } })
    expect(checkBeforeCall(state, "read_file", 3000, policy)).toBeUndefined()
    expect(disabledTools(state, 3000, policy)).toEqual([{ tool: "web_fetch", reason: refused!.reason }])

    const later = 2000 + 5 * MIN
    expect(checkBeforeCall(state, "web_fetch", later, policy)).toBeUndefined()
    state = runCall(state, ok("web_fetch", { url: "https://a/ok" }, "200"), later, transitions).state
    expect(transitions.map((t) => `${t.from}->${t.to}`)).toEqual(["closed->open", "open->half_open", "half_open->closed"])
    expect(disabledTools(state, later, policy)).toEqual([])
  })

  test("refused calls feed the loop detector but never the breaker", () => {
    let state = initGuardState("agent", 0)
    const denied: CallSummary = { tool: "shell", args: { command: "rm -rf /" }, result: { status: "error", text: "", error: { code: "DENIED", type: "denied", message: "denied by rule no-rm-root" } } }
    let outcome
    for (let i = 0; i < 3; i++) {
      outcome = recordCall(state, denied, i, policy)
      state = viaCheckpoint(outcome.state)
    }
    expect(outcome?.trip?.evidence.loop_type).toBe("error_repeat")
    expect(state.breakers.shell).toBeUndefined()
    expect(outcome?.transitions).toEqual([])
  })

  test("turns without progress stall the run; new output or file changes are progress", () => {
    let state = initGuardState("agent", 0)
    const turn = (summary: CallSummary | undefined, workspaceChanged: boolean, now: number) => {
      if (summary) state = runCall(state, summary, now).state
      const after = afterTurn(state, { workspaceChanged, tokens: 100 }, now, policy)
      state = viaCheckpoint(after.state)
      return after.trip
    }
    expect(turn(ok("shell", { command: "git status" }, "clean"), false, 1)).toBeUndefined() // new output
    expect(turn(ok("read_file", { path: "a" }, "clean"), false, 2)).toBeUndefined() // same text: no progress (1)
    expect(turn(undefined, true, 3)).toBeUndefined() // edited a file
    expect(turn(undefined, false, 4)).toBeUndefined()
    expect(turn(ok("shell", { command: "git status" }, "clean"), false, 5)).toBeUndefined()
    const stalled = turn(undefined, false, 6)
    expect(stalled).toMatchObject({ guard: "stalled", action: "pause", evidence: { noop_turns: 3 } })
    expect(state.usage).toMatchObject({ steps: 6, tokens: 600 })
    expect(checkBeforeTurn(state, 7, policy)?.guard).toBe("stalled")
    state = resumeGuards(state, 100)
    expect(state.stall.noopTurns).toBe(0)
    expect(checkBeforeTurn(state, 100, policy)).toBeUndefined()
  })

  test("max_steps pauses; raising the limit and resuming goes on", () => {
    let state = initGuardState("agent", 0)
    const tight = guardPolicy({ limits: { max_steps: 2 } })
    for (let i = 0; i < 2; i++) state = viaCheckpoint(afterTurn(state, { workspaceChanged: true }, i, tight).state)
    expect(checkBeforeTurn(state, 10, tight)?.evidence).toEqual({ limit: "max_steps", used: 2, max: 2 })
    state = viaCheckpoint(resumeGuards(pauseGuards(state, 10), 20))
    expect(checkBeforeTurn(state, 20, tight)?.guard).toBe("limit") // still 2 of 2
    expect(checkBeforeTurn(state, 20, guardPolicy({ limits: { max_steps: 3 } }))).toBeUndefined()
  })

  test("wall time adds up over pause and resume, not the time in between", () => {
    const policy10 = guardPolicy({ limits: { max_wall_time: 10 * MIN } })
    let state = initGuardState("steps", 0)
    state = viaCheckpoint(runCall(state, ok("shell", { command: "make" }), 6 * MIN).state)
    state = viaCheckpoint(pauseGuards(state, 6 * MIN))
    state = viaCheckpoint(resumeGuards(state, 24 * 60 * MIN))
    expect(checkBeforeCall(state, "shell", 24 * 60 * MIN + 3 * MIN, policy10)).toBeUndefined()
    expect(checkBeforeCall(state, "shell", 24 * 60 * MIN + 4 * MIN, policy10)?.evidence).toMatchObject({ limit: "max_wall_time" })
  })

  test("a scripted plan is not bounded by agent limits and never stalls", () => {
    let state = initGuardState("steps", 0)
    const tight = guardPolicy({ limits: { max_tool_calls: 5, max_steps: 5, max_noop_iterations: 1 } })
    for (let i = 0; i < 50; i++) {
      expect(checkBeforeCall(state, "shell", i, tight)).toBeUndefined()
      state = startCall(state, "shell", i, tight).state
      state = recordCall(state, ok("shell", { command: `step ${i}` }, `${"x".repeat(i)}`), i, tight).state
      const after = afterTurn(state, { workspaceChanged: false }, i, tight)
      expect(after.trip).toBeUndefined()
      state = viaCheckpoint(after.state)
    }
    expect(state.usage.toolCalls).toBe(50)
  })

  test("an external change kept as the trip pauses the run until resume", () => {
    let state = initGuardState("agent", 0)
    const trip = externalChangeTrip({ changed: true, added: [], removed: [], modified: ["src/a.ts"] })
    state = viaCheckpoint(setTripped(state, trip))
    expect(checkBeforeCall(state, "shell", 1, policy)).toEqual(trip)
    expect(resumeGuards(state, 2).tripped).toBeUndefined()
  })

  test("usage reported between turns counts toward the budget", () => {
    const budget = guardPolicy({ limits: { max_tokens: 1000 } })
    let state = initGuardState("agent", 0)
    state = viaCheckpoint(recordUsage(state, { tokens: 999, cost: 0.01 }, 1))
    expect(checkBeforeTurn(state, 1, budget)).toBeUndefined()
    state = viaCheckpoint(recordUsage(state, { tokens: 1 }, 2))
    expect(checkBeforeTurn(state, 2, budget)?.evidence).toEqual({ limit: "max_tokens", used: 1000, max: 1000 })
  })

  test("10,000 calls keep the checkpoint small and the guards fast", () => {
    let state = initGuardState("steps", 0)
    const started = performance.now()
    for (let i = 0; i < 10_000; i++) {
      if (checkBeforeCall(state, "shell", i, policy)) throw new Error("unexpected trip")
      state = startCall(state, "shell", i, policy).state
      state = recordCall(state, ok("shell", { command: `echo ${i % 7}` }, `line ${i}\n`.repeat(20)), i * 1000, policy).state
      state = afterTurn(state, { workspaceChanged: i % 2 === 0 }, i * 1000, policy).state
    }
    const elapsed = performance.now() - started
    const size = JSON.stringify(state).length
    expect(size).toBeLessThan(20_000)
    expect(elapsed).toBeLessThan(5000) // generous: about 50 ms here
  })
})

describe("breaker and loop detector together", () => {
  test("failures that open a breaker disable the tool instead of pausing; calling it anyway becomes a loop", () => {
    let state = initGuardState("agent", 0)
    let trip
    for (let i = 0; i < 3; i++) {
      const outcome = runCall(state, failed("web_fetch", { url: "https://a" }, "connect ECONNREFUSED", { type: "network" }), i)
      state = outcome.state
      trip = outcome.trip
    }
    expect(trip).toBeUndefined()
    expect(state.breakers.web_fetch?.state).toBe("open")
    let loop
    for (let i = 3; i < 6; i++) {
      const refused = checkBeforeCall(state, "web_fetch", i, policy)!
      const result = { status: "error" as const, text: refused.reason, error: { code: "CIRCUIT_OPEN", type: "circuit_open" as const, message: refused.reason } }
      const outcome = recordCall(state, { tool: "web_fetch", args: { url: "https://a" }, result }, i, policy)
      state = viaCheckpoint(outcome.state)
      loop = outcome.trip
    }
    expect(loop).toMatchObject({ guard: "loop", evidence: { loop_type: "error_repeat", count: 3 } })
  })
})
