import { describe, expect, test } from "bun:test"
import { NO_STALL, stallStep, stallTrip, MAX_SEEN_OUTPUTS, type StallState, type TurnOutcome } from "../../core/guards/stall.ts"
import { viaCheckpoint } from "./fixtures.ts"

function turns(list: TurnOutcome[], start: StallState = NO_STALL): StallState[] {
  const states: StallState[] = []
  let state = start
  for (const turn of list) {
    state = viaCheckpoint(stallStep(state, turn))
    states.push(state)
  }
  return states
}

const quiet: TurnOutcome = { workspaceChanged: false, outputHashes: [] }

describe("stall", () => {
  test("turns that change nothing and say nothing new count up to a stall", () => {
    const states = turns([quiet, quiet, quiet])
    expect(states.map((s) => s.noopTurns)).toEqual([1, 2, 3])
    expect(stallTrip(states[1]!, 3)).toBeUndefined()
    const trip = stallTrip(states[2]!, 3)
    expect(trip).toMatchObject({ guard: "stalled", action: "pause", evidence: { noop_turns: 3, max_noop_iterations: 3 } })
    expect(trip?.reason).toContain("limits.max_noop_iterations")
    expect(trip?.reason).toContain("ccode resume")
  })

  test("a workspace change resets the count", () => {
    const states = turns([quiet, quiet, { workspaceChanged: true, outputHashes: [] }, quiet])
    expect(states.map((s) => s.noopTurns)).toEqual([1, 2, 0, 1])
  })

  test("output seen before is not progress; new output is", () => {
    const states = turns([
      { workspaceChanged: false, outputHashes: ["h1"] },
      { workspaceChanged: false, outputHashes: ["h1"] },
      { workspaceChanged: false, outputHashes: ["h1", "h1"] },
      { workspaceChanged: false, outputHashes: ["h1", "h2"] },
    ])
    expect(states.map((s) => s.noopTurns)).toEqual([0, 1, 2, 0])
    expect(states[3]!.seenOutputHashes).toEqual(["h1", "h2"])
  })

  test("the memory of outputs is bounded", () => {
    const many = Array.from({ length: MAX_SEEN_OUTPUTS + 50 }, (_, i) => `h${i}`)
    const [state] = turns([{ workspaceChanged: false, outputHashes: many }])
    expect(state!.seenOutputHashes).toHaveLength(MAX_SEEN_OUTPUTS)
    expect(state!.seenOutputHashes.at(-1)).toBe(`h${MAX_SEEN_OUTPUTS + 49}`)
  })
})
