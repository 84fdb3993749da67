// The hosts' tables and payload checks, in-process (the e2e tests replay the same through the binary).
import { describe, expect, test } from "bun:test"
import { HOST_TABLES, HookInputError, parseHookPayload, verdictFor } from "../../core/hosts/index.ts"
import { RISKS } from "../../core/base/risk.ts"
import type { Decision } from "../../core/policy/types.ts"

const json = (v: unknown) => JSON.stringify(v)

describe("host tables", () => {
  for (const table of Object.values(HOST_TABLES)) {
    test(`${table.host}: names the version it was checked against; every entry is well formed`, () => {
      expect(table.checkedAgainst).toMatch(/\d+\.\d+/)
      for (const [name, entry] of Object.entries(table.tools)) {
        expect(RISKS).toContain(entry.risk)
        expect(entry.tool).toMatch(/^[a-z_]+$/)
        if (entry.reads) expect(entry.args?.[entry.reads]?.type, name).toBe("array")
      }
    })
  }

  test("Claude Code's current built-ins are all known", () => {
    const known = Object.keys(HOST_TABLES.claude.tools)
    for (const t of ["Bash", "Write", "Edit", "MultiEdit", "Read", "NotebookEdit", "Glob", "Grep", "LS", "Task", "TaskCreate", "TaskUpdate", "TaskList", "TaskGet", "Agent", "WebFetch", "WebSearch", "Skill", "CronCreate", "CronDelete", "CronList", "Workflow", "TodoWrite"]) {
      expect(known).toContain(t)
    }
  })

  test("Gemini CLI's current built-ins are all known", () => {
    const known = Object.keys(HOST_TABLES.gemini.tools)
    for (const t of ["run_shell_command", "write_file", "replace", "read_file", "read_many_files", "grep_search", "search_file_content", "glob", "list_directory", "web_fetch", "google_web_search", "write_todos", "save_memory"]) {
      expect(known).toContain(t)
    }
  })
})

describe("parseHookPayload", () => {
  test("Gemini MCP tools split where mcp_context says, even with underscores in the server name", () => {
    const call = parseHookPayload("gemini", json({ tool_name: "mcp_my_server_do_it", tool_input: { a: 1 }, mcp_context: { server_name: "my_server", tool_name: "do_it" } }))
    expect([call.tool, call.args]).toEqual(["mcp:my_server/do_it", { a: 1 }])
    expect(parseHookPayload("gemini", json({ tool_name: "mcp__gh__x", tool_input: {} })).tool).toBe("mcp:gh/x")
  })

  test("a built-in's name with mcp_context is refused (which tool runs would be a guess)", () => {
    expect(() => parseHookPayload("gemini", json({ tool_name: "run_shell_command", tool_input: { command: "ls" }, mcp_context: { server_name: "x", tool_name: "y" } }))).toThrow(HookInputError)
  })

  test("Gemini's older read_file argument name still maps; an unknown tool keeps its name and has no declared risk", () => {
    expect(parseHookPayload("gemini", json({ tool_name: "read_file", tool_input: { absolute_path: "/a" } })).args).toEqual({ path: "/a" })
    const unknown = parseHookPayload("claude", json({ tool_name: "Teleport", tool_input: { to: "mars" } }))
    expect([unknown.tool, unknown.risk, unknown.args]).toEqual(["Teleport", undefined, { to: "mars" }])
  })

  test("an old and a new name for one argument that disagree are refused; agreeing ones are fine", () => {
    expect(() => parseHookPayload("gemini", json({ tool_name: "read_file", tool_input: { file_path: "README.md", absolute_path: "/etc/shadow" } }))).toThrow("with different values")
    expect(parseHookPayload("gemini", json({ tool_name: "read_file", tool_input: { file_path: "/a", absolute_path: "/a" } })).args).toEqual({ path: "/a" })
  })

  test("EnterWorktree (a checkout into .claude/worktrees) is high, ExitWorktree medium, an MCP resource read medium", () => {
    const risk = (tool: string) => parseHookPayload("claude", json({ tool_name: tool, tool_input: {} })).risk
    expect([risk("EnterWorktree"), risk("ExitWorktree"), risk("ReadMcpResourceTool"), risk("ListMcpResourcesTool")]).toEqual(["high", "medium", "medium", "low"])
  })

  test("a tool name from Object.prototype is an unknown tool, not a table entry", () => {
    const call = parseHookPayload("claude", json({ tool_name: "constructor", tool_input: {} }))
    expect([call.tool, call.risk]).toEqual(["constructor", undefined])
  })

  test("read_many_files' paths are reads to check", () => {
    const call = parseHookPayload("gemini", json({ tool_name: "read_many_files", tool_input: { include: ["a.ts", "~/.ssh/*"] } }))
    expect([call.tool, call.reads]).toEqual(["read_file", ["a.ts", "~/.ssh/*"]])
  })
})

describe("verdictFor", () => {
  const d = (decision: Decision["decision"], by: Decision["by"]) => ({ decision, by, reason: "why", risk: "medium", rules: [], commands: [] }) as unknown as Decision
  test("allow by threshold or mode is left to the host; by rule or grant it is an allow", () => {
    expect(verdictFor(d("allow", "threshold"), "prompt").answer).toBe("left_to_host")
    expect(verdictFor(d("allow", "mode"), "prompt").answer).toBe("left_to_host")
    expect(verdictFor(d("allow", "rule"), "prompt").answer).toBe("allow")
    expect(verdictFor(d("allow", "grant"), "prompt").answer).toBe("allow")
  })
  test("ask follows on_ask; deny stays deny", () => {
    expect(verdictFor(d("ask", "threshold"), "prompt")).toEqual({ answer: "ask", reason: "ccode: why" })
    expect(verdictFor(d("ask", "threshold"), "deny").answer).toBe("deny")
    expect(verdictFor(d("ask", "threshold"), "pause").reason).toContain("cannot pause")
    expect(verdictFor(d("deny", "rule"), "prompt").answer).toBe("deny")
  })
})
