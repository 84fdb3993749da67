// "Allow for this run": the similar-pattern grant an answer creates, and what it then covers.
import { describe, expect, test } from "bun:test"
import { grantFor } from "../../core/policy/grants.ts"
import { decide } from "../../core/policy/decide.ts"
import { policyOf, shellCall, toolCall } from "./helpers.ts"

describe("grantFor", () => {
  test("a shell command grants its program and subcommand", async () => {
    const policy = await policyOf("approval: { mode: manual }")
    const call = await shellCall("git commit -m 'fix the build'")
    const grant = grantFor(call, decide(policy, call, { grants: [] }))
    expect(grant).toEqual({ tool: "shell", pattern: "git commit *", source: "user" })
    expect(decide(policy, await shellCall("git commit --amend"), { grants: [grant!] }).decision).toBe("allow")
    expect(decide(policy, await shellCall("git push"), { grants: [grant!] }).decision).toBe("ask")
  })

  test("script runners keep the script name; plain programs keep only the program", async () => {
    const policy = await policyOf("approval: { mode: manual }")
    for (const [command, pattern] of [["npm run test -- --watch", "npm run test *"], ["ls -la src", "ls *"], ["bun test", "bun test *"]]) {
      const call = await shellCall(command!)
      expect(grantFor(call, decide(policy, call, { grants: [] }))?.pattern).toBe(pattern)
    }
  })

  test("a compound command grants one pattern per part, and all must match later", async () => {
    const policy = await policyOf("approval: { mode: manual }")
    const call = await shellCall("cd web && npm install")
    const grant = grantFor(call, decide(policy, call, { grants: [] }))!
    expect(grant.patterns).toEqual(["cd *", "npm install *"])
    expect(decide(policy, await shellCall("cd api && npm install left-pad"), { grants: [grant] }).decision).toBe("allow")
    expect(decide(policy, await shellCall("cd api && rm -rf node_modules"), { grants: [grant] }).decision).toBe("ask")
  })

  test("a file tool grants that tool under the file's directory", async () => {
    const policy = await policyOf("approval: { mode: manual }")
    const call = await toolCall("write_file", { path: "src/app/main.ts", content: "" })
    const grant = grantFor(call, decide(policy, call, { grants: [] }))!
    expect(grant).toEqual({ tool: "write_file", pattern: "/work/repo/src/app/**", source: "user" })
    expect(decide(policy, await toolCall("write_file", { path: "src/app/x/y.ts", content: "" }), { grants: [grant] }).decision).toBe("allow")
    expect(decide(policy, await toolCall("write_file", { path: "src/other.ts", content: "" }), { grants: [grant] }).decision).toBe("ask")
    expect(decide(policy, await toolCall("edit_file", { path: "src/app/main.ts" }), { grants: [grant] }).decision).toBe("ask")
  })

  test("other tools are granted whole", async () => {
    const policy = await policyOf("approval: { mode: manual }")
    const call = await toolCall("mcp:github/create_issue", { title: "x" })
    expect(grantFor(call, decide(policy, call, { grants: [] }))).toEqual({ tool: "mcp:github/create_issue", source: "user" })
  })

  test("never for critical, a deny, or an ask rule", async () => {
    const policy = await policyOf("rules: [{ id: confirm, command: 'npm publish *', decision: ask }]")
    const critical = await toolCall("write_file", { path: ".git/config", content: "" })
    expect(grantFor(critical, decide(policy, critical, { grants: [] }))).toBeUndefined()
    const denied = await shellCall("reboot")
    expect(grantFor(denied, decide(policy, denied, { grants: [] }))).toBeUndefined()
    const asked = await shellCall("npm publish")
    expect(grantFor(asked, decide(policy, asked, { grants: [] }))).toBeUndefined()
  })
})
