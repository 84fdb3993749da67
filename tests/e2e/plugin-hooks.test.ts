// Plugin hooks around every call, through the binary: beforeCall may deny or rewrite (and the
// rewritten call is decided again), afterCall sees every result; a hook never approves.
import { describe, expect, test } from "bun:test"
import { copyFileSync, mkdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { ccode, events, sandbox, type Sandbox } from "./harness.ts"

const FIXTURES = join(import.meta.dir, "..", "fixtures", "plugins")

function userPlugins(sb: Sandbox, ...fixtures: string[]): void {
  const dir = join(sb.env.XDG_CONFIG_HOME!, "ccode", "plugins")
  mkdirSync(dir, { recursive: true })
  for (const f of fixtures) copyFileSync(join(FIXTURES, f), join(dir, f))
}

describe("plugin hooks", () => {
  test("beforeCall denies one call and rewrites another, which is decided again; afterCall sees the results", async () => {
    const sb = sandbox()
    userPlugins(sb, "greet.ts", "guard_hooks.ts")
    sb.file("policy.yaml", "version: 1\napproval: { mode: auto, threshold: low, on_ask: deny }\n")
    sb.file("task.yaml", [
      "version: 1",
      "steps:",
      "  - { id: alice, tool: greet, with: { name: alice } }",
      "  - { id: mallory, tool: greet, with: { name: mallory }, continue_on_error: true }",
      "  - { id: bob, tool: greet, with: { name: bob }, continue_on_error: true }",
      "",
    ].join("\n"))
    const result = await ccode(sb, ["run", "task.yaml", "--policy", "policy.yaml", "--json"])
    expect(result.code).toBe(0)
    const evs = events(result.stdout)
    const decisions = evs.filter((e) => e.type === "decision")
    expect(decisions[0]).toMatchObject({ decision: "allow", risk: "low" })
    expect(decisions[1]).toMatchObject({ decision: "deny", rules: [expect.objectContaining({ id: "hook:guard_hooks.ts" })] })
    expect(String(decisions[1]!.reason)).toContain("mallory is not greeted here")
    // bob became root: high risk under a low threshold, so the rewritten call is not auto-approved
    // (it asks; nobody can answer, so on_ask: deny refuses it)
    expect(decisions[2]).toMatchObject({ decision: "ask", risk: "high" })
    const last = evs.filter((e) => e.type === "step.finished").at(-1)!
    expect((last.error as { code: string }).code).toBe("DENIED")
    expect(String(decisions[2]!.reason)).toContain("arguments rewritten by")
    const started = evs.filter((e) => e.type === "step.started").map((e) => (e.args as { name: string }).name)
    expect(started).toEqual(["alice", "mallory", "root"])
    // afterCall ran for the call that ran (denied calls never reach a tool)
    expect(readFileSync(join(sb.work, "hook-log.txt"), "utf8")).toBe("greet ok\n")
  }, 60_000)

  test("--dry-run applies beforeCall hooks as the run does: the step a hook denies shows denied, a rewrite is decided again", async () => {
    const sb = sandbox()
    userPlugins(sb, "greet.ts", "guard_hooks.ts")
    sb.file("policy.yaml", "version: 1\napproval: { mode: auto, threshold: low, on_ask: deny }\n")
    sb.file("task.yaml", [
      "version: 1",
      "steps:",
      "  - { id: alice, tool: greet, with: { name: alice } }",
      "  - { id: mallory, tool: greet, with: { name: mallory } }",
      "  - { id: bob, tool: greet, with: { name: bob } }",
      "",
    ].join("\n"))
    const result = await ccode(sb, ["run", "task.yaml", "--policy", "policy.yaml", "--dry-run", "--json"])
    expect(result.code).toBe(5)
    const decisions = Object.fromEntries(events(result.stdout).filter((e) => e.type === "decision").map((e) => [String(e.step), e]))
    expect(decisions.alice).toMatchObject({ decision: "allow", risk: "low" })
    expect(decisions.mallory).toMatchObject({ decision: "deny", rules: [expect.objectContaining({ id: "hook:guard_hooks.ts" })] })
    expect(decisions.bob).toMatchObject({ decision: "ask", risk: "high" })
    expect(String(decisions.bob!.reason)).toContain("arguments rewritten by")
    // nothing ran: no afterCall hook saw a result
    expect(() => readFileSync(join(sb.work, "hook-log.txt"), "utf8")).toThrow()
  }, 60_000)

  test("policy check decides a plugin tool as the run does: a beforeCall hook's deny and rewrite count", async () => {
    const sb = sandbox()
    userPlugins(sb, "greet.ts", "guard_hooks.ts")
    sb.file("policy.yaml", "version: 1\napproval: { mode: auto, threshold: low, on_ask: deny }\n")
    const check = async (name: string) => {
      const result = await ccode(sb, ["policy", "check", "--json", "--policy", "policy.yaml", "--tool", "greet", "--args", JSON.stringify({ name })])
      expect(result.code).toBe(0)
      return JSON.parse(result.stdout)
    }
    expect(await check("alice")).toMatchObject({ decision: "allow", risk: "low" })
    expect(await check("mallory")).toMatchObject({ decision: "deny", rules: [expect.objectContaining({ id: "hook:guard_hooks.ts" })] })
    const bob = await check("bob")
    expect(bob).toMatchObject({ decision: "ask", risk: "high" })
    expect(String(bob.reason)).toContain("arguments rewritten by")
  }, 60_000)
})
