// The agent loop in-process against scripted model servers: goals reached, refusals reported to the
// model, plans and scratchpad kept, runs finished by finish(), by a plain answer, or by limits.
import { afterEach, describe, expect, test } from "bun:test"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { callsOf, planOf } from "../../core/store/calls.ts"
import { usage } from "../../core/store/schema.ts"
import { scriptedServer, toolResults, type ScriptedServer, type ScriptedTurn } from "../fixtures/llm/server.ts"
import { QUIET_POLICY, workspace, type Workspace } from "./helpers.ts"

let server: ScriptedServer | undefined
let ws: Workspace | undefined
afterEach(() => {
  server?.close()
  ws?.close()
  server = ws = undefined
})

function openaiTask(turns: ScriptedTurn[], agent: Record<string, unknown> = {}, policy: Record<string, unknown> = QUIET_POLICY) {
  server = scriptedServer({ protocol: "openai", turns, apiKey: "sk-test" })
  ws = workspace({ env: { TEST_KEY: "sk-test" } })
  ws.task({ agent: { provider: "openai", model: "m1", base_url: server.url, api_key_env: "TEST_KEY", goal: "fix add()", ...agent }, policy })
  return { server, ws }
}

describe("the agent loop", () => {
  test("a goal reached in several turns with reads, an edit and a test run: exit 0, summary lists every call", async () => {
    const { server, ws } = openaiTask([
      { text: "Let me look around.", calls: [{ tool: "list_dir", args: {} }, { tool: "read_file", args: { path: "add.js" } }] },
      { text: "The operator is wrong.", calls: [{ tool: "edit_file", args: { path: "add.js", old_string: "a - b", new_string: "a + b" } }] },
      { text: "Now the check.", calls: [{ tool: "shell", args: { command: "sh check.sh" } }] },
      { calls: [{ tool: "finish", args: { success: true, summary: "add() adds again; check.sh passes" } }] },
    ])
    ws.file("add.js", "export const add = (a, b) => a - b\n")
    ws.file("check.sh", "grep -q 'a + b' add.js && echo 'check passed'\n")
    const result = await ws.run()
    expect(result.status).toBe("completed")
    expect(result.exitCode).toBe(0)
    expect(result.message).toBe("add() adds again; check.sh passes")
    expect(readFileSync(join(ws.dir, "add.js"), "utf8")).toContain("a + b")

    const calls = callsOf(ws.store, result.runId)
    expect(calls.map((c) => [c.tool, c.status, c.itemId])).toEqual([
      ["list_dir", "ok", "t1.1"], ["read_file", "ok", "t1.2"], ["edit_file", "ok", "t2.1"], ["shell", "ok", "t3.1"], ["finish", "ok", "t4.1"],
    ])
    const summary = readFileSync(result.summaryPath!, "utf8")
    for (const c of calls) expect(summary).toContain(`| ${c.seq} | ${c.itemId} | ${c.tool} |`)
    expect(summary).toContain("tokens: 400 in, 80 out")
    // the model saw each result once, in the turn after it asked
    const third = toolResults("openai", server.requests[3]!)
    expect([...third.values()].some((t) => t.includes("check passed"))).toBe(true)
    expect(server.requests.map((r) => r.turn)).toEqual([0, 1, 2, 3])
    expect(ws.store.db.select().from(usage).all().map((u) => u.turn)).toEqual([1, 2, 3, 4])
    const types = ws.events.map((e) => e.type)
    expect(types.filter((t) => t === "agent.message")).toHaveLength(4)
    expect(types.filter((t) => t === "agent.usage")).toHaveLength(4)
  })

  test("a denied call goes back to the model with the reason, and its next choice runs", async () => {
    const { server, ws } = openaiTask(
      [
        { calls: [{ tool: "shell", args: { command: "rm -rf build" } }] },
        { text: "Deleting is refused; moving it aside instead.", calls: [{ tool: "shell", args: { command: "mv build build.old" } }] },
        { text: "Done." },
      ],
      {},
      { ...QUIET_POLICY, rules: [{ id: "no-rm", tool: "shell", command: "rm *", decision: "deny", reason: "nothing gets deleted here" }] },
    )
    ws.file("build/out.txt", "artifact\n")
    const result = await ws.run()
    expect(result.exitCode).toBe(0)
    const refused = [...toolResults("openai", server.requests[1]!).values()]
    expect(refused).toHaveLength(1)
    expect(refused[0]).toStartWith("refused:")
    expect(refused[0]).toContain("nothing gets deleted here")
    expect(readFileSync(join(ws.dir, "build.old/out.txt"), "utf8")).toBe("artifact\n")
    expect(callsOf(ws.store, result.runId).map((c) => [c.decision, c.status])).toEqual([["deny", "denied"], ["allow", "ok"]])
  })

  test("a tool the task does not offer is refused without running", async () => {
    const { server, ws } = openaiTask([{ calls: [{ tool: "shell", args: { command: "touch made.txt" } }] }, { text: "ok" }], { tools: ["read_file"] })
    const result = await ws.run()
    expect(result.exitCode).toBe(0)
    expect([...toolResults("openai", server.requests[1]!).values()][0]).toContain('the tool "shell" is not offered')
    expect(callsOf(ws.store, result.runId)).toHaveLength(0)
    const offered = (server.requests[0]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name)
    expect(offered).toEqual(["read_file", "finish"])
  })

  test("update_plan and scratchpad: the plan is the run's plan, notes survive across turns", async () => {
    const { server, ws } = openaiTask([
      {
        calls: [
          { tool: "update_plan", args: { items: [{ id: "read", title: "Read the code", status: "in_progress" }, { id: "fix", title: "Fix it", status: "pending" }] } },
          { tool: "scratchpad", args: { action: "update", section: "todo", content: "- [x] read\n- [ ] fix" } },
        ],
      },
      { calls: [{ tool: "scratchpad", args: { action: "read" } }, { tool: "update_plan", args: { items: [{ id: "read", title: "Read the code", status: "completed" }, { id: "fix", title: "Fix it", status: "completed" }] } }] },
      { text: "All done." },
    ])
    const result = await ws.run()
    expect(result.exitCode).toBe(0)
    expect(planOf(ws.store, result.runId).map((p) => [p.id, p.state])).toEqual([["read", "done"], ["fix", "done"]])
    expect([...toolResults("openai", server.requests[2]!).values()].join("\n")).toContain("- [x] read\n- [ ] fix")
    const summary = readFileSync(result.summaryPath!, "utf8")
    expect(summary).toContain("| read | done |")
  })

  test("a scratchpad update that breaks its format is an error result the model can correct", async () => {
    const { server, ws } = openaiTask([{ calls: [{ tool: "scratchpad", args: { action: "update", section: "todo", content: "fix things" } }] }, { text: "ok" }])
    expect((await ws.run()).exitCode).toBe(0)
    expect([...toolResults("openai", server.requests[1]!).values()][0]).toContain("not a checklist item")
  })

  test("finish with success=false ends the run as failed (exit 1) with the agent's reason", async () => {
    const { ws } = openaiTask([{ calls: [{ tool: "finish", args: { success: false, summary: "the tests need a database I cannot reach" } }] }])
    const result = await ws.run()
    expect(result.status).toBe("failed")
    expect(result.exitCode).toBe(1)
    expect(result.message).toBe("the tests need a database I cannot reach")
  })

  test("an answer without tool calls completes the run with the model's words", async () => {
    const { ws } = openaiTask([{ text: "Nothing to do: add() is already correct.\nMore detail here." }])
    const result = await ws.run()
    expect(result.exitCode).toBe(0)
    expect(result.message).toBe("Nothing to do: add() is already correct.")
  })

  test("arguments the tool rejects come back as an INVALID_PARAM error result", async () => {
    const { server, ws } = openaiTask([{ calls: [{ tool: "read_file", args: { file: "x" } }] }, { text: "ok" }])
    expect((await ws.run()).exitCode).toBe(0)
    expect([...toolResults("openai", server.requests[1]!).values()][0]).toContain("INVALID_PARAM")
  })
})
