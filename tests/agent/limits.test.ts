// Guards on agent turns: tokens, cost (from the policy's prices), turns; each stops the run with
// exit 4 and says which limit to raise; resume goes on under the raised limit.
import { afterEach, describe, expect, test } from "bun:test"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { scriptedServer, type ScriptedServer, type ScriptedTurn } from "../fixtures/llm/server.ts"
import { QUIET_POLICY, workspace, type Workspace } from "./helpers.ts"

let server: ScriptedServer | undefined
let ws: Workspace | undefined
afterEach(() => {
  server?.close()
  ws?.close()
  server = ws = undefined
})

// each turn reads another file, so neither the loop detector nor the stall guard has a say
const look = (file: string): ScriptedTurn => ({ calls: [{ tool: "read_file", args: { path: file } }], usage: { input: 1000, output: 200 } })
const TURNS = [look("a.txt"), look("b.txt"), look("c.txt"), look("d.txt"), { text: "done", usage: { input: 1000, output: 200 } }]

function run(policy: Record<string, unknown>, agent: Record<string, unknown> = {}, options = {}) {
  server = scriptedServer({ protocol: "openai", turns: TURNS })
  ws = workspace({ env: { K: "k" } })
  for (const name of ["a", "b", "c", "d"]) ws.file(`${name}.txt`, `${name}\n`)
  ws.task({ agent: { provider: "openai", model: "gpt-test", base_url: server.url, api_key_env: "K", goal: "look around", ...agent }, policy: { ...QUIET_POLICY, ...policy } })
  return ws.run(options)
}

describe("agent limits", () => {
  test("limits.max_tokens stops the run before the next turn (exit 4)", async () => {
    const result = await run({ limits: { ...QUIET_POLICY.limits, max_tokens: 2000 } })
    expect(result.status).toBe("stopped")
    expect(result.exitCode).toBe(4)
    expect(result.message).toContain("max_tokens")
    expect(result.message).toContain("2400 of 2000 tokens used")
    expect(server!.requests).toHaveLength(2)
    expect(ws!.events.find((e) => e.type === "guard")).toMatchObject({ guard: "limit" })
  })

  test("limits.max_cost uses the policy's price for the model", async () => {
    // 1000 in at $100/Mtok + 200 out at $500/Mtok = $0.20 a turn
    const result = await run({ limits: { ...QUIET_POLICY.limits, max_cost: 0.5 }, prices: { "gpt-test": { input_per_mtok: 100, output_per_mtok: 500 } } })
    expect(result.exitCode).toBe(4)
    expect(result.message).toContain("max_cost")
    expect(server!.requests).toHaveLength(3)
    const usage = ws!.events.filter((e) => e.type === "agent.usage")
    expect(usage.map((e) => Number(e.cost).toFixed(2))).toEqual(["0.20", "0.20", "0.20"])
    expect(readSummary(result.summaryPath!)).toContain("cost 0.6000")
  })

  test("max_cost without a price for the model warns once and counts nothing", async () => {
    const result = await run({ limits: { ...QUIET_POLICY.limits, max_cost: 0.5 } })
    expect(result.exitCode).toBe(0)
    const warnings = ws!.events.filter((e) => e.type === "policy.warning" && String(e.message).includes('no price for model "gpt-test"'))
    expect(warnings).toHaveLength(1)
  })

  test("agent.max_turns stops at that many turns; raising it and resuming finishes the run", async () => {
    const result = await run({}, { max_turns: 2 })
    expect(result.exitCode).toBe(4)
    expect(result.message).toContain("max_turns")
    expect(server!.requests).toHaveLength(2)
    const task = join(ws!.dir, "task.yaml")
    writeFileSync(task, (await Bun.file(task).text()).replace("max_turns: 2", "max_turns: 10"))
    const resumed = await ws!.resume(result.runId)
    expect(resumed.exitCode).toBe(0)
    expect(server!.requests.map((r) => r.turn)).toEqual([0, 1, 2, 3, 4])
  })

  test("--max-steps bounds the turns like limits.max_steps", async () => {
    const result = await run({}, {}, { maxSteps: 1 })
    expect(result.exitCode).toBe(4)
    expect(result.message).toContain("max_steps")
    expect(server!.requests).toHaveLength(1)
  })
})

function readSummary(path: string): string {
  return readFileSync(path, "utf8")
}
