// A call in flight when ccode stopped, on both drivers: the in_flight request is written by one
// function (core/runner/requests.ts), so its title and detail are redacted on the scripted path as
// on the agent path, and a person's answer settles the call the same way.
import { afterEach, describe, expect, test } from "bun:test"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { settle } from "../../core/runner/settle.ts"
import { callsOf, updateCall } from "../../core/store/calls.ts"
import { requestsOf } from "../../core/store/requests.ts"
import { scriptedServer, type ScriptedServer } from "../fixtures/llm/server.ts"
import { QUIET_POLICY, until, workspace, type Workspace } from "./harness.ts"

let ws: Workspace | undefined
let server: ScriptedServer | undefined
afterEach(() => {
  server?.close()
  ws?.close()
  ws = server = undefined
})

const LONG = "touch started.txt; sleep 30"

/** Stop the run while its shell call runs, then make it look like kill -9: the command never reported its exit. */
async function crashWhileRunning(w: Workspace): Promise<string> {
  const running = w.run()
  await until(() => existsSync(join(w.dir, "started.txt")))
  w.interrupt()
  const stopped = await running
  expect(stopped.status).toBe("interrupted")
  for (const call of callsOf(w.store, stopped.runId)) if (call.status === "running") updateCall(w.store, call.id, { exitCode: null })
  return stopped.runId
}

describe("a call in flight at a crash", () => {
  test("scripted: the request's title and detail never hold a secret; answering done completes the step", async () => {
    ws = workspace({ env: { DEPLOY_CRED: "hunter2secret" } })
    ws.task({
      env: { DEPLOY_CRED: "hunter2secret" },
      policy: { ...QUIET_POLICY, redaction: { env: ["DEPLOY_CRED"] } },
      // the step id is the secret's value: the title names the step
      steps: [{ id: "hunter2secret", run: `${LONG} # hunter2secret` }, { id: "after", run: "echo after > after.txt", needs: ["hunter2secret"] }],
    })
    const runId = await crashWhileRunning(ws)
    const paused = await ws.resume(runId)
    expect(paused).toMatchObject({ status: "paused", exitCode: 3 })
    const [request] = requestsOf(ws.store, runId, "pending")
    expect(request).toMatchObject({ kind: "in_flight" })
    expect(request!.title).toContain("was running when ccode stopped")
    expect(request!.title).not.toContain("hunter2secret")
    expect(request!.detail).not.toContain("hunter2secret")
    expect(JSON.stringify(ws.events.filter((e) => e.type === "request.created"))).not.toContain("hunter2secret")

    await settle(ws.env.store, runId, request!.id, { action: "answer", text: "done" })
    const done = await ws.resume(runId)
    expect(done.status).toBe("completed")
    expect(existsSync(join(ws.dir, "after.txt"))).toBe(true)
    const first = callsOf(ws.store, runId)[0]!
    expect(first).toMatchObject({ status: "ok", output: "(marked done by a person after a crash)" })
    expect(ws.events.some((e) => e.type === "request.settled" && e.req === request!.id)).toBe(true)
  }, 60_000)

  test("agent: the request's title is redacted the same way; a denial tells the model and the run goes on", async () => {
    server = scriptedServer({ protocol: "anthropic", turns: [{ calls: [{ tool: "shell", args: { command: LONG } }] }, { text: "Understood." }] })
    ws = workspace({ env: { TEST_KEY: "k" }, name: "agent-test" })
    ws.task({
      agent: { provider: "anthropic", model: "claude-test", base_url: server.url, api_key_env: "TEST_KEY", goal: "start the server" },
      // the call's key (t1.1) is named in the title: a pattern that matches it proves the title is redacted
      policy: { ...QUIET_POLICY, redaction: { patterns: [{ id: "call-key", regex: "t1\\.1" }] } },
    })
    const runId = await crashWhileRunning(ws)
    const paused = await ws.resume(runId)
    expect(paused).toMatchObject({ status: "paused", exitCode: 3 })
    const [request] = requestsOf(ws.store, runId, "pending")
    expect(request).toMatchObject({ kind: "in_flight", itemId: "t1.1" })
    expect(request!.title).toContain("was running when ccode stopped")
    expect(request!.title).not.toContain("t1.1")

    await settle(ws.env.store, runId, request!.id, { action: "deny" })
    const done = await ws.resume(runId)
    expect(done.status).toBe("completed")
    expect(callsOf(ws.store, runId)[0]).toMatchObject({ status: "abandoned" })
    expect(server.requests).toHaveLength(2)
  }, 60_000)
})
