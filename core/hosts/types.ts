// What a host's tool table says, and the call a host's hook payload becomes. Types and a few
// constructors only: the tables in claude.ts and gemini.ts are data built from these.
import type { Risk } from "../base/risk.ts"

export type HookHost = "claude" | "gemini"

/** JSON types a host documents for a tool's input field. */
export type FieldType = "string" | "number" | "boolean" | "object" | "array"

/** One ccode argument: the host field(s) it comes from (first present wins), its type, whether required. */
export interface ArgSource {
  from: string[]
  type: FieldType
  required: boolean
}

/** How one of the host's tools is decided by ccode. */
export interface HostTool {
  /** the ccode tool the call is decided as (its rules, its risk.tools entry) */
  tool: string
  /** the tool's base risk when the policy's risk.tools does not name it */
  risk: Risk
  /** ccode argument <- host field; absent: the host's whole tool_input is passed as the arguments */
  args?: Record<string, ArgSource>
  /** a host field holding a list of paths the tool reads (each is checked like read_file's path) */
  reads?: string
}

export interface HostTable {
  host: HookHost
  /** the hook event this host sends before a tool runs */
  event: string
  /** the host version the table was checked against */
  checkedAgainst: string
  tools: Record<string, HostTool>
}

/** A host's tool call as ccode decides it. */
export interface HostCall {
  host: HookHost
  /** the host's own tool name */
  hostTool: string
  tool: string
  args: Record<string, unknown>
  /** declared base risk of the host tool (undefined: not a known tool, medium) */
  risk?: Risk
  /** extra paths the call reads (read_many_files' list) */
  reads: string[]
  cwd?: string
  session?: string
  toolUseId?: string
  /** Claude Code's permission mode, Gemini's MCP server identity: kept for the audit row */
  extra: Record<string, unknown>
  /** what the host does with the payload beyond the mapped arguments (core/hosts/adjust.ts) */
  checks?: HostChecks
}

/** What the host does with a payload that the tool's arguments do not say; judged by prepareCall. */
export interface HostChecks {
  /** risks of fields the host acts on, each reason naming the field */
  raised?: HookRaised[]
  /** a Claude Code skill by name: its command blocks run without the hook, so its files are looked at */
  skill?: string
  /** a Claude Code subagent type: a project or user definition may start MCP servers and hooks */
  agent?: string
  /** paths of which at least one must exist, else the host looks for another file (Gemini's replace) */
  mustExist?: string[]
}

/** A risk the host's own handling of a field adds, with the reason naming the field. */
export interface HookRaised {
  risk: Risk
  reason: string
}

/** Bad hook input: exit 2 with the reason (both hosts then block the call). */
export class HookInputError extends Error {
  readonly exitCode = 2
  override name = "HookInputError"
}

export function required(from: string | string[], type: FieldType = "string"): ArgSource {
  return { from: typeof from === "string" ? [from] : from, type, required: true }
}

export function optional(from: string | string[], type: FieldType = "string"): ArgSource {
  return { from: typeof from === "string" ? [from] : from, type, required: false }
}
