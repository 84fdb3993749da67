// Hook mode (DESIGN section 9): another agent's tool call (Claude Code PreToolUse, Gemini CLI BeforeTool)
// mapped onto ccode's tools, and ccode's decision mapped back onto the host's answer. Pure.
import type { Decision } from "./types.ts"

export type HookHost = "claude" | "gemini"

export interface HookCall {
  host: HookHost
  /** the host's own tool name */
  hostTool: string
  tool: string
  args: Record<string, unknown>
  cwd?: string
  session?: string
}

/** Bad hook input: exit 2 with the reason (the host then blocks the call). */
export class HookInputError extends Error {
  readonly exitCode = 2
  override name = "HookInputError"
}

type Mapper = (input: Record<string, unknown>) => { tool: string; args: Record<string, unknown> }

const CLAUDE: Record<string, Mapper> = {
  Bash: (i) => ({ tool: "shell", args: pick(i, { command: "command" }) }),
  Write: (i) => ({ tool: "write_file", args: pick(i, { path: "file_path", content: "content" }) }),
  Edit: (i) => ({ tool: "edit_file", args: pick(i, { path: "file_path", old_string: "old_string", new_string: "new_string", replace_all: "replace_all" }) }),
  MultiEdit: (i) => ({ tool: "edit_file", args: pick(i, { path: "file_path", edits: "edits" }) }),
  NotebookEdit: (i) => ({ tool: "edit_file", args: pick(i, { path: "notebook_path", new_string: "new_source" }) }),
  Read: (i) => ({ tool: "read_file", args: pick(i, { path: "file_path", offset: "offset", limit: "limit" }) }),
  Glob: (i) => ({ tool: "glob", args: pick(i, { pattern: "pattern", path: "path" }) }),
  Grep: (i) => ({ tool: "grep", args: pick(i, { pattern: "pattern", path: "path", glob: "glob" }) }),
  LS: (i) => ({ tool: "list_dir", args: pick(i, { path: "path" }) }),
  TodoWrite: () => ({ tool: "update_plan", args: {} }),
}

const GEMINI: Record<string, Mapper> = {
  run_shell_command: (i) => ({ tool: "shell", args: pick(i, { command: "command", cwd: "dir_path" }) }),
  write_file: (i) => ({ tool: "write_file", args: pick(i, { path: "file_path", content: "content" }) }),
  replace: (i) => ({ tool: "edit_file", args: pick(i, { path: "file_path", old_string: "old_string", new_string: "new_string" }) }),
  read_file: (i) => ({ tool: "read_file", args: pick(i, { path: i.absolute_path !== undefined ? "absolute_path" : "file_path", offset: "offset", limit: "limit" }) }),
  list_directory: (i) => ({ tool: "list_dir", args: pick(i, { path: i.dir_path !== undefined ? "dir_path" : "path" }) }),
  glob: (i) => ({ tool: "glob", args: pick(i, { pattern: "pattern", path: i.dir_path !== undefined ? "dir_path" : "path" }) }),
  search_file_content: (i) => ({ tool: "grep", args: pick(i, { pattern: "pattern", path: i.dir_path !== undefined ? "dir_path" : "path", glob: "include" }) }),
}

/** The host's stdin JSON as a ccode call. Throws HookInputError for anything that is not a tool call. */
export function parseHookPayload(host: HookHost, text: string): HookCall {
  let payload: unknown
  try {
    payload = JSON.parse(text)
  } catch {
    throw new HookInputError(`hook input is not JSON (${text.trim() ? `starts with ${JSON.stringify(text.trim().slice(0, 20))}` : "empty"})`)
  }
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) throw new HookInputError("hook input is not a JSON object")
  const p = payload as Record<string, unknown>
  if (typeof p.tool_name !== "string" || !p.tool_name) throw new HookInputError("hook input has no tool_name")
  const input = p.tool_input ?? {}
  if (typeof input !== "object" || Array.isArray(input) || input === null) throw new HookInputError("hook input's tool_input is not an object")
  const mapped = mapTool(host, p.tool_name, input as Record<string, unknown>)
  return {
    host, hostTool: p.tool_name, ...mapped,
    cwd: typeof p.cwd === "string" && p.cwd ? p.cwd : undefined,
    session: typeof p.session_id === "string" ? p.session_id : undefined,
  }
}

export function mapTool(host: HookHost, name: string, input: Record<string, unknown>): { tool: string; args: Record<string, unknown> } {
  const mcp = /^mcp__(.+?)__(.+)$/.exec(name)
  if (mcp) return { tool: `mcp:${mcp[1]}/${mcp[2]}`, args: input }
  const mapper = Object.hasOwn(host === "claude" ? CLAUDE : GEMINI, name) ? (host === "claude" ? CLAUDE : GEMINI)[name] : undefined
  return mapper ? mapper(input) : { tool: name, args: input }
}

/**
 * What to print for a decision, or undefined to stay silent and let the host decide: an allow that
 * no rule or grant made (risk within the threshold, or the approval mode) is the host's call.
 */
export function hookResponse(host: HookHost, decision: Decision): string | undefined {
  if (decision.decision === "allow" && decision.by !== "rule" && decision.by !== "grant") return undefined
  const reason = `ccode: ${decision.reason}`
  if (host === "gemini") return JSON.stringify({ decision: decision.decision, reason })
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: decision.decision, permissionDecisionReason: reason },
  })
}

function pick(input: Record<string, unknown>, names: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [ours, theirs] of Object.entries(names)) if (input[theirs] !== undefined) out[ours] = input[theirs]
  return out
}
