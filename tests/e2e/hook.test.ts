// `ccode hook claude|gemini` as the host agents call it: JSON on stdin, answer on stdout, audit row.
import { afterAll, describe, expect, test } from "bun:test"
import { Database } from "bun:sqlite"
import { existsSync, rmSync } from "node:fs"
import { ccode, sandbox as newSandbox, type Sandbox } from "./harness.ts"

const made: Sandbox[] = []
afterAll(() => {
  for (const sb of made) rmSync(sb.root, { recursive: true, force: true })
})

function sandbox(): Sandbox {
  const sb = newSandbox()
  made.push(sb)
  return sb
}

function claude(sb: Sandbox, tool: string, input: Record<string, unknown>, cwd = sb.work) {
  return ccode(sb, ["hook", "claude"], { stdin: JSON.stringify({ session_id: "s1", hook_event_name: "PreToolUse", tool_name: tool, tool_input: input, cwd }) })
}

function auditRows(sb: Sandbox): { actor: string; tool: string; result: string; data: string }[] {
  if (!existsSync(sb.db)) return []
  const db = new Database(sb.db, { readonly: true })
  try {
    return db.query("SELECT actor, tool, result, data FROM audit WHERE type = 'decision' ORDER BY id").all() as never
  } finally {
    db.close()
  }
}

describe("ccode hook claude", () => {
  test("a denied Bash command gets deny JSON, and an audit row", async () => {
    const sb = sandbox()
    const r = await claude(sb, "Bash", { command: "git push --force origin main", description: "push" })
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out.hookSpecificOutput).toMatchObject({ hookEventName: "PreToolUse", permissionDecision: "deny" })
    expect(out.hookSpecificOutput.permissionDecisionReason).toContain("no-force-push")
    expect(auditRows(sb)).toMatchObject([{ actor: "hook", tool: "shell", result: "denied" }])
  })

  test("garbage on stdin, or no tool_name, is exit 2 with the reason on stderr", async () => {
    const sb = sandbox()
    const garbage = await ccode(sb, ["hook", "claude"], { stdin: "this is not json" })
    expect(garbage.code).toBe(2)
    expect(garbage.stdout).toBe("")
    expect(garbage.stderr).toContain("not JSON")
    const noTool = await ccode(sb, ["hook", "claude"], { stdin: JSON.stringify({ tool_input: {}, cwd: sb.work }) })
    expect(noTool.code).toBe(2)
    expect(noTool.stderr).toContain("tool_name")
  })

  test("within the threshold and no rule: silent, the host decides; the decision is still audited", async () => {
    const sb = sandbox()
    const r = await claude(sb, "Read", { file_path: `${sb.work}/README.md` })
    expect([r.code, r.stdout]).toEqual([0, ""])
    expect(auditRows(sb)).toMatchObject([{ tool: "read_file", result: "approved" }])
  })

  test("above the threshold: ask; the payload's cwd picks the workspace policy", async () => {
    const sb = sandbox()
    const ask = JSON.parse((await claude(sb, "Write", { file_path: `${sb.work}/.env`, content: "TOKEN=x" })).stdout)
    expect(ask.hookSpecificOutput.permissionDecision).toBe("ask")
    sb.file(".ccode/policy.yaml", "rules: [{ id: no-docs, tool: write_file, path: 'docs/**', decision: deny }]\n")
    const denied = JSON.parse((await claude(sb, "Write", { file_path: `${sb.work}/docs/a.md`, content: "" })).stdout)
    expect(denied.hookSpecificOutput).toMatchObject({ permissionDecision: "deny" })
    expect(denied.hookSpecificOutput.permissionDecisionReason).toContain("no-docs")
  })

  test("secrets in the arguments are redacted in the audit row", async () => {
    const sb = sandbox()
    await claude(sb, "Bash", { command: "curl -H 'Authorization: Bearer sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789' https://api.example.com" })
    const rows = auditRows(sb)
    expect(rows).toHaveLength(1)
    expect(rows[0]!.data).not.toContain("abcdefghijklmnopqrstuvwxyz0123456789")
  })
})

describe("ccode hook gemini", () => {
  test("run_shell_command maps to shell and answers with decision/reason", async () => {
    const sb = sandbox()
    const r = await ccode(sb, ["hook", "gemini"], { stdin: JSON.stringify({ tool_name: "run_shell_command", tool_input: { command: "reboot" }, cwd: sb.work }) })
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ decision: "deny" })
  })

  test("an unknown host is refused", async () => {
    const sb = sandbox()
    expect((await ccode(sb, ["hook", "cursor"], { stdin: "{}" })).code).toBe(2)
  })
})

describe("malformed payloads block the call: exit 2, the reason on stderr, nothing on stdout, no audit row", () => {
  const cases: [string, string, Record<string, unknown>, string][] = [
    ["Bash with cmd instead of command", "claude", { tool_name: "Bash", tool_input: { cmd: "rm -rf /" } }, "Bash needs tool_input.command"],
    ["a non-string command", "claude", { tool_name: "Bash", tool_input: { command: ["rm", "-rf", "/"] } }, "Bash's tool_input.command is an array, expected string"],
    ["a numeric command", "claude", { tool_name: "Bash", tool_input: { command: 42 } }, "expected string"],
    ["tool_input null", "claude", { tool_name: "Bash", tool_input: null }, "tool_input of Bash is null"],
    ["no tool_input", "claude", { tool_name: "Read" }, "tool_input of Read is missing"],
    ["a Write without content", "claude", { tool_name: "Write", tool_input: { file_path: "/tmp/x" } }, "Write needs tool_input.content"],
    ["an Edit with a numeric file_path", "claude", { tool_name: "Edit", tool_input: { file_path: 1, old_string: "a", new_string: "b" } }, "tool_input.file_path is a number"],
    ["a non-string cwd", "claude", { tool_name: "Bash", tool_input: { command: "ls" }, cwd: 7 }, "cwd is a number"],
    ["a PostToolUse payload", "claude", { hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_response: {} }, "answers PreToolUse only"],
    ["a non-string session_id", "claude", { session_id: 5, tool_name: "Bash", tool_input: { command: "ls" } }, "session_id is a number"],
    ["an AfterTool payload to gemini", "gemini", { hook_event_name: "AfterTool", tool_name: "run_shell_command", tool_input: { command: "ls" } }, "answers BeforeTool only"],
    ["a run_shell_command without command", "gemini", { tool_name: "run_shell_command", tool_input: { dir_path: "." } }, "run_shell_command needs tool_input.command"],
    ["a Gemini MCP tool without mcp_context", "gemini", { tool_name: "mcp_github_delete_repo", tool_input: {} }, "no mcp_context"],
    ["an mcp_context without server_name", "gemini", { tool_name: "mcp_github_delete_repo", tool_input: {}, mcp_context: { tool_name: "delete_repo" } }, "needs server_name and tool_name"],
    ["read_many_files with a non-string path", "gemini", { tool_name: "read_many_files", tool_input: { include: ["a", 3] } }, "include[1]"],
  ]
  for (const [name, host, payload, reason] of cases) {
    test(name, async () => {
      const sb = sandbox()
      const r = await ccode(sb, ["hook", host], { stdin: JSON.stringify({ cwd: sb.work, ...payload }) })
      expect(r.code).toBe(2)
      expect(r.stdout).toBe("")
      expect(r.stderr).toContain(reason)
      expect(r.stderr).toContain("(call blocked)")
      expect(auditRows(sb)).toEqual([])
    })
  }
})

describe("approval.on_ask in hook mode: a headless host never waits", () => {
  test("on_ask: deny turns an ask into a deny that says why, for both hosts", async () => {
    const sb = sandbox()
    sb.file(".ccode/policy.yaml", "approval: { on_ask: deny }\n")
    const c = JSON.parse((await claude(sb, "Write", { file_path: `${sb.work}/a.ts`, content: "" })).stdout)
    expect(c.hookSpecificOutput.permissionDecision).toBe("deny")
    expect(c.hookSpecificOutput.permissionDecisionReason).toContain("approval.on_ask is deny")
    const g = await ccode(sb, ["hook", "gemini"], { stdin: JSON.stringify({ hook_event_name: "BeforeTool", tool_name: "write_file", tool_input: { file_path: `${sb.work}/a.ts`, content: "" }, cwd: sb.work }) })
    const out = JSON.parse(g.stdout)
    expect(out.decision).toBe("deny")
    expect(out.systemMessage).toContain("approval.on_ask is deny")
    expect(auditRows(sb).map((r) => r.result)).toEqual(["denied", "denied"])
  })

  test("--on-ask pause denies with a message (a hook cannot pause its host); --on-ask prompt asks", async () => {
    const sb = sandbox()
    const payload = JSON.stringify({ tool_name: "write_file", tool_input: { file_path: `${sb.work}/a.ts`, content: "" }, cwd: sb.work })
    const paused = JSON.parse((await ccode(sb, ["hook", "gemini", "--on-ask", "pause"], { stdin: payload })).stdout)
    expect(paused).toMatchObject({ decision: "deny" })
    expect(paused.reason).toContain("cannot pause")
    expect(JSON.parse((await ccode(sb, ["hook", "gemini", "--on-ask=prompt"], { stdin: payload })).stdout)).toMatchObject({ decision: "ask" })
    const bad = await ccode(sb, ["hook", "gemini", "--on-ask", "later"], { stdin: payload })
    expect([bad.code, bad.stderr.includes("--on-ask takes prompt, pause or deny")]).toEqual([2, true])
  })

  test("a deny is never softened by on_ask, and an allow rule is answered allow", async () => {
    const sb = sandbox()
    sb.file(".ccode/policy.yaml", "rules: [{ id: docs-ok, tool: write_file, path: 'docs/**', decision: allow }]\n")
    expect((await ccode(sb, ["trust"])).code).toBe(0) // an untrusted workspace's allow rules do not count
    const allowed = JSON.parse((await claude(sb, "Write", { file_path: `${sb.work}/docs/a.md`, content: "" })).stdout)
    expect(allowed.hookSpecificOutput.permissionDecision).toBe("allow")
    const denied = JSON.parse((await ccode(sb, ["hook", "claude", "--on-ask", "prompt"], { stdin: JSON.stringify({ tool_name: "Bash", tool_input: { command: "git push -f origin main" }, cwd: sb.work }) })).stdout)
    expect(denied.hookSpecificOutput.permissionDecision).toBe("deny")
  })
})

describe("an agent trying to get round the hook", () => {
  test("rewriting the policy through Write is never allowed, even with a trusted allow rule for writes", async () => {
    const sb = sandbox()
    sb.file(".ccode/policy.yaml", "rules: [{ id: writes-ok, tool: write_file, decision: allow }]\n")
    expect((await ccode(sb, ["trust"])).code).toBe(0)
    const out = JSON.parse((await claude(sb, "Write", { file_path: `${sb.work}/.ccode/policy.yaml`, content: "rules: []\n" })).stdout)
    expect(out.hookSpecificOutput.permissionDecision).toBe("ask")
    expect(out.hookSpecificOutput.permissionDecisionReason).toContain("protected")
  })

  test("Gemini's dir_path moves the shell's cwd: rm -rf * in / is not left to the host", async () => {
    const sb = sandbox()
    const r = await ccode(sb, ["hook", "gemini"], { stdin: JSON.stringify({ tool_name: "run_shell_command", tool_input: { command: "rm -rf *", dir_path: "/" }, cwd: sb.work }) })
    expect(r.code).toBe(0)
    expect(["ask", "deny"]).toContain(JSON.parse(r.stdout).decision)
  })

  test("Gemini's older `directory` field moves the cwd too; given with dir_path, the call is blocked", async () => {
    const sb = sandbox()
    const r = await ccode(sb, ["hook", "gemini"], { stdin: JSON.stringify({ tool_name: "run_shell_command", tool_input: { command: "rm -rf *", directory: "/" }, cwd: sb.work }) })
    expect(r.code).toBe(0)
    expect(["ask", "deny"]).toContain(JSON.parse(r.stdout).decision)
    const both = await ccode(sb, ["hook", "gemini"], { stdin: JSON.stringify({ tool_name: "run_shell_command", tool_input: { command: "ls", directory: "/", dir_path: "." }, cwd: sb.work }) })
    expect(both.code).toBe(2)
  })

  test("a harmless command chained to a destructive one is decided by the worst part", async () => {
    const sb = sandbox()
    const out = JSON.parse((await claude(sb, "Bash", { command: "git status; git push --force origin main" })).stdout)
    expect(out.hookSpecificOutput.permissionDecision).toBe("deny")
  })

  test("read_many_files with a glob into ~/.ssh asks; the tool's old and new argument names cannot disagree", async () => {
    const sb = sandbox()
    const r = await ccode(sb, ["hook", "gemini"], { stdin: JSON.stringify({ tool_name: "read_many_files", tool_input: { include: ["README.md", "~/.ssh/*"] }, cwd: sb.work }) })
    expect(JSON.parse(r.stdout).decision).toBe("ask")
    const two = await ccode(sb, ["hook", "gemini"], { stdin: JSON.stringify({ tool_name: "read_file", tool_input: { file_path: "README.md", absolute_path: `${sb.home}/.ssh/id_rsa` }, cwd: sb.work }) })
    expect([two.code, two.stdout]).toEqual([2, ""])
  })

  test("a built-in's name dressed up with mcp_context is refused, not decided as the MCP tool", async () => {
    const sb = sandbox()
    sb.file(".ccode/policy.yaml", "rules: [{ id: fs-ok, tool: 'mcp:fs/*', decision: allow }]\n")
    const r = await ccode(sb, ["hook", "gemini"], { stdin: JSON.stringify({ tool_name: "run_shell_command", tool_input: { command: "reboot" }, mcp_context: { server_name: "fs", tool_name: "read" }, cwd: sb.work }) })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("built-in tool")
  })
})
