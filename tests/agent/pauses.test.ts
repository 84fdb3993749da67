// An agent run that needs a person: ask_user and approvals pause without a TTY (exit 3) and continue
// after `answer`/`approve` + resume; with a person at the terminal they are asked at once.
import { afterEach, describe, expect, test } from "bun:test"
import { existsSync } from "node:fs"
import { join } from "node:path"
import type { Human } from "../../core/runner/context.ts"
import { settle } from "../../core/runner/settle.ts"
import { callsOf } from "../../core/store/calls.ts"
import { requestsOf } from "../../core/store/requests.ts"
import { scriptedServer, toolResults, type ScriptedServer, type ScriptedTurn } from "../fixtures/llm/server.ts"
import { nobody, QUIET_POLICY, workspace, type Workspace } from "./helpers.ts"

let server: ScriptedServer | undefined
let ws: Workspace | undefined
afterEach(() => {
  server?.close()
  ws?.close()
  server = ws = undefined
})

function setup(turns: ScriptedTurn[], policy: Record<string, unknown> = QUIET_POLICY, human?: Human) {
  server = scriptedServer({ protocol: "anthropic", turns })
  ws = workspace({ human, env: { TEST_KEY: "k" } })
  ws.task({ agent: { provider: "anthropic", model: "claude-test", base_url: server.url, api_key_env: "TEST_KEY", goal: "set up the project" }, policy })
  return { server, ws }
}

const ASK: ScriptedTurn = { text: "I need to know.", calls: [{ tool: "ask_user", args: { questions: ["Which database should I use?"], format: "single", options: ["postgres", "sqlite"] } }] }

describe("agent runs that need a person", () => {
  test("ask_user without a TTY pauses (exit 3); answer + resume hands the answer to the model", async () => {
    const { server, ws } = setup([ASK, { calls: [{ tool: "write_file", args: { path: "db.txt", content: "sqlite\n" } }] }, { text: "Configured." }])
    const first = await ws.run()
    expect(first.status).toBe("paused")
    expect(first.exitCode).toBe(3)
    const [question] = requestsOf(ws.store, first.runId, "pending")
    expect(question).toMatchObject({ kind: "question", title: "Which database should I use?", itemId: "t1.1" })
    expect(first.pending.map((p) => p.id)).toEqual([question!.id])
    expect(server.requests).toHaveLength(1)

    await settle(ws.env.store, first.runId, question!.id, { action: "answer", text: "sqlite" })
    const second = await ws.resume(first.runId)
    expect(second.exitCode).toBe(0)
    const delivered = [...toolResults("anthropic", server.requests[1]!).values()]
    expect(delivered).toEqual(["the user answered: sqlite"])
    expect(existsSync(join(ws.dir, "db.txt"))).toBe(true)
    // the ask_user call ran once; nothing was asked twice
    expect(callsOf(ws.store, first.runId).filter((c) => c.tool === "ask_user")).toHaveLength(1)
    expect(server.requests.map((r) => r.turn)).toEqual([0, 1, 2])
  })

  test("resuming before the question is answered pauses again on the same request", async () => {
    const { server, ws } = setup([ASK, { text: "ok" }])
    const first = await ws.run()
    const again = await ws.resume(first.runId)
    expect(again.exitCode).toBe(3)
    expect(requestsOf(ws.store, first.runId).map((r) => r.status)).toEqual(["pending"])
    expect(server.requests).toHaveLength(1)
  })

  test("with a person at the terminal, ask_user prompts and the run goes on", async () => {
    const asked: string[][] = []
    const human: Human = { ...nobody, interactive: true, question: async (_run, questions, options) => (asked.push([...questions, ...(options ?? [])]), "postgres") }
    const { server, ws } = setup([ASK, { text: "Using postgres." }], QUIET_POLICY, human)
    const result = await ws.run()
    expect(result.exitCode).toBe(0)
    expect(asked).toEqual([["Which database should I use?", "postgres", "sqlite"]])
    expect([...toolResults("anthropic", server.requests[1]!).values()]).toEqual(["the user answered: postgres"])
  })

  test("a call the policy asks about pauses the run; approve + resume runs it once", async () => {
    const policy = { ...QUIET_POLICY, rules: [{ id: "ask-installs", tool: "shell", command: "echo install*", decision: "ask" }] }
    const { server, ws } = setup([{ calls: [{ tool: "shell", args: { command: "echo installed | tee -a log.txt" } }] }, { text: "Installed." }], policy)
    const first = await ws.run()
    expect(first.exitCode).toBe(3)
    const [approval] = requestsOf(ws.store, first.runId, "pending")
    expect(approval!.kind).toBe("approval")
    await settle(ws.env.store, first.runId, approval!.id, { action: "approve" })
    const second = await ws.resume(first.runId)
    expect(second.exitCode).toBe(0)
    expect(await Bun.file(join(ws.dir, "log.txt")).text()).toBe("installed\n")
    const calls = callsOf(ws.store, first.runId)
    expect(calls.map((c) => [c.tool, c.status, c.decidedBy])).toEqual([["shell", "ok", "user"]])
    expect([...toolResults("anthropic", server.requests[1]!).values()]).toEqual(["installed\n"])
  })

  test("a denied approval reaches the model as a refusal", async () => {
    const policy = { ...QUIET_POLICY, rules: [{ id: "ask-deploys", tool: "shell", command: "deploy *", decision: "ask" }] }
    const { server, ws } = setup([{ calls: [{ tool: "shell", args: { command: "deploy prod" } }] }, { text: "Not deploying then." }], policy)
    const first = await ws.run()
    const [approval] = requestsOf(ws.store, first.runId, "pending")
    await settle(ws.env.store, first.runId, approval!.id, { action: "deny", reason: "not today" })
    const second = await ws.resume(first.runId)
    expect(second.exitCode).toBe(0)
    const [refusal] = [...toolResults("anthropic", server.requests[1]!).values()]
    expect(refusal).toStartWith("refused: denied by user: not today")
    expect(callsOf(ws.store, first.runId).map((c) => c.status)).toEqual(["denied"])
  })
})
