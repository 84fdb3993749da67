import { describe, expect, test } from "bun:test"
import { chooseRuns, type PruneCandidate } from "../../core/runner/prune.ts"
import { mayBeLive } from "../../core/runner/liveness.ts"
import type { RunStatus } from "../../core/store/runs.ts"

const DAY = 86_400_000
const now = 100 * DAY
const run = (id: string, status: RunStatus, touchedDaysAgo: number): PruneCandidate => ({ id, task: "t", status, pid: null, host: null, touchedAt: now - touchedDaysAgo * DAY })

describe("which runs a prune removes", () => {
  const runs = [run("old-done", "completed", 30), run("old-failed", "failed", 8), run("fresh-done", "completed", 1), run("old-paused", "paused", 30), run("old-crashed", "running", 30)]

  test("finished runs not touched for the age; resumable ones stay", () => {
    expect(chooseRuns(runs, { olderThanMs: 7 * DAY, all: false, now }, () => false).map((r) => r.id)).toEqual(["old-done", "old-failed"])
  })

  test("--all adds resumable runs, but never one whose process is still at work", () => {
    const live = (r: PruneCandidate) => r.id === "old-crashed"
    expect(chooseRuns(runs, { olderThanMs: 7 * DAY, all: true, now }, live).map((r) => r.id)).toEqual(["old-done", "old-failed", "old-paused"])
  })

  test("a run marked running on another host (a shared store) may be alive there: never chosen, whatever its pid is here", () => {
    const elsewhere = { ...run("on-ci-3", "running", 30), pid: 999_999_999, host: "ci-3" }
    const crashedHere = { ...run("crashed-here", "running", 30), pid: 999_999_999, host: "this-host" }
    expect(mayBeLive(elsewhere, "this-host")).toBe(true)
    expect(mayBeLive(crashedHere, "this-host")).toBe(false)
    expect(chooseRuns([elsewhere, crashedHere], { olderThanMs: 7 * DAY, all: true, now }, (r) => mayBeLive(r, "this-host")).map((r) => r.id)).toEqual(["crashed-here"])
  })
})
