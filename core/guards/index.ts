// Public face of the guards: limits, loop detector, circuit breaker, retries, stall and workspace
// watch. Everything but fingerprintWorkspace is pure (state in, state out, `now` passed in).
export {
  afterTurn, checkBeforeCall, checkBeforeTurn, disabledTools, initGuardState, pauseGuards, recordCall, recordUsage,
  resumeGuards, setTripped, startCall,
  type GuardUpdate, type GuardPolicy, type GuardState, type TurnReport,
} from "./state.ts"
export { type GuardName, type Trip } from "./trip.ts"
export { remainingWallTime, toolTimeoutFor, wallTimeUsed, type Driver, type Usage, type WallClock } from "./limits.ts"
export { detectLoop, loopEntry, type CallSummary, type LoopEntry, type LoopFinding, type LoopType } from "./loop.ts"
export { breakerVerdict, type Breaker, type BreakerVerdict, type CircuitState, type Transition } from "./breaker.ts"
export { backoffDelay, isRetryable, shouldRetry, STEP_BACKOFF_CAP_MS, type BackoffOptions, type Jitter } from "./retry.ts"
export { stallStep, type StallState, type TurnOutcome } from "./stall.ts"
export { describeDiff, diffFingerprints, externalChangeTrip, markAt, setMark, type FileMark, type Fingerprint, type WorkspaceDiff } from "./workspace-diff.ts"
export { fingerprintWorkspace, ignorer, type FingerprintOptions } from "./fingerprint.ts"
