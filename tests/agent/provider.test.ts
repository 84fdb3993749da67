// Talking to the model: auth failures stop with the variable to set, transient failures are retried
// with backoff, an unreachable server leaves the run resumable, and a bad agent section is exit 2.
import { afterEach, describe, expect, test } from "bun:test"
import { ConfigError } from "../../core/base/yaml.ts"
import { scriptedServer, type ScriptedServer } from "../fixtures/llm/server.ts"
import { QUIET_POLICY, workspace, type Workspace } from "./helpers.ts"

let server: ScriptedServer | undefined
let ws: Workspace | undefined
afterEach(() => {
  server?.close()
  ws?.close()
  server = ws = undefined
})

describe("model providers", () => {
  test("401: the run fails (exit 1) naming the API key variable, and is not retried", async () => {
    server = scriptedServer({ protocol: "openai", turns: [{ text: "never" }], apiKey: "right-key" })
    ws = workspace({ env: { MY_LLM_KEY: "wrong-key" } })
    ws.task({ agent: { provider: "openai", model: "m", base_url: server.url, api_key_env: "MY_LLM_KEY", goal: "g" }, policy: QUIET_POLICY })
    const result = await ws.run()
    expect(result.status).toBe("failed")
    expect(result.exitCode).toBe(1)
    expect(result.message).toContain("Set MY_LLM_KEY to a valid key")
    expect(result.message).toContain("HTTP 401")
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]!.key).toBe("wrong-key")
    expect(ws.events.find((e) => e.type === "agent.error")).toMatchObject({ kind: "auth", status: 401 })
  })

  for (const protocol of ["openai", "anthropic"] as const) {
    test(`${protocol}: 429 then 200 is retried after a backoff and succeeds`, async () => {
      server = scriptedServer({ protocol, turns: [{ text: "hello" }], failures: [{ status: 429, message: "slow down" }, { status: 503 }] })
      ws = workspace({ env: { K: "k" } })
      ws.task({ agent: { provider: protocol, model: "m", base_url: server.url, api_key_env: "K", goal: "g" }, policy: QUIET_POLICY })
      const result = await ws.run()
      expect(result.exitCode).toBe(0)
      expect(server.requests).toHaveLength(3)
      const retries = ws.events.filter((e) => e.type === "agent.retry")
      expect(retries.map((e) => [e.kind, e.status, e.attempt])).toEqual([["rate_limit", 429, 1], ["server", 503, 2]])
    })
  }

  test("the server's Retry-After is honoured", async () => {
    server = scriptedServer({ protocol: "openai", turns: [{ text: "hello" }], failures: [{ status: 429, headers: { "retry-after": "0.3" } }] })
    ws = workspace({ env: { K: "k" } })
    ws.task({ agent: { provider: "openai", model: "m", base_url: server.url, api_key_env: "K", goal: "g" }, policy: QUIET_POLICY })
    const started = Date.now()
    expect((await ws.run()).exitCode).toBe(0)
    expect(Date.now() - started).toBeGreaterThanOrEqual(290)
    expect(ws.events.find((e) => e.type === "agent.retry")).toMatchObject({ delay_ms: 300 })
  })

  test("an unreachable server: retried, then the run stops resumable (exit 4)", async () => {
    const gone = scriptedServer({ protocol: "openai", turns: [] })
    const url = gone.url
    gone.close()
    ws = workspace()
    ws.task({ agent: { provider: "openai-compatible", model: "qwen", base_url: url, goal: "g" }, policy: QUIET_POLICY })
    const result = await ws.run()
    expect(result.status).toBe("stopped")
    expect(result.exitCode).toBe(4)
    expect(result.message).toContain("cannot reach the openai-compatible provider")
    expect(result.message).toContain(`ccode resume ${result.runId}`)
    expect(ws.events.filter((e) => e.type === "agent.retry")).toHaveLength(4)
  })

  test("a missing key variable or base_url is a configuration error before anything runs", async () => {
    ws = workspace()
    ws.task({ agent: { provider: "openai", model: "gpt-x", goal: "g" } })
    await expect(ws.run()).rejects.toThrow(/OPENAI_API_KEY is not set/)
    ws.task({ agent: { provider: "openai-compatible", model: "qwen", goal: "g" } })
    await expect(ws.run()).rejects.toBeInstanceOf(ConfigError)
    ws.task({ agent: { provider: "openai-compatible", model: "qwen", base_url: "http://127.0.0.1:1/v1", goal: "g", tools: ["read_file", "teleport"] } })
    await expect(ws.run()).rejects.toThrow(/task.yaml:\d+:\d+: unknown tool "teleport"/)
    ws.task({ agent: { provider: "replay", script: "missing.yaml" } })
    await expect(ws.run()).rejects.toThrow(/replay script not found/)
  })
})
