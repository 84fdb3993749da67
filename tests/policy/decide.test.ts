import { describe, expect, test } from "bun:test"
import { decide } from "../../core/policy/decide.ts"
import type { DecideState } from "../../core/policy/types.ts"
import { layer, policyOf, shellCall, toolCall } from "./helpers.ts"

const none: DecideState = { grants: [] }

describe("decide: rules", () => {
  test("deny: '*' under yolo refuses every shell command, not only one-word ones", async () => {
    const policy = await policyOf("approval: { mode: yolo }\nrules: [{ id: nothing, tool: shell, command: '*', decision: deny }]")
    for (const cmd of ["rm -rf build", "ls", "git status && ls -la", "./x.sh --flag"]) {
      const d = decide(policy, await shellCall(cmd), none)
      expect({ cmd, decision: d.decision, rule: d.rules[0]?.id }).toEqual({ cmd, decision: "deny", rule: "nothing" })
    }
  })

  test("a deny rule refuses the command and names the rule and its source", async () => {
    const policy = await policyOf()
    const d = decide(policy, await shellCall("git push --force origin main"), none)
    expect(d.decision).toBe("deny")
    expect(d.by).toBe("rule")
    expect(d.rules.map((r) => r.id)).toEqual(["no-force-push"])
    expect(d.rules[0]!.source).toMatch(/^builtin:default\.yaml:\d+$/)
    expect(d.reason).toContain("force pushes rewrite shared history")
  })

  test("deny beats ask beats allow, whatever the order or layer", async () => {
    const policy = await policyOf(
      "rules: [{ id: allow-npm, command: 'npm *', decision: allow }, { id: ask-npm-publish, command: 'npm publish *', decision: ask }]",
      await layer("rules: [{ id: deny-npm-publish-dry, command: 'npm publish --dry-run *', decision: deny }]", { name: "user", file: "/home/dev/.config/ccode/policy.yaml" }),
    )
    expect(decide(policy, await shellCall("npm install"), none).decision).toBe("allow")
    const ask = decide(policy, await shellCall("npm publish"), none)
    expect([ask.decision, ask.by]).toEqual(["ask", "rule"])
    const deny = decide(policy, await shellCall("npm publish --dry-run"), none)
    expect(deny.decision).toBe("deny")
    expect(deny.rules.map((r) => r.id).sort()).toEqual(["allow-npm", "ask-npm-publish", "deny-npm-publish-dry"])
  })

  test("git status && git push origin main is not allowed by an allow rule for git status *", async () => {
    const policy = await policyOf("rules: [{ id: status-ok, tool: shell, command: 'git status *', decision: allow }]")
    const alone = decide(policy, await shellCall("git status"), none)
    expect([alone.decision, alone.by]).toEqual(["allow", "rule"])
    const chained = decide(policy, await shellCall("git status && git push origin main"), none)
    expect(chained.decision).not.toBe("allow")
    expect(chained.by).not.toBe("rule")
    expect(chained.commands.map((c) => [c.program, c.decision, c.rule])).toEqual([
      ["git", "allow", "status-ok"],
      ["git", undefined, undefined],
    ])
  })

  test("each part of a compound command may be covered by a different allow rule", async () => {
    const policy = await policyOf(
      "rules: [{ id: status, command: 'git status *', decision: allow }, { id: log, command: 'git log *', decision: allow }]",
    )
    const d = decide(policy, await shellCall("git status; git log -3"), none)
    expect([d.decision, d.by]).toEqual(["allow", "rule"])
    expect(d.reason).toContain("status")
    expect(d.reason).toContain("log")
  })

  test("a deny rule matching one part denies the whole compound command", async () => {
    const policy = await policyOf("rules: [{ id: anything, tool: shell, decision: allow }]")
    const d = decide(policy, await shellCall("echo hi && reboot"), none)
    expect(d.decision).toBe("deny")
    expect(d.commands.map((c) => c.decision)).toEqual(["allow", "deny"])
  })

  test("path rules see every path a file tool touches, with access", async () => {
    const policy = await policyOf(
      "rules: [{ id: prod-ro, tool: [write_file, edit_file, shell], path: 'infra/prod/**', access: write, decision: deny }]",
    )
    expect(decide(policy, await toolCall("write_file", { path: "infra/prod/main.tf", content: "" }), none).decision).toBe("deny")
    expect(decide(policy, await toolCall("read_file", { path: "infra/prod/main.tf" }), none).decision).toBe("allow")
    expect(decide(policy, await toolCall("write_file", { path: "infra/dev/main.tf", content: "" }), none).by).toBe("threshold")
  })

  test("an allow rule with a path must cover every path the call touches", async () => {
    const policy = await policyOf("rules: [{ id: docs, tool: write_file, path: 'docs/**', decision: allow }]")
    const inDocs = decide(policy, await toolCall("write_file", { path: "docs/a.md", content: "" }), none)
    expect([inDocs.decision, inDocs.by]).toEqual(["allow", "rule"])
    const elsewhere = decide(policy, await toolCall("write_file", { path: "src/a.ts", content: "" }), none)
    expect(elsewhere.by).toBe("threshold")
  })

  test("args rules match a regex per argument field of a plugin tool", async () => {
    const policy = await policyOf(
      "rules: [{ id: api, tool: http_request, args: { url: '^https://api\\.example\\.com/' }, decision: allow }]",
    )
    const ok = decide(policy, await toolCall("http_request", { url: "https://api.example.com/v1" }), none)
    expect([ok.decision, ok.by]).toEqual(["allow", "rule"])
    const other = decide(policy, await toolCall("http_request", { url: "https://evil.example.org/" }), none)
    expect([other.decision, other.by, other.risk]).toEqual(["ask", "threshold", "medium"])
  })

  test("tool globs match MCP tools by server", async () => {
    const policy = await policyOf("rules: [{ id: no-github-writes, tool: 'mcp:github/*', decision: ask }]")
    expect(decide(policy, await toolCall("mcp:github/create_issue", {}), none).by).toBe("rule")
    expect(decide(policy, await toolCall("mcp:gitlab/create_issue", {}), none).by).toBe("threshold")
  })
})

describe("decide: approval modes and the critical rail", () => {
  test("auto mode allows at or below the threshold and asks above it", async () => {
    const policy = await policyOf("approval: { mode: auto, threshold: low }")
    const low = decide(policy, await toolCall("my_lint", {}, "low"), none)
    expect([low.decision, low.by, low.risk]).toEqual(["allow", "threshold", "low"])
    const write = decide(policy, await toolCall("write_file", { path: "src/a.ts", content: "" }), none)
    expect([write.decision, write.by, write.risk]).toEqual(["ask", "threshold", "medium"])
    const unknown = decide(policy, await toolCall("my_deploy", {}), none)
    expect([unknown.decision, unknown.risk]).toEqual(["ask", "medium"])
  })

  test("manual asks for everything, allowlist allows the listed tools, yolo allows", async () => {
    const read = await toolCall("read_file", { path: "README.md" })
    const deploy = await toolCall("my_deploy", {}, "high")
    const manual = await policyOf("approval: { mode: manual }")
    expect(decide(manual, read, none).decision).toBe("ask")
    const allowlist = await policyOf("approval: { mode: allowlist, tools: [read_file] }")
    expect([decide(allowlist, read, none).decision, decide(allowlist, deploy, none).decision]).toEqual(["allow", "ask"])
    const yolo = await policyOf("approval: { mode: yolo }")
    expect(decide(yolo, deploy, none)).toMatchObject({ decision: "allow", by: "mode", risk: "high" })
  })

  test("critical is never auto-approved: not by an allow rule, not by yolo, not by a high threshold", async () => {
    const key = await toolCall("write_file", { path: "~/.ssh/authorized_keys", content: "x" })
    const byRule = await policyOf("rules: [{ id: ssh, tool: write_file, decision: allow }]")
    const yolo = await policyOf("approval: { mode: yolo }")
    const high = await policyOf("approval: { mode: auto, threshold: critical }")
    for (const policy of [byRule, yolo, high]) {
      const d = decide(policy, key, none)
      expect(d.risk).toBe("critical")
      expect(d.decision).toBe("ask")
      expect(d.reason).toContain("critical risk is never auto-approved")
    }
  })

  test("a write to a protected path is critical, a write outside the workspace is high", async () => {
    const policy = await policyOf()
    expect(decide(policy, await toolCall("write_file", { path: ".git/config", content: "" }), none).risk).toBe("critical")
    expect(decide(policy, await toolCall("write_file", { path: "/etc/hosts", content: "" }), none).risk).toBe("high")
    expect(decide(policy, await toolCall("write_file", { path: "/tmp/scratch.txt", content: "" }), none).risk).toBe("medium")
    expect(decide(policy, await toolCall("read_file", { path: "/etc/hosts" }), none).risk).toBe("safe")
  })

  test("risk.commands regexes raise the risk of matching commands", async () => {
    const policy = await policyOf(
      "risk: { commands: [{ id: prod-deploy, regex: '^deploy-prod\\b', level: critical }] }\napproval: { mode: yolo }",
    )
    const d = decide(policy, await shellCall("deploy-prod --now"), none)
    expect([d.risk, d.decision]).toEqual(["critical", "ask"])
    expect(d.reason).toContain("prod-deploy")
    expect(d.commands[0]!.risk).toBe("critical")
    expect(decide(policy, await shellCall("deploy-staging --now"), none).risk).not.toBe("critical")
  })

  test("risk.tools sets a tool's base level, globs included", async () => {
    const policy = await policyOf("risk: { tools: { my_deploy: high, 'mcp:docs/*': safe } }")
    expect(decide(policy, await toolCall("my_deploy", {}, "low"), none).risk).toBe("high")
    expect(decide(policy, await toolCall("mcp:docs/search", {}), none)).toMatchObject({ risk: "safe", decision: "allow" })
  })

  test("the decision carries on_ask from the policy", async () => {
    const policy = await policyOf("approval: { on_ask: deny }")
    expect(decide(policy, await toolCall("my_deploy", {}), none).on_ask).toBe("deny")
  })
})

describe("decide: guards and grants", () => {
  test("a tripped guard decides before anything else", async () => {
    const policy = await policyOf("rules: [{ id: all, tool: read_file, decision: allow }]")
    const read = await toolCall("read_file", { path: "a" })
    const denied = decide(policy, read, { grants: [], tripped: { guard: "circuit_breaker", reason: "read_file is open", action: "deny" } })
    expect(denied).toMatchObject({ decision: "deny", by: "guard", guard: "circuit_breaker", rules: [] })
    const paused = decide(policy, read, { grants: [], tripped: { guard: "loop", reason: "same call 3 times", action: "pause" } })
    expect(paused).toMatchObject({ decision: "ask", by: "guard", on_ask: "pause" })
  })

  test("a grant for this run allows similar calls, but never a deny and never critical", async () => {
    const policy = await policyOf("approval: { mode: manual }")
    const grant = { tool: "shell", pattern: "git commit *", source: "user" }
    expect(decide(policy, await shellCall("git commit -m 'second'"), { grants: [grant] })).toMatchObject({ decision: "allow", by: "grant" })
    expect(decide(policy, await shellCall("git push"), { grants: [grant] }).decision).toBe("ask")
    const all = { tool: "shell", source: "user" }
    expect(decide(policy, await shellCall("reboot"), { grants: [all] }).decision).toBe("deny")
    const write = { tool: "write_file", source: "user" }
    expect(decide(policy, await toolCall("write_file", { path: ".git/hooks/pre-commit", content: "" }), { grants: [write] }).decision).toBe("ask")
  })

  test("a grant loses to an ask rule, like any allow rule", async () => {
    const policy = await policyOf("rules: [{ id: confirm-publish, command: 'npm publish *', decision: ask }]")
    const d = decide(policy, await shellCall("npm publish"), { grants: [{ tool: "shell", pattern: "npm publish *", source: "user" }] })
    expect([d.decision, d.by]).toEqual(["ask", "rule"])
  })
})
