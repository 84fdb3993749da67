// Plugins through the compiled binary, loaded from folders with no node_modules: listing, validation,
// policy rules on a plugin's name and arguments, the audit, failure isolation, trust, the example
// plugins, `ccode plugins check` and `ccode init`.
import { Database } from "bun:sqlite"
import { describe, expect, test } from "bun:test"
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { stringify } from "yaml"
import { ccode, events, sandbox, type Sandbox } from "./harness.ts"

const ROOT = join(import.meta.dir, "..", "..")
const FIXTURES = join(ROOT, "tests", "fixtures", "plugins")

function userPlugin(sb: Sandbox, fixture: string): string {
  const dir = join(sb.env.XDG_CONFIG_HOME!, "ccode", "plugins")
  mkdirSync(dir, { recursive: true })
  copyFileSync(join(FIXTURES, fixture), join(dir, fixture))
  return join(dir, fixture)
}

type Ev = Record<string, any>
const byType = (evs: Ev[], type: string) => evs.filter((e) => e.type === type)
/** step.finished of each call, in order, with the tool from its step.started */
function finished(evs: Ev[]): { tool: string; status: string; code?: string; type?: string; message?: string; ms: number }[] {
  const tools = new Map(byType(evs, "step.started").map((e) => [e.call, e.tool]))
  return byType(evs, "step.finished").map((e) => ({
    tool: tools.get(e.call), status: e.status, code: e.error?.code, type: e.error?.type, message: e.error?.message, ms: e.duration_ms,
  }))
}

describe("plugins (compiled binary)", () => {
  test("a plugin with zod args is listed, validated, governed by rules on its name and an args regex, and audited", async () => {
    const sb = sandbox()
    const file = userPlugin(sb, "greet.ts")
    const ls = await ccode(sb, ["plugins", "ls", "--json"])
    expect(ls.code).toBe(0)
    const greet = (JSON.parse(ls.stdout) as Ev[]).find((t) => t.name === "greet")
    expect(greet).toEqual({ name: "greet", source: file, origin: "user", risk: "computed", risk_from: "computed", description: "Greet someone, a few times", idempotent: true })

    sb.file("policy.yaml", stringify({
      approval: { mode: "manual", on_ask: "deny" },
      rules: [
        { id: "greet-friends", tool: "greet", args: { name: "^(alice|bob)$" }, decision: "allow" },
        { id: "no-root", tool: "greet", args: { name: "^root$" }, decision: "deny", reason: "root is never greeted" },
        { id: "finish", tool: "finish", decision: "allow" },
      ],
    }))
    sb.file("turns.yaml", stringify([
      { text: "greeting", calls: [
        { tool: "greet", args: { name: "alice", times: 2 } },
        { tool: "greet", args: { name: "root" } },
        { tool: "greet", args: { name: "carol" } },
        { tool: "greet", args: { name: "bob", times: 9 } },
      ] },
      { calls: [{ tool: "finish", args: { success: true, summary: "greeted" } }] },
    ]))
    sb.file("task.yaml", stringify({ version: 1, name: "greetings", agent: { provider: "replay", script: "turns.yaml" } }))
    const result = await ccode(sb, ["run", "task.yaml", "--json", "--policy", "policy.yaml"])
    expect(result.stderr).not.toContain("internal error")
    expect(result.code).toBe(0)
    const evs = events(result.stdout)
    const decisions = byType(evs, "decision").filter((d) => (d.rules as Ev[]).every((r) => r.id !== "finish"))
    expect(decisions.map((d) => [d.decision, d.risk, (d.rules as Ev[]).map((r) => r.id)])).toEqual([
      ["allow", "low", ["greet-friends"]],
      ["deny", "high", ["no-root"]],
      ["ask", "low", []], // no rule: manual mode asks; nobody is there, so on_ask (deny) denies it
      ["allow", "low", ["greet-friends"]],
    ])
    const greets = finished(evs).filter((f) => f.tool === "greet")
    expect(greets.map((f) => [f.status, f.code, f.type])).toEqual([
      ["ok", undefined, undefined],
      ["error", "DENIED", "denied"],
      ["error", "DENIED", "denied"],
      ["error", "INVALID_PARAM", "param"], // bad arguments are a result the agent sees, not a crash
    ])
    expect(greets[3]!.message).toBe("invalid arguments for greet: times: Too big: expected number to be <=5")

    const run = byType(evs, "run.started")[0]!.run as string
    const db = new Database(sb.db, { readonly: true })
    const audit = db.query("SELECT type, action, result, risk FROM audit WHERE run_id = ? AND tool = 'greet' ORDER BY id").all(run)
    const outputs = db.query("SELECT status, output FROM calls WHERE run_id = ? AND tool = 'greet' ORDER BY seq").all(run) as { status: string; output: string | null }[]
    db.close()
    expect(audit).toEqual([
      { type: "decision", action: "decide", result: "approved", risk: "low" },
      { type: "tool_call", action: "run", result: "success", risk: "low" },
      { type: "decision", action: "decide", result: "denied", risk: "high" },
      { type: "decision", action: "decide", result: "asked", risk: "low" },
      { type: "permission", action: "on_ask:deny", result: "denied", risk: "low" }, // nobody to ask: on_ask denies, and says so
      { type: "decision", action: "decide", result: "approved", risk: "low" },
      { type: "tool_call", action: "run", result: "failed", risk: "low" },
    ])
    expect(outputs[0]).toEqual({ status: "ok", output: "hello alice\nhello alice" })
  }, 120_000)

  test("a plugin that throws at import, one that hangs past its timeout, one that throws in run: the run goes on and reports each", async () => {
    const sb = sandbox()
    const broken = userPlugin(sb, "throws_at_import.ts")
    userPlugin(sb, "faulty.ts")
    const step = (id: string, tool: string) => ({ id, tool, with: {}, retries: 0, continue_on_error: true })
    sb.file("task.yaml", stringify({
      version: 1,
      policy: { workspace: { detect_external_changes: false } },
      steps: [step("explode", "explode"), step("hang", "hang"), { id: "after", run: "echo still running", needs: ["explode", "hang"] }],
    }))
    const started = Date.now()
    const result = await ccode(sb, ["run", "task.yaml", "--json", "--yes"])
    expect(result.code).toBe(0)
    const evs = events(result.stdout)
    expect(byType(evs, "tool.warning").map((e) => e.message)).toEqual([`plugin ${broken} failed to load: boom while loading the plugin`])
    const [explode, hang, after] = finished(evs)
    expect([explode!.tool, explode!.status, explode!.code, explode!.type, explode!.message]).toEqual(["explode", "error", "TOOL_ERROR", "execution", "kaboom from the plugin"])
    expect([hang!.tool, hang!.code, hang!.type, hang!.message]).toEqual(["hang", "TIMEOUT", "timeout", "hang timed out after 500ms"])
    // abandoned after its timeout and a short grace, although it never settles
    expect(hang!.ms).toBeLessThan(5000)
    expect([after!.tool, after!.status]).toEqual(["shell", "ok"])
    expect(byType(evs, "run.finished")[0]!.status).toBe("completed")
    expect(Date.now() - started).toBeLessThan(30_000)
  }, 120_000)

  test("a plugin's failures feed the circuit breaker like any tool's", async () => {
    const sb = sandbox()
    userPlugin(sb, "faulty.ts")
    const steps = [1, 2, 3, 4].map((n) => ({ id: `e${n}`, tool: "explode", with: {}, retries: 0, continue_on_error: true, ...(n > 1 ? { needs: [`e${n - 1}`] } : {}) }))
    sb.file("task.yaml", stringify({ version: 1, policy: { circuit_breaker: { failure_threshold: 3 }, workspace: { detect_external_changes: false } }, steps }))
    const result = await ccode(sb, ["run", "task.yaml", "--json", "--yes"])
    const codes = finished(events(result.stdout)).map((f) => f.code)
    expect(codes).toEqual(["TOOL_ERROR", "TOOL_ERROR", "TOOL_ERROR", "CIRCUIT_OPEN"])
  }, 60_000)

  test("an untrusted workspace's plugin is not loaded until `ccode trust`, and not again once edited", async () => {
    const sb = sandbox()
    const plugin = sb.file(".ccode/plugins/greet.ts", readFileSync(join(FIXTURES, "greet.ts"), "utf8"))
    sb.file("task.yaml", stringify({ version: 1, steps: [{ id: "hi", tool: "greet", with: { name: "alice" } }] }))

    const before = await ccode(sb, ["plugins", "ls", "--json"])
    expect((JSON.parse(before.stdout) as Ev[]).map((t) => t.name)).not.toContain("greet")
    expect(before.stderr).toContain(`plugin ${plugin} not loaded: the workspace plugin is not trusted`)
    const refused = await ccode(sb, ["run", "task.yaml"])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('uses unknown tool "greet"')
    expect(refused.stderr).toContain("not trusted")
    expect(refused.stderr).not.toContain("hello alice")

    expect((await ccode(sb, ["trust"])).code).toBe(0)
    const after = await ccode(sb, ["plugins", "ls", "--json"])
    expect((JSON.parse(after.stdout) as Ev[]).find((t) => t.name === "greet")?.origin).toBe("workspace")
    const ran = await ccode(sb, ["run", "task.yaml", "--json"])
    expect(ran.code).toBe(0)
    expect(finished(events(ran.stdout)).map((f) => [f.tool, f.status])).toEqual([["greet", "ok"]])

    writeFileSync(plugin, `${readFileSync(plugin, "utf8")}\n// edited\n`)
    expect((await ccode(sb, ["run", "task.yaml"])).code).toBe(2)
  }, 120_000)

  test("`ccode plugins check` validates a file: its tools, or every problem with exit 2", async () => {
    const sb = sandbox()
    const good = await ccode(sb, ["plugins", "check", join(FIXTURES, "faulty.ts"), "--json"])
    expect(good.code).toBe(0)
    const report = JSON.parse(good.stdout) as Ev
    expect(report.ok).toBe(true)
    expect(report.tools.map((t: Ev) => [t.name, t.risk, t.timeout])).toEqual([["explode", "low", undefined], ["hang", "low", "500ms"]])

    const bad = sb.file("bad.ts", [
      'import { defineTool, z } from "ccode/plugin"',
      'export default defineTool({ name: "Bad Name", description: "x", args: z.object({}), run: async () => ({}) })',
      'export const shell = defineTool({ name: "shell", description: "shadows the built-in", args: z.object({}), run: async () => ({}) })',
      "export const helper = 1",
      "",
    ].join("\n"))
    const checked = await ccode(sb, ["plugins", "check", bad])
    expect(checked.code).toBe(2)
    expect(checked.stderr).toContain(`${bad}: export default: tool name "Bad Name" must be snake_case`)
    expect(checked.stderr).toContain(`${bad}: export helper: is number, not a tool made with defineTool({...})`)
    expect(checked.stderr).toContain(`${bad}: tool "shell" clashes with the built-in tool of that name; rename it`)

    const importFails = await ccode(sb, ["plugins", "check", join(FIXTURES, "throws_at_import.ts")])
    expect(importFails.code).toBe(2)
    expect(importFails.stderr).toContain("failed to load: boom while loading the plugin")
  }, 60_000)
})
