// The scripted driver in-process: dependency order, retries with backoff, continue_on_error,
// and a denied step, through real shells and a real SQLite file.
import { afterEach, describe, expect, test } from "bun:test"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { callsOf } from "../../core/store/calls.ts"
import { findRun } from "../../core/store/runs.ts"
import { QUIET_POLICY, workspace, type Workspace } from "./harness.ts"

let ws: Workspace | undefined
afterEach(() => {
  ws?.close()
  ws = undefined
})

describe("the scripted driver", () => {
  test("runs steps in dependency order, not file order, and completes", async () => {
    ws = workspace()
    ws.task({
      policy: QUIET_POLICY,
      steps: [
        { id: "second", run: "echo second >> log.txt", needs: ["first"] },
        { id: "first", run: "echo first >> log.txt" },
      ],
    })
    const result = await ws.run()
    expect(result).toMatchObject({ status: "completed", exitCode: 0 })
    expect(readFileSync(join(ws.dir, "log.txt"), "utf8")).toBe("first\nsecond\n")
    expect(findRun(ws.store, result.runId)).toMatchObject({ driver: "steps", status: "completed" })
    const started = ws.events.find((e) => e.type === "run.started")!
    expect(started).toMatchObject({ driver: "steps", steps: 2 })
  })

  test("a failing step is retried (the attempt is in CCODE_ATTEMPT) and then passes", async () => {
    ws = workspace()
    ws.task({ policy: QUIET_POLICY, steps: [{ id: "flaky", run: 'echo "$CCODE_ATTEMPT" >> tries.txt; test "$CCODE_ATTEMPT" -ge 2', retries: 2 }] })
    const result = await ws.run()
    expect(result.status).toBe("completed")
    expect(readFileSync(join(ws.dir, "tries.txt"), "utf8")).toBe("1\n2\n")
    expect(callsOf(ws.store, result.runId).map((c) => c.status)).toEqual(["error", "ok"])
  })

  test("retries run out: the step fails, its dependents are blocked, the run exits 1", async () => {
    ws = workspace()
    ws.task({ policy: QUIET_POLICY, steps: [{ id: "broken", run: "exit 3", retries: 1 }, { id: "after", run: "echo never > never.txt", needs: ["broken"] }] })
    const result = await ws.run()
    expect(result).toMatchObject({ status: "failed", exitCode: 1 })
    expect(callsOf(ws.store, result.runId).filter((c) => c.itemId === "broken")).toHaveLength(2)
    expect(callsOf(ws.store, result.runId).some((c) => c.itemId === "after")).toBe(false)
  })

  test("continue_on_error lets the plan go on past a failure", async () => {
    ws = workspace()
    ws.task({ policy: QUIET_POLICY, steps: [{ id: "lint", run: "exit 1", continue_on_error: true }, { id: "build", run: "echo built > out.txt", needs: ["lint"] }] })
    const result = await ws.run()
    expect(result.status).toBe("completed")
    expect(readFileSync(join(ws.dir, "out.txt"), "utf8")).toBe("built\n")
  })

  test("a step the policy denies is never run or retried; the run exits 5", async () => {
    ws = workspace()
    ws.task({
      policy: { ...QUIET_POLICY, rules: [{ id: "no-deploy", tool: "shell", command: "echo deploy*", decision: "deny" }] },
      steps: [{ id: "deploy", run: "echo deploy > deployed.txt", retries: 3 }],
    })
    const result = await ws.run()
    expect(result).toMatchObject({ status: "denied", exitCode: 5 })
    expect(callsOf(ws.store, result.runId).map((c) => c.status)).toEqual(["denied"])
    expect(() => readFileSync(join(ws!.dir, "deployed.txt"))).toThrow()
  })
})

describe("resume keeps the driver a run started with", () => {
  test("a task file that is now an agent task cannot continue a scripted run (exit 2, nothing runs)", async () => {
    ws = workspace()
    ws.task({ policy: QUIET_POLICY, steps: [{ id: "gate", run: "echo gate > gate.txt", breakpoint: true }] })
    const first = await ws.run()
    expect(first.status).toBe("paused")
    ws.file("turns.json", "[]")
    ws.task({ policy: QUIET_POLICY, agent: { provider: "replay", script: "turns.json", goal: "echo gate > gate.txt" } })
    const error = await ws.resume(first.runId).then(() => undefined, (e: Error & { exitCode?: number }) => e)
    expect(error?.message).toContain("was started by the steps driver")
    expect(error?.exitCode).toBe(2)
    expect(findRun(ws.store, first.runId).status).toBe("paused")
    expect(() => readFileSync(join(ws!.dir, "gate.txt"))).toThrow()
  })
})
