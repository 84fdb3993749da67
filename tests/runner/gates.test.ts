// Breakpoints and approvals in-process (gates.ts, approve.ts): without a person the run pauses with a
// request that `approve`/`deny` + resume settle; with one, the prompt's answer is applied at once.
import { afterEach, describe, expect, test } from "bun:test"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { nobody, type ApprovalAnswer, type BreakpointAnswer, type Human } from "../../core/runner/context.ts"
import { settle } from "../../core/runner/settle.ts"
import { callsOf } from "../../core/store/calls.ts"
import { requestsOf } from "../../core/store/requests.ts"
import { QUIET_POLICY, workspace, type Workspace } from "./harness.ts"

let ws: Workspace | undefined
afterEach(() => {
  ws?.close()
  ws = undefined
})

const ASK_DEPLOY = { ...QUIET_POLICY, rules: [{ id: "confirm-deploy", tool: "shell", command: "echo deploy*", decision: "ask" }] }

function person(answers: { approve?: ApprovalAnswer; breakpoint?: BreakpointAnswer }): Human & { asked: string[] } {
  const asked: string[] = []
  return {
    ...nobody,
    interactive: true,
    asked,
    approve: async (prompt) => (asked.push(`approve ${prompt.tool}`), answers.approve ?? "deny"),
    breakpoint: async (_run, step) => (asked.push(`breakpoint ${step}`), answers.breakpoint ?? "stop"),
  }
}

describe("breakpoints", () => {
  test("nobody at the terminal: the run pauses before the step; approve + resume runs it", async () => {
    ws = workspace()
    ws.task({ policy: QUIET_POLICY, steps: [{ id: "ship", run: "echo shipped > shipped.txt", breakpoint: true }] })
    const first = await ws.run()
    expect(first).toMatchObject({ status: "paused", exitCode: 3 })
    expect(existsSync(join(ws.dir, "shipped.txt"))).toBe(false)
    const [request] = requestsOf(ws.store, first.runId, "pending")
    expect(request).toMatchObject({ kind: "breakpoint", itemId: "ship" })
    await settle(ws.env.store, first.runId, request!.id, { action: "approve" })
    const second = await ws.resume(first.runId)
    expect(second.status).toBe("completed")
    expect(existsSync(join(ws.dir, "shipped.txt"))).toBe(true)
  })

  test("a person at the terminal skips the step: it never runs, the rest of the plan does", async () => {
    const human = person({ breakpoint: "skip" })
    ws = workspace({ human })
    ws.task({ policy: QUIET_POLICY, steps: [{ id: "ship", run: "echo shipped > shipped.txt", breakpoint: true }, { id: "report", run: "echo done > report.txt", needs: ["ship"] }] })
    const result = await ws.run({ nonInteractive: false })
    expect(result.status).toBe("completed")
    expect(human.asked).toEqual(["breakpoint ship"])
    expect(existsSync(join(ws.dir, "shipped.txt"))).toBe(false)
    expect(existsSync(join(ws.dir, "report.txt"))).toBe(true)
  })
})

describe("approvals", () => {
  test("an ask without a person pauses; deny + resume fails the step with the person's reason (exit 5)", async () => {
    ws = workspace()
    ws.task({ policy: ASK_DEPLOY, steps: [{ id: "deploy", run: "echo deploy > deployed.txt" }] })
    const first = await ws.run()
    expect(first).toMatchObject({ status: "paused", exitCode: 3 })
    const [request] = requestsOf(ws.store, first.runId, "pending")
    expect(request).toMatchObject({ kind: "approval", itemId: "deploy" })
    await settle(ws.env.store, first.runId, request!.id, { action: "deny", reason: "not on a Friday" })
    const second = await ws.resume(first.runId)
    expect(second).toMatchObject({ status: "denied", exitCode: 5 })
    expect(callsOf(ws.store, first.runId)[0]).toMatchObject({ status: "denied", errorMessage: expect.stringContaining("not on a Friday") })
    expect(existsSync(join(ws.dir, "deployed.txt"))).toBe(false)
  })

  test("approve + resume runs the very call that waited (same call id), once", async () => {
    ws = workspace()
    ws.task({ policy: ASK_DEPLOY, steps: [{ id: "deploy", run: "echo deploy >> deployed.txt" }] })
    const first = await ws.run()
    const waited = callsOf(ws.store, first.runId)[0]!
    await settle(ws.env.store, first.runId, requestsOf(ws.store, first.runId, "pending")[0]!.id, { action: "approve" })
    const second = await ws.resume(first.runId)
    expect(second.status).toBe("completed")
    expect(callsOf(ws.store, first.runId).map((c) => [c.id, c.status, c.decidedBy])).toEqual([[waited.id, "ok", "user"]])
  })

  test("a person at the prompt approves once: the call runs without a request", async () => {
    const human = person({ approve: "once" })
    ws = workspace({ human })
    ws.task({ policy: ASK_DEPLOY, steps: [{ id: "deploy", run: "echo deploy > deployed.txt" }] })
    const result = await ws.run({ nonInteractive: false })
    expect(result.status).toBe("completed")
    expect(human.asked).toEqual(["approve shell"])
    expect(requestsOf(ws.store, result.runId)).toEqual([])
  })
})

describe("one call", () => {
  test("a step's timeout stops its command, and what it printed is stored redacted", async () => {
    ws = workspace({ env: { API_TOKEN: "tok_9f8e7d6c5b4a" } })
    ws.task({ policy: QUIET_POLICY, steps: [{ id: "slow", run: 'echo "token $API_TOKEN"; sleep 20', timeout: "1s" }] })
    const started = Date.now()
    const result = await ws.run()
    expect(result.status).toBe("failed")
    expect(Date.now() - started).toBeLessThan(15_000)
    const [call] = callsOf(ws.store, result.runId)
    expect(call).toMatchObject({ status: "error", errorType: "timeout" })
    expect(call!.output).toContain("token ")
    expect(call!.output).not.toContain("tok_9f8e7d6c5b4a")
  }, 30_000)
})
