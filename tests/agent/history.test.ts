// The conversation's storage: stored messages live in agent_messages, the checkpoint keeps only
// the ones after them, and a resumed or exported run sees the whole conversation again.
import { afterEach, describe, expect, test } from "bun:test"
import { newAgentState } from "../../core/agent/conversation.ts"
import { agentOf, attachHistory } from "../../core/agent/history.ts"
import { insertRun } from "../../core/store/runs.ts"
import { latestCheckpoint } from "../../core/store/calls.ts"
import { agentMessages } from "../../core/store/schema.ts"
import { scriptedServer, type ScriptedServer } from "../fixtures/llm/server.ts"
import { QUIET_POLICY, workspace, type Workspace } from "./helpers.ts"

let server: ScriptedServer | undefined
let ws: Workspace | undefined
afterEach(() => {
  server?.close()
  ws?.close()
  server = ws = undefined
})

describe("conversation storage", () => {
  test("checkpoints stay small while the stored conversation grows; the whole of it comes back", async () => {
    const read = (path: string) => ({ calls: [{ tool: "read_file", args: { path } }] })
    server = scriptedServer({ protocol: "openai", turns: [read("a.txt"), read("b.txt"), read("c.txt"), { text: "read them all" }] })
    ws = workspace({ env: { K: "k" } })
    for (const name of ["a", "b", "c"]) ws.file(`${name}.txt`, `${name.repeat(2000)}\n`)
    ws.task({ agent: { provider: "openai", model: "m", base_url: server.url, api_key_env: "K", goal: "read the files" }, policy: QUIET_POLICY })
    const result = await ws.run()
    expect(result.exitCode).toBe(0)

    const rows = ws.store.db.select().from(agentMessages).all()
    const checkpoint = latestCheckpoint<{ agent: { messages: unknown[]; stored: number; messagesFrom: number } }>(ws.store, result.runId)!.state.agent
    // goal + 4 answers + 3 results: all stored, none left for the checkpoint to carry
    expect(rows.map((r) => r.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    expect(checkpoint.stored).toBe(8)
    expect(checkpoint.messagesFrom).toBe(8)
    expect(checkpoint.messages).toEqual([])

    const whole = (await agentOf(ws.env.store, result.runId))!
    expect(whole.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "tool", "assistant", "tool", "assistant"])
    expect(whole.messages[6]).toMatchObject({ role: "tool", text: `${"c".repeat(2000)}\n` })
    // the last request the model saw carried every earlier result exactly once
    const last = server.requests.at(-1)!.body.messages as { role: string; content: string }[]
    expect(last.filter((m) => m.role === "tool").map((m) => m.content[0])).toEqual(["a", "b", "c"])
  })

  test("a checkpoint says where its messages start; one that holds them all is taken as it is", async () => {
    ws = workspace()
    insertRun(ws.store, { id: "r1", task: "t", taskFile: "t.yaml", workdir: ws.dir, status: "running", driver: "agent", createdAt: 1, updatedAt: 1 })
    const rows = ["goal", "first", "second"].map((text, seq) => ({ runId: "r1", seq, message: JSON.stringify({ role: "user", text }) }))
    ws.store.db.insert(agentMessages).values(rows).run()
    const tail = { ...newAgentState("goal"), messages: [{ role: "user" as const, text: "third" }], stored: 3, messagesFrom: 3 }
    const whole = await attachHistory(ws.env.store, "r1", JSON.parse(JSON.stringify(tail)))
    expect(whole.messages.map((m) => (m as { text: string }).text)).toEqual(["goal", "first", "second", "third"])
    expect(JSON.parse(JSON.stringify(whole))).toMatchObject({ stored: 3, messagesFrom: 3, messages: [{ text: "third" }] })
    const full = { ...newAgentState("goal"), messages: ["goal", "first", "second", "third"].map((text) => ({ role: "user" as const, text })), stored: 3 }
    expect((await attachHistory(ws.env.store, "r1", full)).messages).toHaveLength(4)
  })
})
