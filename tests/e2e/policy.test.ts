// `ccode policy check|show|test|schema` and `ccode trust`, driven through the compiled binary.
import { describe, expect, test } from "bun:test"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { ccode, sandbox } from "./harness.ts"

describe("ccode policy check", () => {
  test("--json prints the Decision: a force push is denied by the bundled rule, exit 0", async () => {
    const sb = sandbox()
    const r = await ccode(sb, ["policy", "check", "--json", "--", "git", "push", "--force", "origin", "main"])
    expect(r.code).toBe(0)
    const d = JSON.parse(r.stdout)
    expect(d).toMatchObject({ decision: "deny", by: "rule", on_ask: "prompt" })
    expect(d.rules[0]).toMatchObject({ id: "no-force-push", decision: "deny" })
    expect(d.rules[0].source).toMatch(/^builtin:default\.yaml:\d+$/)
    expect(d.commands.map((c: { program: string }) => c.program)).toEqual(["git"])
    expect(Object.keys(d)).toEqual(expect.arrayContaining(["decision", "risk", "reason", "by", "rules", "commands", "on_ask"]))
  })

  test("an allow for `git status *` does not allow `git status && git push origin main`", async () => {
    const sb = sandbox()
    const policy = sb.file("allow-status.yaml", "rules: [{ id: status-ok, command: 'git status *', decision: allow }]\n")
    const alone = JSON.parse((await ccode(sb, ["policy", "check", "--json", "--policy", policy, "--", "git status"])).stdout)
    expect([alone.decision, alone.by]).toEqual(["allow", "rule"])
    const r = await ccode(sb, ["policy", "check", "--json", "--policy", policy, "--", "git status && git push origin main"])
    const d = JSON.parse(r.stdout)
    expect(d.decision).toBe("ask")
    expect(d.commands).toHaveLength(2)
    expect(d.commands[1].decision).toBeUndefined()
  })

  test("ask is reported as ask, with what nobody-to-answer would turn it into", async () => {
    const sb = sandbox()
    const args = JSON.stringify({ path: "/etc/hosts", content: "" })
    const d = JSON.parse((await ccode(sb, ["policy", "check", "--json", "--policy", "ci", "--tool", "write_file", "--args", args])).stdout)
    expect(d).toMatchObject({ decision: "ask", risk: "high", on_ask: "deny" })
  })

  test("--args are validated against a known tool's schema: bad ones exit 2", async () => {
    const sb = sandbox()
    const bad = await ccode(sb, ["policy", "check", "--tool", "write_file", "--args", '{"path": 3}'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("write_file")
    expect((await ccode(sb, ["policy", "check", "--args", "not json", "--tool", "read_file"])).code).toBe(2)
    const ok = await ccode(sb, ["policy", "check", "--json", "--tool", "write_file", "--args", '{"path": ".env", "content": "X=1"}'])
    expect(ok.code).toBe(0)
    expect(JSON.parse(ok.stdout)).toMatchObject({ decision: "ask", risk: "high" })
  })

  test("a malformed workspace policy fails closed with file:line:col", async () => {
    const sb = sandbox()
    const file = sb.file(".ccode/policy.yaml", "rules:\n  - id: x\n    decision: allow\n    command: 'rm *'\n    bogus: 1\n")
    const r = await ccode(sb, ["policy", "check", "--", "ls"])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${file}:5:5: unknown key "bogus"`)
  })
})

describe("ccode trust", () => {
  const REPO = "approval: { threshold: high }\nrules: [{ id: pushes-ok, command: 'git push *', decision: allow }, { id: no-publish, command: 'npm publish *', decision: deny }]\n"

  test("an untrusted repo policy can deny but not allow; ccode trust makes it count; an edit revokes that", async () => {
    const sb = sandbox()
    const file = sb.file(".ccode/policy.yaml", REPO)
    const check = async (cmd: string) => JSON.parse((await ccode(sb, ["policy", "check", "--json", "--", cmd])).stdout)
    const before = await ccode(sb, ["policy", "check", "--json", "--", "git push origin main"])
    expect(before.stderr).toContain("allow rule pushes-ok ignored")
    expect(JSON.parse(before.stdout).by).not.toBe("rule")
    expect((await check("npm publish")).decision).toBe("deny")

    const trusted = await ccode(sb, ["trust"])
    expect(trusted.code).toBe(0)
    expect(trusted.stdout).toContain(`trusted  ${file}`)
    expect(await check("git push origin main")).toMatchObject({ decision: "allow", by: "rule" })

    writeFileSync(file, REPO + "# edited\n")
    expect((await check("git push origin main")).by).not.toBe("rule")
    expect((await ccode(sb, ["policy", "check", "--json", "--trust", "--", "git push origin main"])).stdout).toContain('"by": "rule"')
  })
})

describe("ccode policy show / test / schema", () => {
  test("show --json gives every value's source", async () => {
    const sb = sandbox()
    sb.file(".ccode/policy.yaml", "limits: { max_steps: 10 }\n")
    const r = await ccode(sb, ["policy", "show", "--json"])
    expect(r.code).toBe(0)
    const shown = JSON.parse(r.stdout)
    expect(shown.limits.max_steps).toBe(10)
    expect(shown.sources["limits.max_steps"]).toBe(`${join(sb.work, ".ccode", "policy.yaml")}:1`)
    expect(shown.sources["approval.mode"]).toMatch(/^builtin:default\.yaml:\d+$/)
    const text = await ccode(sb, ["policy", "show"])
    expect(text.stdout).toMatch(/max_steps: 10\s+# .*policy\.yaml:1/)
  })

  test("every bundled policy passes ccode policy test; a failing example exits 2 naming rule and example", async () => {
    const sb = sandbox()
    const ok = await ccode(sb, ["policy", "test"])
    expect(ok.code).toBe(0)
    for (const name of ["default", "strict", "ci"]) expect(ok.stdout).toMatch(new RegExp(`ok\\s+builtin:${name}\\.yaml`))
    const bad = sb.file("bad.yaml", "rules:\n  - id: no-curl\n    command: 'curl *'\n    decision: deny\n    examples: { match: ['wget x'] }\n")
    const r = await ccode(sb, ["policy", "test", bad])
    expect(r.code).toBe(2)
    expect(r.stdout).toContain(`rule "no-curl": example "wget x" should match but does not`)
  })

  test("schema prints JSON Schema for policy and task files", async () => {
    const sb = sandbox()
    const policy = JSON.parse((await ccode(sb, ["policy", "schema"])).stdout)
    expect(policy.properties.rules.type).toBe("array")
    expect(policy.properties.approval.properties.mode.enum).toEqual(["manual", "auto", "allowlist", "yolo"])
    const task = JSON.parse((await ccode(sb, ["policy", "schema", "task"])).stdout)
    expect(task.properties.steps).toBeDefined()
  })
})
