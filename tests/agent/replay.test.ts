// The replay provider: a recorded run exported as turns plays back with no model, reproducing its
// decisions under the same policy and showing what another policy would have done.
import { afterEach, describe, expect, test } from "bun:test"
import { replayScriptText } from "../../core/agent/export.ts"
import { agentOf } from "../../core/agent/history.ts"
import { callsOf } from "../../core/store/calls.ts"
import { scriptedServer, type ScriptedServer } from "../fixtures/llm/server.ts"
import { QUIET_POLICY, workspace, type Workspace } from "./helpers.ts"

let server: ScriptedServer | undefined
const spaces: Workspace[] = []
afterEach(() => {
  server?.close()
  for (const ws of spaces.splice(0)) ws.close()
})

const NO_PUSH = { ...QUIET_POLICY, rules: [{ id: "no-push", tool: "shell", command: "git push *", decision: "deny", reason: "no pushes from agents" }] }

function decisions(ws: Workspace, runId: string) {
  return callsOf(ws.store, runId).map((c) => [c.tool, JSON.parse(c.args) as unknown, c.decision, c.status])
}

async function recordedRun() {
  server = scriptedServer({
    protocol: "openai",
    turns: [
      { text: "Notes first.", calls: [{ tool: "write_file", args: { path: "notes.md", content: "# notes\n" } }, { tool: "read_file", args: { path: "notes.md" } }] },
      { calls: [{ tool: "shell", args: { command: "git push origin main" } }] },
      { text: "Push refused; leaving it.", calls: [{ tool: "finish", args: { success: true, summary: "notes written" } }] },
    ],
  })
  const ws = workspace({ env: { K: "k" } })
  spaces.push(ws)
  ws.task({ agent: { provider: "openai", model: "m", base_url: server.url, api_key_env: "K", goal: "write notes and push" }, policy: NO_PUSH })
  const result = await ws.run()
  const agent = (await agentOf(ws.env.store, result.runId))!
  return { ws, result, script: replayScriptText(agent, { runId: result.runId, task: "agent-test" }) }
}

function replayIn(script: string, policy: Record<string, unknown>) {
  const ws = workspace()
  spaces.push(ws)
  ws.file("turns.yaml", script)
  ws.task({ agent: { provider: "replay", script: "turns.yaml" }, policy })
  return ws
}

describe("the replay provider", () => {
  test("a recorded run, exported and replayed under the same policy, makes the same decisions", async () => {
    const recorded = await recordedRun()
    expect(recorded.result.exitCode).toBe(0)
    expect(recorded.script).toContain(`# Replay script of ccode run ${recorded.result.runId}`)
    const replay = replayIn(recorded.script, NO_PUSH)
    const result = await replay.run()
    expect(result.exitCode).toBe(0)
    expect(result.message).toBe("notes written")
    expect(decisions(replay, result.runId)).toEqual(decisions(recorded.ws, recorded.result.runId))
    expect(decisions(replay, result.runId).map((d) => d[2])).toEqual(["allow", "allow", "deny", "allow"])
    expect(await Bun.file(`${replay.dir}/notes.md`).text()).toBe("# notes\n")
  })

  test("replayed under a stricter policy, the same turns get the stricter decisions", async () => {
    const recorded = await recordedRun()
    const strict = { ...NO_PUSH, rules: [...NO_PUSH.rules, { id: "no-writes", tool: "write_file", decision: "deny", reason: "read-only review" }] }
    const replay = replayIn(recorded.script, strict)
    const result = await replay.run()
    expect(decisions(replay, result.runId).map((d) => [d[0], d[2]])).toEqual([["write_file", "deny"], ["read_file", "allow"], ["shell", "deny"], ["finish", "allow"]])
  })

  test("a script that runs out of turns ends the run", async () => {
    const replay = replayIn("- calls: [{tool: list_dir, args: {}}]\n", QUIET_POLICY)
    const result = await replay.run()
    expect(result.exitCode).toBe(0)
    expect(result.message).toBe("(the replay script has no more turns)")
  })

  test("a malformed script is exit 2 with file:line:col", async () => {
    const replay = replayIn("- text: hi\n  call: [{tool: shell}]\n", QUIET_POLICY)
    await expect(replay.run()).rejects.toThrow(/turns.yaml:2:3: unknown key "call"/)
  })
})
