// Trust through the compiled binary: a task's plugins and policy files are trusted by their own
// content, trust is per workspace, and an untrusted task cannot set loader variables in its env.
import { afterEach, describe, expect, test, setDefaultTimeout } from "bun:test"
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { stringify } from "yaml"
import { ccode, events, sandbox, type Sandbox } from "./harness.ts"

// several runs of the binary each (bundling, MCP servers) on a shared machine
setDefaultTimeout(60_000)

const ROOT = join(import.meta.dir, "..", "..")
const made: Sandbox[] = []
function box(): Sandbox {
  const sb = sandbox()
  made.push(sb)
  return sb
}
afterEach(() => {
  for (const sb of made.splice(0)) rmSync(sb.root, { recursive: true, force: true })
})

type Ev = Record<string, any>
const decisions = (stdout: string) => events(stdout).filter((e: Ev) => e.type === "decision") as Ev[]

describe("task files are trusted by content (compiled binary)", () => {
  test("`ccode trust task.yaml` trusts the task's plugin and policy files; editing either makes it untrusted again, by name", async () => {
    const sb = box()
    mkdirSync(join(sb.work, "tools"))
    copyFileSync(join(ROOT, "tests", "fixtures", "plugins", "greet.ts"), join(sb.work, "tools", "greet.ts"))
    sb.file("team.yaml", stringify({ approval: { mode: "manual", on_ask: "deny" }, rules: [{ id: "greet-ok", tool: "greet", decision: "allow" }] }))
    sb.file("task.yaml", stringify({
      version: 1, plugins: ["./tools/greet.ts"], policy: "./team.yaml",
      steps: [{ id: "hi", tool: "greet", with: { name: "ann" } }],
    }))
    const trusted = await ccode(sb, ["trust", "task.yaml", "--json"])
    expect(trusted.code).toBe(0)
    const files = (JSON.parse(trusted.stdout) as Ev[]).map((r) => r.file)
    expect(files).toEqual([join(sb.work, "task.yaml"), join(sb.work, "team.yaml"), join(sb.work, "tools", "greet.ts")])

    const ok = await ccode(sb, ["run", "task.yaml", "--json", "--non-interactive"])
    expect(ok.stderr).not.toContain("internal error")
    expect(ok.code).toBe(0)
    expect(decisions(ok.stdout)[0]).toMatchObject({ decision: "allow", by: "rule" })

    // an edited policy file: its allow no longer applies (manual mode would ask: it is ignored as a grant)
    writeFileSync(join(sb.work, "team.yaml"), stringify({ approval: { mode: "yolo" }, rules: [{ id: "greet-ok", tool: "greet", decision: "allow" }] }))
    const policyEdited = await ccode(sb, ["run", "task.yaml", "--json", "--non-interactive"])
    expect(decisions(policyEdited.stdout)[0]?.by).not.toBe("rule")
    expect(policyEdited.stdout + policyEdited.stderr).toContain(`${join(sb.work, "team.yaml")}`)

    // an edited plugin: not loaded, and the run says which file and what to do
    writeFileSync(join(sb.work, "team.yaml"), stringify({ approval: { mode: "manual", on_ask: "deny" }, rules: [{ id: "greet-ok", tool: "greet", decision: "allow" }] }))
    writeFileSync(join(sb.work, "tools", "greet.ts"), `${await Bun.file(join(ROOT, "tests", "fixtures", "plugins", "greet.ts")).text()}\n// edited\n`)
    const pluginEdited = await ccode(sb, ["run", "task.yaml", "--json", "--non-interactive"])
    expect(pluginEdited.code).toBe(2)
    expect(pluginEdited.stderr).toContain(`plugin ${join(sb.work, "tools", "greet.ts")} not loaded: the task plugin is not trusted`)
  })

  test("a policy trusted for workspace A lends nothing to an untrusted task in workspace B that names it", async () => {
    const sb = box()
    const a = join(sb.root, "a")
    mkdirSync(join(a, ".ccode"), { recursive: true })
    writeFileSync(join(a, ".ccode", "policy.yaml"), stringify({ rules: [{ id: "touch-ok", tool: "shell", command: "touch *", decision: "allow" }] }))
    expect((await ccode(sb, ["trust", a])).code).toBe(0)
    // in A the allow applies
    writeFileSync(join(a, "task.yaml"), stringify({ version: 1, steps: [{ id: "t", run: "touch made-in-a" }] }))
    const inA = await ccode(sb, ["run", join(a, "task.yaml"), "--json", "--non-interactive"], { cwd: a })
    expect(decisions(inA.stdout)[0]).toMatchObject({ decision: "allow", by: "rule" })

    const b = join(sb.root, "b")
    mkdirSync(join(b, ".ccode"), { recursive: true })
    writeFileSync(join(b, "task.yaml"), stringify({ version: 1, policy: join(a, ".ccode", "policy.yaml"), steps: [{ id: "t", run: "touch pwned" }] }))
    // without the OS sandbox: a sandboxed `touch` would be auto-approved by sandboxed_threshold anyway
    const inB = await ccode(sb, ["run", join(b, "task.yaml"), "--json", "--non-interactive", "--sandbox", "off"], { cwd: b })
    expect(inB.stderr).not.toContain("internal error")
    expect(decisions(inB.stdout)[0]).toMatchObject({ decision: "ask", by: "threshold" })
    expect(inB.code).toBe(3)
    expect(existsSync(join(b, "pwned"))).toBe(false)
  })
})

describe("a task's env: and loader variables (compiled binary)", () => {
  test("an untrusted task setting BASH_ENV or PATH=./bin is refused with exit 2 naming the variable and `ccode trust`; nothing runs", async () => {
    const sb = box()
    sb.file("bin/ls", "#!/bin/sh\ntouch pwned\n")
    sb.file("evil.sh", "touch pwned\n")
    for (const env of [{ BASH_ENV: "./evil.sh" }, { PATH: `./bin:${process.env.PATH}` }]) {
      sb.file("task.yaml", stringify({ version: 1, env, steps: [{ id: "list", run: "ls" }] }))
      const result = await ccode(sb, ["run", "task.yaml", "--yes"])
      const name = Object.keys(env)[0]!
      expect(result.code).toBe(2)
      expect(result.stderr).toContain(`task.yaml:3:3: env: ${name}`)
      expect(result.stderr).toContain(`env: ${name} is a loader/config variable`)
      expect(result.stderr).toContain(`ccode trust ${join(sb.work, "task.yaml")}`)
      expect(existsSync(join(sb.work, "pwned"))).toBe(false)
    }
  })

  test("a trusted task may set them, and then every call is at least high (a safe `ls` is not auto-approved)", async () => {
    const sb = box()
    sb.file("task.yaml", stringify({ version: 1, env: { PATH: process.env.PATH, LD_PRELOAD: "" }, steps: [{ id: "list", run: "ls" }] }))
    expect((await ccode(sb, ["trust", "task.yaml"])).code).toBe(0)
    const result = await ccode(sb, ["run", "task.yaml", "--json", "--non-interactive"])
    expect(result.stderr).not.toContain("internal error")
    expect(result.code).toBe(3)
    expect(decisions(result.stdout)[0]).toMatchObject({ decision: "ask", risk: "high" })
  })
})
