// `ccode hook claude|gemini` as the host agents call it: JSON on stdin, answer on stdout, audit row.
import { describe, expect, test } from "bun:test"
import { Database } from "bun:sqlite"
import { ccode, sandbox, type Sandbox } from "./harness.ts"

function claude(sb: Sandbox, tool: string, input: Record<string, unknown>, cwd = sb.work) {
  return ccode(sb, ["hook", "claude"], { stdin: JSON.stringify({ session_id: "s1", hook_event_name: "PreToolUse", tool_name: tool, tool_input: input, cwd }) })
}

function auditRows(sb: Sandbox): { actor: string; tool: string; result: string; data: string }[] {
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
