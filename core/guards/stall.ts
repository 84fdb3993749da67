// Stall detector: agent turns in a row that changed no file and produced no output not seen before.
// Pure reducer over JSON state; output is compared by hash.
import { resumeHint, trip, type Trip } from "./trip.ts"

export interface StallState {
  noopTurns: number
  /** hashes of successful outputs seen so far in the run (most recent last, bounded) */
  seenOutputHashes: string[]
}

export interface TurnOutcome {
  /** the workspace fingerprint differs from before the turn (by ccode's own calls) */
  workspaceChanged: boolean
  /** hashes of the successful outputs of this turn's calls */
  outputHashes: readonly string[]
}

/** Enough to recognise repeats over a long run without the checkpoint growing without bound. */
export const MAX_SEEN_OUTPUTS = 1000

export const NO_STALL: StallState = { noopTurns: 0, seenOutputHashes: [] }

export function stallStep(state: StallState, turn: TurnOutcome): StallState {
  const seen = new Set(state.seenOutputHashes)
  const fresh = turn.outputHashes.filter((hash) => !seen.has(hash))
  const progressed = turn.workspaceChanged || fresh.length > 0
  let seenOutputHashes = state.seenOutputHashes
  if (fresh.length > 0) {
    seenOutputHashes = [...state.seenOutputHashes, ...new Set(fresh)]
    if (seenOutputHashes.length > MAX_SEEN_OUTPUTS) seenOutputHashes = seenOutputHashes.slice(-MAX_SEEN_OUTPUTS)
  }
  return { noopTurns: progressed ? 0 : state.noopTurns + 1, seenOutputHashes }
}

export function stallTrip(state: StallState, maxNoop: number): Trip | undefined {
  if (state.noopTurns < maxNoop) return undefined
  const reason =
    `Stalled: ${state.noopTurns} agent turns in a row changed no file and produced no new output` +
    ` (limits.max_noop_iterations: ${maxNoop}). ${resumeHint("limits.max_noop_iterations")}`
  return trip("stalled", "pause", reason, { noop_turns: state.noopTurns, max_noop_iterations: maxNoop })
}
