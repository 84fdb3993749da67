// Claude Code's PreToolUse hook: its tool names as data (one table, checked against the hooks and
// tools references of the version named below) and its answer format. Pure.
import { optional, required, type HostTable } from "./types.ts"
import type { Verdict } from "./verdict.ts"

const AGENT_ARGS = {
  prompt: required("prompt"), description: optional("description"), subagent_type: optional("subagent_type"),
  isolation: optional("isolation"), cwd: optional("cwd"), mode: optional("mode"),
}

export const CLAUDE: HostTable = {
  host: "claude",
  event: "PreToolUse",
  checkedAgainst: "Claude Code 2.1.x (hooks reference: PreToolUse input and hookSpecificOutput; tools reference)",
  tools: {
    Bash: { tool: "shell", risk: "safe", args: { command: required("command"), description: optional("description"), timeout: optional("timeout", "number"), run_in_background: optional("run_in_background", "boolean") } },
    // Windows' shell tool: ccode's shell analysis is for POSIX shells, so it is never auto-approved as safe
    PowerShell: { tool: "powershell", risk: "high", args: { command: required("command") } },
    Write: { tool: "write_file", risk: "medium", args: { path: required("file_path"), content: required("content") } },
    Edit: { tool: "edit_file", risk: "medium", args: { path: required("file_path"), old_string: required("old_string"), new_string: required("new_string"), replace_all: optional("replace_all", "boolean") } },
    MultiEdit: { tool: "edit_file", risk: "medium", args: { path: required("file_path"), edits: required("edits", "array") } },
    NotebookEdit: { tool: "edit_file", risk: "medium", args: { path: required("notebook_path"), new_string: required("new_source"), cell_id: optional("cell_id"), edit_mode: optional("edit_mode") } },
    Read: { tool: "read_file", risk: "safe", args: { path: required("file_path"), offset: optional("offset", "number"), limit: optional("limit", "number") } },
    Glob: { tool: "glob", risk: "safe", args: { pattern: required("pattern"), path: optional("path") } },
    Grep: { tool: "grep", risk: "safe", args: { pattern: required("pattern"), path: optional("path"), glob: optional("glob") } },
    LS: { tool: "list_dir", risk: "safe", args: { path: required("path") } },
    // a subagent's own tool calls come through this hook again
    // isolation (a worktree checkout), cwd (judged as a folder it writes in) and mode: judged in adjust.ts
    Agent: { tool: "subagent", risk: "low", args: AGENT_ARGS },
    Task: { tool: "subagent", risk: "low", args: AGENT_ARGS },
    // the session's task list: bookkeeping, no effect outside the conversation
    TodoWrite: { tool: "update_plan", risk: "safe", args: { todos: required("todos", "array") } },
    TaskCreate: { tool: "update_plan", risk: "safe" },
    TaskUpdate: { tool: "update_plan", risk: "safe" },
    TaskList: { tool: "update_plan", risk: "safe" },
    TaskGet: { tool: "update_plan", risk: "safe" },
    TaskOutput: { tool: "update_plan", risk: "safe" },
    TaskStop: { tool: "update_plan", risk: "low" },
    // a URL can carry data out of the machine: medium, so auto mode asks unless a rule allows the site
    WebFetch: { tool: "web_fetch", risk: "medium", args: { url: required("url"), prompt: optional("prompt") } },
    WebSearch: { tool: "web_search", risk: "low", args: { query: required("query") } },
    // its argument was renamed between releases (command, then skill); loading it runs its `!` command
    // blocks without this hook: the skill's files are looked at (core/policy/skillfiles.ts)
    Skill: { tool: "skill", risk: "low", args: { skill: optional(["skill", "command"]), args: optional("args") } },
    // a scheduled prompt runs later without anyone looking: medium
    CronCreate: { tool: "schedule", risk: "medium" },
    CronDelete: { tool: "schedule", risk: "low" },
    CronList: { tool: "schedule", risk: "safe" },
    Workflow: { tool: "workflow", risk: "medium" },
    AskUserQuestion: { tool: "ask_user", risk: "safe" },
    EnterPlanMode: { tool: "plan_mode", risk: "safe" },
    ExitPlanMode: { tool: "plan_mode", risk: "safe" },
    // `git worktree add .claude/worktrees/NAME` (a checkout: the repository's filters and hooks run, maybe a
    // fetch) into a protected folder; leaving may remove a work tree with its changes
    EnterWorktree: { tool: "worktree", risk: "high" },
    ExitWorktree: { tool: "worktree", risk: "medium" },
    ListMcpResourcesTool: { tool: "mcp_resources", risk: "low" },
    // resources/read returns what the URI names (file://…, a repository's files): as risky as the server's tools
    ReadMcpResourceTool: { tool: "mcp_resources", risk: "medium" },
    LSP: { tool: "lsp", risk: "safe" },
    ToolSearch: { tool: "tool_search", risk: "safe" },
  },
}

/** Claude Code's `mcp__server__tool` as ccode's `mcp:server/tool` (undefined: not an MCP tool name). */
export function claudeMcpTool(name: string): string | undefined {
  const m = /^mcp__(.+?)__(.+)$/.exec(name)
  return m ? `mcp:${m[1]}/${m[2]}` : undefined
}

/** What Claude Code reads on stdout; undefined prints nothing (the host decides as if no hook ran). */
export function claudeAnswer(verdict: Verdict): string | undefined {
  if (verdict.answer === "left_to_host") return undefined
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: verdict.answer, permissionDecisionReason: verdict.reason },
  })
}
