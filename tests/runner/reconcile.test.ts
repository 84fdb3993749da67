// Resume after a crash (reconcile.ts), in-process: a call whose command had already exited is settled
// from its recorded exit status and never run again; one approved to run again runs under its own id.
import { afterEach, describe, expect, test } from "bun:test"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { settle } from "../../core/runner/settle.ts"
import { callsOf, updateCall } from "../../core/store/calls.ts"
import { requestsOf } from "../../core/store/requests.ts"
import { QUIET_POLICY, until, workspace, type Workspace } from "./harness.ts"

let ws: Workspace | undefined
afterEach(() => {
  ws?.close()
  ws = undefined
})

/** Interrupt the run while `step` runs; `exitCode`: what the command's row says it exited with (null: still running when ccode died). */
async function stopDuring(w: Workspace, exitCode: number | null): Promise<string> {
  const running = w.run()
  await until(() => existsSync(join(w.dir, "started.txt")))
  w.interrupt()
  const stopped = await running
  expect(stopped.status).toBe("interrupted")
  const [call] = callsOf(w.store, stopped.runId).filter((c) => c.status === "running")
  expect(call).toBeDefined()
  updateCall(w.store, call!.id, { exitCode })
  return stopped.runId
}

describe("resume after a crash", () => {
  test("a command that had exited 0 before ccode stopped counts as done: not run again, the plan goes on", async () => {
    ws = workspace()
    ws.task({ policy: QUIET_POLICY, steps: [{ id: "work", run: "echo run >> runs.txt; touch started.txt; sleep 30" }, { id: "next", run: "echo next > next.txt", needs: ["work"] }] })
    const runId = await stopDuring(ws, 0)
    const resumed = await ws.resume(runId)
    expect(resumed.status).toBe("completed")
    expect(readFileSync(join(ws.dir, "runs.txt"), "utf8")).toBe("run\n")
    expect(existsSync(join(ws.dir, "next.txt"))).toBe(true)
    expect(callsOf(ws.store, runId)[0]).toMatchObject({ status: "ok", output: "(finished before ccode stopped; its output was not kept)" })
  }, 60_000)

  test("approve on the in_flight request runs the same call again (same id), then the run completes", async () => {
    ws = workspace()
    ws.task({ policy: QUIET_POLICY, steps: [{ id: "work", run: 'echo run >> runs.txt; test -e started.txt && exit 0; touch started.txt; sleep 30' }] })
    const runId = await stopDuring(ws, null)
    const paused = await ws.resume(runId)
    expect(paused.exitCode).toBe(3)
    const [request] = requestsOf(ws.store, runId, "pending")
    await settle(ws.env.store, runId, request!.id, { action: "approve" })
    const done = await ws.resume(runId)
    expect(done.status).toBe("completed")
    expect(readFileSync(join(ws.dir, "runs.txt"), "utf8")).toBe("run\nrun\n")
    const calls = callsOf(ws.store, runId)
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({ status: "ok" })
  }, 60_000)
})
