// runBatch: how many run at once, what fail-fast stops, what the report lists.
import { describe, expect, test } from "bun:test"
import { FailFastStop, isFailure, runBatch } from "../../core/runner/batch.ts"
import type { RunResult } from "../../core/runner/finish.ts"

const task = (name: string, exitCode: number, ms: number) => ({ task: { name }, exitCode, ms })
const result = (name: string, exitCode: number, status: RunResult["status"]): RunResult => ({ runId: `r-${name}`, task: name, status, exitCode, message: "", pending: [] })

describe("runBatch", () => {
  test("fail-fast: the signal tells the running ones why, queued ones never start", async () => {
    const seen: string[] = []
    const outcome = await runBatch([task("a", 0, 80), task("bad", 1, 10), task("c", 0, 10)], { jobs: 2, failFast: true, interrupt: new AbortController().signal }, async (t, signal) => {
      seen.push(t.task.name)
      await Bun.sleep(t.ms)
      if (signal.aborted && t.task.name === "a") {
        expect(signal.reason).toBeInstanceOf(FailFastStop)
        return result("a", 130, "interrupted")
      }
      return result(t.task.name, t.exitCode, t.exitCode ? "failed" : "completed")
    })
    expect(seen).toEqual(["a", "bad"])
    expect(outcome.entries).toEqual([
      { run: "r-a", task: "a", status: "interrupted", exit_code: 130 },
      { run: "r-bad", task: "bad", status: "failed", exit_code: 1 },
      { run: null, task: "c", status: "not_started", exit_code: null },
    ])
    expect(outcome.stoppedBy).toBe("r-bad")
  })

  test("without fail-fast every task runs, a failure stops nothing", async () => {
    const outcome = await runBatch([task("bad", 1, 1), task("b", 0, 1)], { jobs: 1, failFast: false, interrupt: new AbortController().signal }, async (t, signal) => {
      expect(signal.aborted).toBe(false)
      return result(t.task.name, t.exitCode, t.exitCode ? "failed" : "completed")
    })
    expect(outcome.entries.map((e) => e.status)).toEqual(["failed", "completed"])
    expect(outcome.stoppedBy).toBeUndefined()
  })

  test("what counts as a failure: failed, denied, stopped by a guard; not paused or interrupted", () => {
    expect([0, 1, 3, 4, 5, 130].filter(isFailure)).toEqual([1, 4, 5])
  })
})
