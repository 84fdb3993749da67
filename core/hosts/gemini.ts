// Gemini CLI's BeforeTool hook: its tool names as data (one table, checked against the tool-name
// declarations and hooks reference of the version named below) and its answer format. Pure.
import { optional, required, type HostTable } from "./types.ts"
import type { Verdict } from "./verdict.ts"

export const GEMINI: HostTable = {
  host: "gemini",
  event: "BeforeTool",
  checkedAgainst: "Gemini CLI 0.61.0 (tools/definitions/base-declarations.ts, hooks/types.ts)",
  tools: {
    // the old names (directory, path) are ignored by 0.61: judged where the host acts instead (adjust.ts)
    run_shell_command: { tool: "shell", risk: "safe", args: { command: required("command"), cwd: optional("dir_path"), directory: optional("directory"), description: optional("description"), is_background: optional("is_background", "boolean") } },
    write_file: { tool: "write_file", risk: "medium", args: { path: required("file_path"), content: required("content") } },
    replace: { tool: "edit_file", risk: "medium", args: { path: required("file_path"), old_string: required("old_string"), new_string: required("new_string"), allow_multiple: optional("allow_multiple", "boolean") } },
    // absolute_path: the name before file_path, still sent by older 0.x releases
    read_file: { tool: "read_file", risk: "safe", args: { path: required(["file_path", "absolute_path"]), offset: optional("offset", "number"), limit: optional("limit", "number") } },
    // every listed path or glob is checked as a read_file path (risk.paths, path rules)
    read_many_files: { tool: "read_file", risk: "safe", args: { paths: required(["include", "paths"], "array"), exclude: optional("exclude", "array") }, reads: "paths" },
    grep_search: { tool: "grep", risk: "safe", args: { pattern: required("pattern"), path: optional("dir_path"), old_path: optional("path"), glob: optional(["include_pattern", "include"]) } },
    search_file_content: { tool: "grep", risk: "safe", args: { pattern: required("pattern"), path: optional("dir_path"), old_path: optional("path"), glob: optional(["include_pattern", "include"]) } },
    glob: { tool: "glob", risk: "safe", args: { pattern: required("pattern"), path: optional("dir_path"), old_path: optional("path") } },
    list_directory: { tool: "list_dir", risk: "safe", args: { path: required(["dir_path", "path"]) } },
    // the prompt names the URLs to fetch: data can leave the machine, so medium
    web_fetch: { tool: "web_fetch", risk: "medium", args: { prompt: required("prompt") } },
    google_web_search: { tool: "web_search", risk: "low", args: { query: required("query") } },
    write_todos: { tool: "update_plan", risk: "safe", args: { todos: required("todos", "array") } },
    // a saved fact is read into every later session's context: medium
    save_memory: { tool: "save_memory", risk: "medium", args: { fact: required("fact") } },
    activate_skill: { tool: "skill", risk: "low", args: { skill: required("name") } },
    ask_user: { tool: "ask_user", risk: "safe" },
    enter_plan_mode: { tool: "plan_mode", risk: "safe" },
    exit_plan_mode: { tool: "plan_mode", risk: "safe" },
    get_internal_docs: { tool: "internal_docs", risk: "safe" },
    update_topic: { tool: "update_topic", risk: "safe" },
    codebase_investigator: { tool: "subagent", risk: "low" },
    delegate_to_agent: { tool: "subagent", risk: "low" },
  },
}

/**
 * Gemini CLI names an MCP tool `mcp_<server>_<tool>` (older releases `mcp__<server>__<tool>`) and
 * sends `mcp_context {server_name, tool_name}`: the context says where the name splits (a server
 * name may hold underscores). Undefined: not an MCP tool.
 */
export function geminiMcpTool(name: string, context: { server_name: string; tool_name: string } | undefined): string | undefined {
  if (context) return `mcp:${context.server_name}/${context.tool_name}`
  const old = /^mcp__(.+?)__(.+)$/.exec(name)
  return old ? `mcp:${old[1]}/${old[2]}` : undefined
}

/**
 * What Gemini CLI reads on stdout. It acts on deny/block and ask (allow changes nothing: Gemini's own
 * approval still applies), shows `systemMessage` to the person and sends `reason` to the model.
 */
export function geminiAnswer(verdict: Verdict): string | undefined {
  if (verdict.answer === "left_to_host") return undefined
  if (verdict.answer === "allow") return JSON.stringify({ decision: "allow", reason: verdict.reason })
  return JSON.stringify({ decision: verdict.answer, reason: verdict.reason, systemMessage: verdict.reason })
}
