// openRun(): the one run start, used by `ccode run` and by the MCP server's session. A session's run
// is recorded like a task's (driver mcp, session_start, the warnings a run records) and its calls go
// through the same decision path.
import { afterEach, describe, expect, test } from "bun:test"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { queryAudit } from "../../core/audit/query.ts"
import { openMcpSession } from "../../core/mcp/session.ts"
import { callsOf } from "../../core/store/calls.ts"
import { findRun } from "../../core/store/runs.ts"
import { OPTIONS, QUIET_POLICY, workspace, type Workspace } from "./harness.ts"

let ws: Workspace | undefined
afterEach(() => {
  ws?.close()
  ws = undefined
})

describe("openRun", () => {
  test("an MCP session is a run with driver mcp: its calls are decided, run and recorded; close completes it", async () => {
    ws = workspace()
    ws.file(".ccode/policy.yaml", `version: 1\nrules:\n  - { id: no-rm, tool: shell, command: "rm *", decision: deny }\n`)
    const session = await openMcpSession(ws.env, { cwd: ws.dir, options: { ...OPTIONS, trust: true } })
    const ran = await session.call("shell", { command: "echo from-mcp" })
    expect(ran.status).toBe("ok")
    const denied = await session.call("shell", { command: "rm -rf ./x" })
    expect(denied.error).toMatchObject({ code: "DENIED" })
    const result = await session.close()
    expect(result).toMatchObject({ status: "completed", exitCode: 0 })
    expect(findRun(ws.store, session.runId)).toMatchObject({ driver: "mcp", status: "completed" })
    expect(callsOf(ws.store, session.runId).map((c) => c.status)).toEqual(["ok", "denied"])
    expect(ws.events.find((e) => e.type === "run.started")).toMatchObject({ driver: "mcp", steps: 0 })
    const start = queryAudit(ws.store, { runs: [session.runId], types: ["session_start"] })
    expect(start.map((r) => [r.action, r.reason])).toEqual([["mcp", "ccode mcp"]])
  })

  test("a session records that redaction is off, as a task run does (it did not before openRun)", async () => {
    ws = workspace({ env: { CCODE_REDACT: "0" } })
    const session = await openMcpSession(ws.env, { cwd: ws.dir, options: OPTIONS })
    await session.close()
    const rows = queryAudit(ws.store, { runs: [session.runId], types: ["policy"] })
    expect(rows.some((r) => r.action === "redaction_disabled")).toBe(true)

    ws.task({ policy: QUIET_POLICY, steps: [{ id: "a", run: "true" }] })
    const run = await ws.run()
    expect(queryAudit(ws.store, { runs: [run.runId], types: ["policy"] }).some((r) => r.action === "redaction_disabled")).toBe(true)
  })

  test("an untrusted session in a repository below a .ccode/ opens: the person chose its folder (no task file did)", async () => {
    ws = workspace()
    ws.file(".ccode/.keep", "")
    const repo = join(ws.dir, "src", "app")
    mkdirSync(join(repo, ".git"), { recursive: true })
    const session = await openMcpSession(ws.env, { cwd: repo, options: { ...OPTIONS, trust: false } })
    expect((await session.call("shell", { command: "echo from-mcp" })).status).toBe("ok")
    expect((await session.close()).exitCode).toBe(0)
  })
})
