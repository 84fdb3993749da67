// A batch: several runs, up to `jobs` at once. With fail-fast, the first failing run stops the others
// at their next step boundary (they end `interrupted`, resumable) and no queued run starts.
import type { RunStatus } from "../store/runs.ts"
import type { RunResult } from "./finish.ts"

/** The reason a fail-fast stop carries on the runs' interrupt signal (drive reads it, see lifecycle.ts). */
export class FailFastStop extends Error {
  constructor(readonly failed: RunResult) {
    super(`stopped by --fail-fast: run ${failed.runId} (${failed.task}) ${failed.status}`)
  }
}

/** One run of a batch as reported at its end: a queued run that never started has no run id. */
export interface BatchEntry {
  run: string | null
  task: string
  status: RunStatus | "not_started"
  exit_code: number | null
}

export interface BatchOutcome {
  results: RunResult[]
  entries: BatchEntry[]
  /** the failing run that stopped the batch (fail-fast) */
  stoppedBy?: string
}

/**
 * Exit codes that make a batch fail fast: the run failed (1), was denied (5) or a guard stopped it (4).
 * A run waiting for a person (3) or interrupted (130) is not a failure of the work. Pure.
 */
export function isFailure(exitCode: number): boolean {
  return exitCode === 1 || exitCode === 5 || exitCode === 4
}

/**
 * Runs every task through `start`, at most `jobs` at once. `start` gets the signal that ends its run
 * early: with failFast it fires once a run fails, and queued tasks are then never started.
 */
export async function runBatch<T extends { task: { name: string } }>(
  tasks: T[],
  opts: { jobs: number; failFast: boolean; interrupt: AbortSignal },
  start: (task: T, interrupt: AbortSignal) => Promise<RunResult>,
): Promise<BatchOutcome> {
  const stop = new AbortController()
  const interrupt = opts.failFast ? AbortSignal.any([opts.interrupt, stop.signal]) : opts.interrupt
  const results: (RunResult | undefined)[] = new Array(tasks.length)
  let next = 0
  const worker = async () => {
    // a queued task does not start once the batch is stopping (fail-fast or a signal)
    while (next < tasks.length && !(opts.failFast && interrupt.aborted)) {
      const i = next++
      const result = await start(tasks[i]!, interrupt)
      results[i] = result
      if (opts.failFast && isFailure(result.exitCode) && !stop.signal.aborted) stop.abort(new FailFastStop(result))
    }
  }
  await Promise.all(Array.from({ length: Math.min(Math.max(1, opts.jobs), tasks.length) }, worker))
  const entries = tasks.map((t, i): BatchEntry => {
    const r = results[i]
    return r ? { run: r.runId, task: r.task, status: r.status, exit_code: r.exitCode } : { run: null, task: t.task.name, status: "not_started", exit_code: null }
  })
  const done = results.filter((r): r is RunResult => r !== undefined)
  return stop.signal.aborted ? { results: done, entries, stoppedBy: (stop.signal.reason as FailFastStop).failed.runId } : { results: done, entries }
}
