// Agent tasks through the compiled binary against scripted model servers on 127.0.0.1 (OpenAI chat
// completions and Anthropic messages, streaming and not): goals, refusals, kill -9 + resume,
// questions, auth and rate-limit errors, and replaying a recorded run.
import { Database } from "bun:sqlite"
import { afterEach, describe, expect, test } from "bun:test"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { stringify } from "yaml"
import { scriptedServer, toolResultIds, toolResults, type Protocol, type ScriptedServer, type ScriptedTurn } from "../fixtures/llm/server.ts"
import { ccode, events, sandbox, spawnCcode, waitFor, type Sandbox } from "./harness.ts"

const KEY = { LLM_KEY: "sk-e2e" }
const POLICY = { approval: { mode: "auto", threshold: "high" }, limits: { retry_backoff: "50ms" }, workspace: { detect_external_changes: false } }
let servers: ScriptedServer[] = []
afterEach(() => {
  for (const s of servers) s.close()
  servers = []
})

function serve(protocol: Protocol, turns: ScriptedTurn[], extra: Partial<Parameters<typeof scriptedServer>[0]> = {}): ScriptedServer {
  const server = scriptedServer({ protocol, turns, apiKey: KEY.LLM_KEY, ...extra })
  servers.push(server)
  return server
}

function agentTask(sb: Sandbox, server: ScriptedServer, protocol: Protocol, agent: Record<string, unknown> = {}, policy: Record<string, unknown> = POLICY): void {
  const provider = protocol === "anthropic" ? "anthropic" : "openai"
  sb.file("task.yaml", stringify({ version: 1, name: "agent-e2e", agent: { provider, model: "test-model", base_url: server.url, api_key_env: "LLM_KEY", goal: "make check.sh pass", ...agent }, policy }))
}

const lines = (sb: Sandbox, file: string) => (existsSync(join(sb.work, file)) ? readFileSync(join(sb.work, file), "utf8").split("\n").filter(Boolean) : [])

/** No request ever carries two results for one call, and every call the model made got exactly one. */
function expectCleanConversation(protocol: Protocol, server: ScriptedServer): void {
  for (const request of server.requests) {
    const ids = toolResultIds(protocol, request)
    expect(new Set(ids).size).toBe(ids.length)
  }
}

describe("agent tasks (compiled binary)", () => {
  test("a goal reached in several turns with reads, an edit and a test run: exit 0, summary lists every call", async () => {
    const sb = sandbox()
    sb.file("add.sh", "echo $((2 - 2))\n")
    sb.file("check.sh", 'test "$(sh add.sh)" = 4 && echo "check passed"\n')
    const server = serve("openai", [
      { text: "Reading the script and its check.", calls: [{ tool: "read_file", args: { path: "add.sh" } }, { tool: "read_file", args: { path: "check.sh" } }] },
      { text: "2 - 2 should be 2 + 2.", calls: [{ tool: "edit_file", args: { path: "add.sh", old_string: "2 - 2", new_string: "2 + 2" } }] },
      { text: "Running the check.", calls: [{ tool: "shell", args: { command: "sh check.sh" } }] },
      { calls: [{ tool: "finish", args: { success: true, summary: "add.sh fixed; check.sh passes" } }] },
    ])
    agentTask(sb, server, "openai")
    const result = await ccode(sb, ["run", "task.yaml", "--json", "--trust"], { env: KEY })
    expect(result.stderr).not.toContain("internal error")
    expect(result.code).toBe(0)
    expect(readFileSync(join(sb.work, "add.sh"), "utf8")).toBe("echo $((2 + 2))\n")
    const evs = events(result.stdout)
    expect(evs.filter((e) => e.type === "agent.message").map((e) => e.turn)).toEqual([1, 2, 3, 4])
    expect(evs.filter((e) => e.type === "agent.usage")).toHaveLength(4)
    expect(evs.filter((e) => e.type === "decision").map((e) => e.decision)).toEqual(["allow", "allow", "allow", "allow", "allow"])
    const finished = evs.at(-1)!
    expect(finished).toMatchObject({ type: "run.finished", status: "completed", exit_code: 0, steps: 4, message: "add.sh fixed; check.sh passes" })
    const summary = readFileSync(String(finished.summary_path), "utf8")
    for (const [n, tool] of ["read_file", "read_file", "edit_file", "shell", "finish"].entries()) expect(summary).toMatch(new RegExp(`\\| ${n + 1} \\| t\\d\\.\\d \\| ${tool} \\|`))
    expect(summary).toContain("tokens: 400 in, 80 out")
    const checked = [...toolResults("openai", server.requests[3]!).values()]
    expect(checked.join("")).toContain("check passed")
    expectCleanConversation("openai", server)
  }, 60_000)

  test("anthropic, streaming: a denied call is reported to the model and its next choice runs", async () => {
    const sb = sandbox()
    sb.file("build/app.js", "compiled\n")
    const server = serve("anthropic", [
      { calls: [{ tool: "shell", args: { command: "rm -rf build" } }] },
      { text: "Deleting is not allowed; I will move it.", calls: [{ tool: "shell", args: { command: "mv build build.old && echo moved" } }] },
      { text: "The old build is out of the way." },
    ])
    const policy = { ...POLICY, rules: [{ id: "keep-builds", tool: "shell", command: "rm *", decision: "deny", reason: "builds are kept for audits" }] }
    agentTask(sb, server, "anthropic", { stream: true }, policy)
    const result = await ccode(sb, ["run", "task.yaml", "--json", "--trust"], { env: KEY })
    expect(result.code).toBe(0)
    expect(server.requests.every((r) => r.stream)).toBe(true)
    const refusal = [...toolResults("anthropic", server.requests[1]!).values()]
    expect(refusal).toHaveLength(1)
    expect(refusal[0]).toStartWith("refused:")
    expect(refusal[0]).toContain("builds are kept for audits")
    expect(existsSync(join(sb.work, "build.old/app.js"))).toBe(true)
    const decisions = events(result.stdout).filter((e) => e.type === "decision")
    expect(decisions.map((e) => e.decision)).toEqual(["deny", "allow"])
    expect(decisions[0]!.rules).toEqual([expect.objectContaining({ id: "keep-builds" })])
  }, 60_000)

  test("kill -9 while the model thinks, then resume: the conversation continues, each call ran once, no duplicate tool results", async () => {
    const sb = sandbox()
    const append = (n: number): ScriptedTurn => ({ text: `step ${n}`, calls: [{ tool: "shell", args: { command: `echo line-${n} >> log.txt` } }] })
    const server = serve("openai", [append(1), append(2), append(3), append(4), { text: "all lines written" }], { holdTurn: 2 })
    agentTask(sb, server, "openai", { stream: true })
    const proc = await spawnCcode(sb, ["run", "task.yaml", "--json", "--trust"], { env: KEY })
    await server.held
    proc.kill("SIGKILL")
    await proc.exited
    expect(lines(sb, "log.txt")).toEqual(["line-1", "line-2"])
    const held = server.requests.at(-1)!
    expect(held.turn).toBe(2)

    const resumed = await ccode(sb, ["resume", "--last", "--json"], { env: KEY })
    expect(resumed.stderr).not.toContain("internal error")
    expect(resumed.code).toBe(0)
    expect(lines(sb, "log.txt")).toEqual(["line-1", "line-2", "line-3", "line-4"])
    // the request after the resume carries exactly the conversation the killed one did
    const again = server.requests.find((r) => r !== held && r.turn === 2)!
    expect(again.body.messages).toEqual(held.body.messages)
    expect(server.requests.map((r) => r.turn)).toEqual([0, 1, 2, 2, 3, 4])
    const last = server.requests.at(-1)!
    expect(toolResultIds("openai", last)).toEqual(["call_0_0", "call_1_0", "call_2_0", "call_3_0"])
    expectCleanConversation("openai", server)
    const db = new Database(sb.db, { readonly: true })
    const calls = db.query("SELECT item_id, status FROM calls ORDER BY seq").all()
    db.close()
    expect(calls).toEqual(["t1.1", "t2.1", "t3.1", "t4.1"].map((item_id) => ({ item_id, status: "ok" })))
  }, 90_000)

  test("SIGINT while the model thinks: exit 130, and resume asks the model again and finishes", async () => {
    const sb = sandbox()
    const server = serve("openai", [{ calls: [{ tool: "shell", args: { command: "echo one >> log.txt" } }] }, { text: "done" }], { holdTurn: 1 })
    agentTask(sb, server, "openai")
    const proc = await spawnCcode(sb, ["run", "task.yaml", "--json", "--trust"], { env: KEY })
    await server.held
    proc.kill("SIGINT")
    expect(await proc.exited).toBe(130)
    const stopped = events(await new Response(proc.stdout).text()).at(-1)!
    expect(stopped).toMatchObject({ type: "run.finished", status: "interrupted", exit_code: 130 })
    const resumed = await ccode(sb, ["resume", String(stopped.run), "--json"], { env: KEY })
    expect(resumed.code).toBe(0)
    expect(lines(sb, "log.txt")).toEqual(["one"])
    expect(server.requests.map((r) => r.turn)).toEqual([0, 1, 1])
  }, 60_000)

  test("kill -9 while a shell call runs: resume asks a person; deny + resume tells the model and goes on", async () => {
    const sb = sandbox()
    const server = serve("openai", [
      { calls: [{ tool: "shell", args: { command: "echo started >> log.txt; sleep 4; echo finished >> log.txt" } }] },
      { text: "Understood, not retrying." },
    ])
    agentTask(sb, server, "openai")
    const proc = await spawnCcode(sb, ["run", "task.yaml", "--json", "--trust"], { env: KEY })
    await waitFor(() => lines(sb, "log.txt").includes("started"))
    proc.kill("SIGKILL")
    await proc.exited

    const paused = await ccode(sb, ["resume", "--last", "--json"], { env: KEY })
    expect(paused.code).toBe(3)
    const req = events(paused.stdout).find((e) => e.type === "request.created")!
    expect(req).toMatchObject({ kind: "in_flight", tool: "shell", step: "t1.1" })
    expect((await ccode(sb, ["deny", String(req.run), String(req.req)])).code).toBe(0)
    const done = await ccode(sb, ["resume", String(req.run), "--json"], { env: KEY })
    expect(done.code).toBe(0)
    const told = [...toolResults("openai", server.requests.at(-1)!).values()]
    expect(told).toHaveLength(1)
    expect(told[0]).toContain("was running when ccode stopped and was not run again")
    expect(server.requests.map((r) => r.turn)).toEqual([0, 1])
  }, 90_000)

  test("ask_user without a TTY pauses (exit 3); answer + resume hands the text to the model", async () => {
    const sb = sandbox()
    const server = serve("anthropic", [
      { calls: [{ tool: "ask_user", args: { questions: ["Which port should the server listen on?"] } }] },
      { calls: [{ tool: "write_file", args: { path: "port.txt", content: "8080\n" } }] },
      { text: "Port configured." },
    ])
    agentTask(sb, server, "anthropic")
    const first = await ccode(sb, ["run", "task.yaml", "--json", "--trust"], { env: KEY })
    expect(first.code).toBe(3)
    const evs = events(first.stdout)
    const question = evs.find((e) => e.type === "request.created")!
    expect(question).toMatchObject({ kind: "question", questions: ["Which port should the server listen on?"] })
    expect(evs.at(-1)).toMatchObject({ type: "run.finished", status: "paused", exit_code: 3 })
    expect(first.stderr).toBe("")

    const answered = await ccode(sb, ["answer", String(question.run), String(question.req), "use", "8080"])
    expect(answered.code).toBe(0)
    const second = await ccode(sb, ["resume", String(question.run), "--json"], { env: KEY })
    expect(second.code).toBe(0)
    expect([...toolResults("anthropic", server.requests[1]!).values()]).toEqual(["the user answered: use 8080"])
    expect(readFileSync(join(sb.work, "port.txt"), "utf8")).toBe("8080\n")
  }, 60_000)

  test("401 from the server: exit 1 and a message naming the API key variable", async () => {
    const sb = sandbox()
    const server = serve("openai", [{ text: "never" }])
    agentTask(sb, server, "openai")
    const result = await ccode(sb, ["run", "task.yaml", "--trust"], { env: { LLM_KEY: "sk-wrong" } })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain("Set LLM_KEY to a valid key")
    expect(result.stderr).not.toContain("sk-wrong")
    expect(server.requests).toHaveLength(1)
  }, 60_000)

  test("429 then 200: the request is retried and the run succeeds", async () => {
    const sb = sandbox()
    const server = serve("openai", [{ text: "hello after the rate limit" }], { failures: [{ status: 429, message: "Rate limit reached" }] })
    agentTask(sb, server, "openai", { stream: true })
    const result = await ccode(sb, ["run", "task.yaml", "--json", "--trust"], { env: KEY })
    expect(result.code).toBe(0)
    expect(server.requests).toHaveLength(2)
    expect(events(result.stdout).find((e) => e.type === "agent.retry")).toMatchObject({ kind: "rate_limit", status: 429, attempt: 1 })
  }, 60_000)

  test("runs export --replay, then the replay provider reproduces the recorded run's decisions", async () => {
    const sb = sandbox()
    const server = serve("openai", [
      { calls: [{ tool: "write_file", args: { path: "notes.md", content: "# notes\n" } }, { tool: "shell", args: { command: "git push --force origin main" } }] },
      { calls: [{ tool: "read_file", args: { path: "notes.md" } }] },
      { text: "Notes written; the push was refused." },
    ])
    const policy = { ...POLICY, rules: [{ id: "no-push", tool: "shell", command: "git push *", decision: "deny" }] }
    agentTask(sb, server, "openai", {}, policy)
    const recorded = await ccode(sb, ["run", "task.yaml", "--json", "--trust"], { env: KEY })
    expect(recorded.code).toBe(0)
    const runId = String(events(recorded.stdout)[0]!.run)
    const exported = await ccode(sb, ["runs", "export", runId, "--replay"])
    expect(exported.code).toBe(0)
    sb.file("replay/turns.yaml", exported.stdout)
    sb.file("replay/task.yaml", stringify({ version: 1, name: "replayed", workdir: "..", agent: { provider: "replay", script: "turns.yaml" }, policy }))
    const replayed = await ccode(sb, ["run", "replay/task.yaml", "--json", "--trust"])
    expect(replayed.code).toBe(0)
    const decided = (out: string) => events(out).filter((e) => e.type === "decision").map((e) => [e.decision, e.risk, e.by])
    expect(decided(replayed.stdout)).toEqual(decided(recorded.stdout))
    const show = async (id: string) => JSON.parse((await ccode(sb, ["runs", "show", id, "--json"])).stdout) as { calls: { tool: string; args: unknown; decision: string; status: string }[] }
    const strip = (calls: { tool: string; args: unknown; decision: string; status: string }[]) => calls.map((c) => [c.tool, c.args, c.decision, c.status])
    const replayId = String(events(replayed.stdout)[0]!.run)
    expect(strip((await show(replayId)).calls)).toEqual(strip((await show(runId)).calls))
  }, 90_000)
})
