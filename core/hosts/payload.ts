// A host's hook stdin as a ccode call: the JSON is checked against the host's documented input
// (event name, cwd, the mapped tool's required fields and their types) and the tool is mapped with
// the host's table. Anything unexpected is a HookInputError: the hook fails closed. Pure.
import { adjustCall } from "./adjust.ts"
import { CLAUDE, claudeMcpTool } from "./claude.ts"
import { GEMINI, geminiMcpTool } from "./gemini.ts"
import { HookInputError, type ArgSource, type FieldType, type HostCall, type HookHost, type HostTable } from "./types.ts"

export const HOST_TABLES: Record<HookHost, HostTable> = { claude: CLAUDE, gemini: GEMINI }

export function parseHookPayload(host: HookHost, text: string): HostCall {
  let payload: unknown
  try {
    payload = JSON.parse(text)
  } catch {
    throw new HookInputError(`hook input is not JSON (${text.trim() ? `starts with ${JSON.stringify(text.trim().slice(0, 20))}` : "empty"})`)
  }
  if (!isObject(payload)) throw new HookInputError("hook input is not a JSON object")
  const table = HOST_TABLES[host]
  const event = optionalString(payload, "hook_event_name")
  if (event !== undefined && event !== table.event) {
    throw new HookInputError(`hook_event_name is "${event}", but \`ccode hook ${host}\` answers ${table.event} only: register it under ${table.event}`)
  }
  const name = payload.tool_name
  if (typeof name !== "string" || !name) throw new HookInputError("hook input has no tool_name (a non-empty string)")
  if (!isObject(payload.tool_input)) throw new HookInputError(`tool_input of ${name} is ${describe(payload.tool_input)}, not an object`)
  const input = payload.tool_input
  const cwd = optionalString(payload, "cwd")
  if (cwd === "") throw new HookInputError("cwd is an empty string")
  const base = {
    host, hostTool: name, cwd: cwd || undefined,
    session: optionalString(payload, "session_id"), toolUseId: optionalString(payload, "tool_use_id"),
  }

  const mcp = mcpTool(host, name, payload)
  if (mcp) return { ...base, tool: mcp.tool, args: input, reads: [], extra: { ...mcp.extra, ...hostExtra(host, payload) } }
  const entry = Object.hasOwn(table.tools, name) ? table.tools[name]! : undefined
  // not in the table: decided under its own name, as a tool ccode does not know (medium: ask)
  if (!entry) return { ...base, tool: name, args: input, reads: [], extra: hostExtra(host, payload) }
  const args = entry.args ? mapArgs(name, input, entry.args) : input
  const readsFrom = entry.reads && entry.args?.[entry.reads]?.from.find((f) => input[f] !== undefined && input[f] !== null)
  const reads = entry.reads && readsFrom ? (args[entry.reads] as unknown[]).map((p, i) => pathItem(name, readsFrom, p, i)) : []
  // what the host itself does with the fields (its path normalisation, fields that change the tool)
  const adjusted = adjustCall(host, name, args, reads)
  return {
    ...base, tool: entry.tool, args: adjusted.args, risk: entry.risk, reads: adjusted.reads, extra: hostExtra(host, payload),
    ...(Object.keys(adjusted.checks).length ? { checks: adjusted.checks } : {}),
  }
}

function mcpTool(host: HookHost, name: string, payload: Record<string, unknown>): { tool: string; extra: Record<string, unknown> } | undefined {
  if (host === "claude") {
    const tool = claudeMcpTool(name)
    return tool ? { tool, extra: {} } : undefined
  }
  const context = payload.mcp_context
  if (context !== undefined) {
    // a built-in's name with MCP context: which one runs is the host's guess, so decide neither
    if (Object.hasOwn(GEMINI.tools, name)) throw new HookInputError(`${name} is a built-in tool, but the input carries mcp_context`)
    if (!isObject(context) || typeof context.server_name !== "string" || !context.server_name || typeof context.tool_name !== "string" || !context.tool_name) {
      throw new HookInputError(`mcp_context of ${name} needs server_name and tool_name (non-empty strings)`)
    }
    const ctx = { server_name: context.server_name, tool_name: context.tool_name }
    return { tool: geminiMcpTool(name, ctx)!, extra: { mcp_server: ctx.server_name, mcp_tool: ctx.tool_name } }
  }
  const tool = geminiMcpTool(name, undefined)
  if (tool) return { tool, extra: {} }
  // mcp_<server>_<tool> without its context cannot be split safely (server names hold underscores)
  if (name.startsWith("mcp_")) throw new HookInputError(`${name} looks like an MCP tool but the input has no mcp_context to say its server`)
  return undefined
}

function mapArgs(tool: string, input: Record<string, unknown>, spec: Record<string, ArgSource>): Record<string, unknown> {
  const args: Record<string, unknown> = {}
  for (const [ours, source] of Object.entries(spec)) {
    const given = source.from.filter((f) => input[f] !== undefined && input[f] !== null)
    // an old and a new name for the same argument that disagree: which one the tool uses is a guess
    if (given.length > 1 && given.some((f) => JSON.stringify(input[f]) !== JSON.stringify(input[given[0]!]))) {
      throw new HookInputError(`${tool} gives both tool_input.${given.join(" and ")}, with different values`)
    }
    const field = given[0]
    if (field === undefined) {
      if (source.required) throw new HookInputError(`${tool} needs tool_input.${source.from.join(" or ")} (${source.type})`)
      continue
    }
    const value = input[field]
    if (!hasType(value, source.type)) throw new HookInputError(`${tool}'s tool_input.${field} is ${describe(value)}, expected ${source.type}`)
    args[ours] = value
  }
  return args
}

function pathItem(tool: string, field: string, value: unknown, index: number): string {
  if (typeof value !== "string" || !value) throw new HookInputError(`${tool}'s tool_input.${field}[${index}] is ${describe(value)}, expected a path`)
  return value
}

function hostExtra(host: HookHost, payload: Record<string, unknown>): Record<string, unknown> {
  return host === "claude" ? pickStrings(payload, ["permission_mode", "transcript_path"]) : pickStrings(payload, ["transcript_path", "timestamp"])
}

function pickStrings(payload: Record<string, unknown>, names: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const n of names) if (typeof payload[n] === "string") out[n] = payload[n]
  return out
}

/** A field that may be absent; present, it must be a string. */
function optionalString(payload: Record<string, unknown>, name: string): string | undefined {
  const value = payload[name]
  if (value === undefined) return undefined
  if (typeof value !== "string") throw new HookInputError(`${name} is ${describe(value)}, expected a string`)
  return value
}

function hasType(value: unknown, type: FieldType): boolean {
  if (type === "array") return Array.isArray(value)
  if (type === "object") return isObject(value)
  if (type === "number") return typeof value === "number" && Number.isFinite(value)
  return typeof value === type
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

function describe(value: unknown): string {
  if (value === undefined) return "missing"
  if (value === null) return "null"
  if (Array.isArray(value)) return "an array"
  return typeof value === "object" ? "an object" : `a ${typeof value} (${JSON.stringify(value).slice(0, 40)})`
}
