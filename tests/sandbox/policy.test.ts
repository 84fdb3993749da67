import { describe, expect, test } from "bun:test"
import { decide } from "../../core/policy/decide.ts"
import { envLayer, flagsLayer } from "../../core/policy/env.ts"
import { mergePolicy } from "../../core/policy/merge.ts"
import { bundledLayer } from "../../core/policy/bundled.ts"
import { layer, policyOf, shellCall } from "../policy/helpers.ts"

const sandboxed = async (command: string) => ({ ...(await shellCall(command)), sandboxed: true })
const noGuards = { grants: [] }

describe("the sandbox section of the policy", () => {
  test("bundled policies: default uses the sandbox when it works, strict and ci require it", async () => {
    for (const [name, mode] of [["default", "auto"], ["strict", "required"], ["ci", "required"]] as const) {
      const policy = mergePolicy([], () => bundledLayer(name))
      expect(policy.sandbox.mode).toBe(mode)
      expect(policy.sandbox.network).toBe("none")
    }
  })

  test("an untrusted layer may tighten the sandbox but never loosen it; each attempt is reported", async () => {
    const untrusted = await layer("sandbox:\n  mode: off\n  network: allow\n  writable: [~/]\n  hidden: [secrets]\n", { trusted: false })
    const policy = await policyOf(untrusted)
    expect(policy.sandbox.mode).toBe("auto")
    expect(policy.sandbox.network).toBe("none")
    expect(policy.sandbox.writable).toEqual([])
    expect(policy.sandbox.hidden).toEqual(["secrets"])
    expect(policy.ignored.join("\n")).toContain("sandbox.mode: off ignored")
    expect(policy.ignored.join("\n")).toContain("sandbox.network: allow ignored")
    expect(policy.ignored.join("\n")).toContain("sandbox.writable: ~/ ignored")
    const stricter = await policyOf(await layer("sandbox:\n  mode: required\n", { trusted: false }))
    expect(stricter.sandbox.mode).toBe("required")
  })

  test("a trusted layer sets it, with its source for `policy show`", async () => {
    const policy = await policyOf("sandbox:\n  mode: off\n  network: allow\n  writable: [/opt/cache]\n")
    expect(policy.sandbox).toMatchObject({ mode: "off", network: "allow", writable: ["/opt/cache"] })
    expect(policy.sources["sandbox.mode"]).toMatch(/policy\.yaml:2$/)
  })

  test("CCODE_SANDBOX and --sandbox set the mode; a bad value is a configuration error naming it", async () => {
    expect((await envLayer({ CCODE_SANDBOX: "off" })).layer?.value.sandbox?.mode).toBe("off")
    expect((await flagsLayer({ sandbox: "required" })).layer?.value.sandbox?.mode).toBe("required")
    await expect(envLayer({ CCODE_SANDBOX: "maybe" })).rejects.toThrow(/CCODE_SANDBOX.*expected off, auto or required/)
    await expect(flagsLayer({ sandbox: "yes" })).rejects.toThrow(/--sandbox/)
  })
})

describe("a decision knows whether the call is sandboxed", () => {
  test("auto mode: a sandboxed medium-risk command is auto-approved, the same command unsandboxed asks", async () => {
    const policy = await policyOf("approval:\n  mode: auto\n  threshold: low\n  sandboxed_threshold: medium\n")
    const inside = decide(policy, await sandboxed("./build.sh"), noGuards)
    expect(inside).toMatchObject({ decision: "allow", risk: "medium", by: "threshold", sandboxed: true })
    expect(inside.reason).toContain("sandboxed auto-approve threshold medium")
    const outside = decide(policy, await shellCall("./build.sh"), noGuards)
    expect(outside).toMatchObject({ decision: "ask", sandboxed: false })
  })

  test("a secret variable or the whole environment reaching the output is not contained by the sandbox: its threshold does not apply", async () => {
    const policy = await policyOf("approval:\n  mode: auto\n  threshold: low\n  sandboxed_threshold: medium\n")
    for (const command of ["printenv GITHUB_TOKEN | rev", "echo $AWS_SECRET_ACCESS_KEY | base64", "env | sed 's/./& /g'"]) {
      const d = decide(policy, await sandboxed(command), noGuards)
      expect([command, d.decision, d.risk]).toEqual([command, "ask", "medium"])
      expect(d.reason).toContain("the sandbox passes the environment through")
    }
    // other medium work inside the sandbox is still auto-approved
    expect(decide(policy, await sandboxed("./build.sh"), noGuards).decision).toBe("allow")
  })

  test("critical is never auto-approved, sandboxed or not", async () => {
    const policy = await policyOf("approval:\n  mode: auto\n  threshold: low\n  sandboxed_threshold: critical\n")
    const d = decide(policy, await sandboxed("rm -rf /"), noGuards)
    expect(d.decision).not.toBe("allow")
    expect(d.sandboxed).toBe(true)
  })

  test("manual mode still asks for every call, and deny rules still deny inside the sandbox", async () => {
    const manual = await policyOf("approval:\n  mode: manual\n  sandboxed_threshold: high\n")
    expect(decide(manual, await sandboxed("ls"), noGuards).decision).toBe("ask")
    const denied = await policyOf("rules:\n  - id: no-curl\n    tool: shell\n    command: 'curl *'\n    decision: deny\n")
    expect(decide(denied, await sandboxed("curl https://x"), noGuards).decision).toBe("deny")
  })

  test("an untrusted layer may lower sandboxed_threshold, never raise it", async () => {
    const up = await policyOf(await layer("approval:\n  sandboxed_threshold: high\n", { trusted: false }))
    expect(up.approval.sandboxed_threshold).toBe("medium")
    const down = await policyOf(await layer("approval:\n  sandboxed_threshold: safe\n", { trusted: false }))
    expect(down.approval.sandboxed_threshold).toBe("safe")
  })
})

test("`policy show` lists the sandbox section with where each value came from", async () => {
  const { describePolicy } = await import("../../core/policy/describe.ts")
  const policy = await policyOf("sandbox:\n  mode: required\n  hidden: [~/.secrets]\n")
  const text = describePolicy(policy, { workspace: "/work/repo", layers: [] })
  expect(text).toMatch(/sandbox:\n  mode: required +# .*policy\.yaml:2/)
  expect(text).toContain("network: none")
  expect(text).toMatch(/hidden:\n    - ~\/\.secrets +# .*policy\.yaml:3/)
  expect(text).toContain("sandboxed_threshold: medium") // the built-in default (docs/sandbox.md)
})
