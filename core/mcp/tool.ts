// An MCP server's tool as a ccode Tool named `mcp:SERVER/TOOL`: arguments checked against its input
// schema, risk low when annotated read-only else medium (the policy's risk.tools wins), failures
// classified into the MCP error codes. Holds no connection itself: calls go through `McpCaller`.
import { z } from "zod"
import { formatDuration } from "../base/duration.ts"
import { declaredPaths, guessedPaths } from "../tools/declare.ts"
import { ToolFailure, type Effect, type PathAccess, type PathArg, type Tool, type ToolOutput } from "../tools/types.ts"
import { classifyMcpError, errorResultFailure, mcpFailure } from "./errors.ts"

export interface McpToolInfo {
  name: string
  title?: string
  description?: string
  inputSchema?: Record<string, unknown>
  annotations?: { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean }
}

export interface McpContent {
  type: string
  text?: string
  mimeType?: string
  data?: string
  uri?: string
  resource?: { uri?: string; text?: string; mimeType?: string }
}

export interface McpCallResult {
  content?: McpContent[]
  structuredContent?: unknown
  isError?: boolean
}

/** Calls one tool of a connected server (reconnecting when the server went away). */
export interface McpCaller {
  call(tool: string, args: Record<string, unknown>, opts: { signal: AbortSignal; timeoutMs: number; onProgress?: (message: string) => void }): Promise<McpCallResult>
}

export function mcpToolName(server: string, tool: string): string {
  return `mcp:${server}/${tool}`
}

export function mcpTool(server: string, info: McpToolInfo, caller: McpCaller, timeoutMs?: number): Tool<Record<string, unknown>> {
  const name = mcpToolName(server, info.name)
  const readOnly = info.annotations?.readOnlyHint === true
  return {
    name,
    description: info.description?.trim() || info.title || info.annotations?.title || `${info.name} (MCP server ${server})`,
    args: argsSchema(info.inputSchema),
    risk: readOnly ? "low" : "medium",
    timeout: timeoutMs,
    idempotent: readOnly || info.annotations?.idempotentHint === true,
    ...mcpDeclaration(info),
    async run(args, ctx) {
      try {
        const result = await caller.call(info.name, args, {
          signal: ctx.signal,
          // the executor's timer fires first; this only bounds a request the signal could not cancel
          timeoutMs: ctx.timeoutMs + 1000,
          onProgress: (message) => ctx.log(message ? `${message}\n` : ""),
        })
        const output = outputOf(result)
        if (result.isError) throw errorResultFailure(output.text ?? "", name)
        return output
      } catch (error) {
        const reason = ctx.signal.reason
        if (ctx.signal.aborted && reason instanceof ToolFailure) {
          if (reason.type === "timeout") throw mcpFailure("MCP_TIMEOUT", `${name} did not answer within ${formatDuration(reason.code === "IDLE_TIMEOUT" ? ctx.idleTimeoutMs : ctx.timeoutMs)}`)
          throw reason
        }
        throw classifyMcpError(error, name)
      }
    },
  }
}

/**
 * What an MCP tool touches, from its annotations and input schema: read-only when annotated so;
 * an argument named like a path (path, file, target_dir, ...) holding a string is a path — read
 * by a read-only tool, else written — unless its schema says `"x-ccode-path": false` (or names the
 * access: `"x-ccode-path": "read"`). Without a schema, arguments are judged by name at call time.
 */
export function mcpDeclaration(info: McpToolInfo): Pick<Tool, "effects" | "paths"> {
  const readOnly = info.annotations?.readOnlyHint === true
  const effects: Effect[] = readOnly ? ["read"] : ["read", "write", "execute"]
  if (info.annotations?.openWorldHint !== false) effects.push("network")
  const access: PathAccess = readOnly ? "read" : "write"
  const properties = info.inputSchema?.properties
  const declared: PathArg[] = []
  const skip = new Set<string>()
  if (properties && typeof properties === "object") {
    for (const [arg, raw] of Object.entries(properties as Record<string, unknown>)) {
      const said = raw && typeof raw === "object" ? (raw as Record<string, unknown>)["x-ccode-path"] : undefined
      if (said === false) skip.add(arg)
      if (said === "read" || said === "write") (declared.push({ arg, access: said }), skip.add(arg))
    }
  }
  // what the server names, then every argument named like a path, nested ones included
  return { effects, paths: (args: Record<string, unknown>) => [...declaredPaths({ paths: declared }, args), ...guessedPaths(args, access, skip)] }
}

/** The server's JSON Schema as zod (so bad arguments are refused before the server sees them). */
export function argsSchema(inputSchema: Record<string, unknown> | undefined): z.ZodType<Record<string, unknown>> {
  if (!inputSchema) return z.looseObject({})
  try {
    const schema = z.fromJSONSchema(inputSchema as Parameters<typeof z.fromJSONSchema>[0])
    const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as { type?: unknown }
    if (json.type === "object") return schema as z.ZodType<Record<string, unknown>>
  } catch {
    // a schema zod cannot read: the server validates the arguments itself
  }
  return z.looseObject({})
}

/** A tool result as text (what the model and the log see) and data (structured content). */
export function outputOf(result: McpCallResult): ToolOutput {
  const parts = (result.content ?? []).map(contentText)
  const text = parts.join("\n")
  const data = result.structuredContent
  return data === undefined ? { text } : { text: text || JSON.stringify(data), data }
}

function contentText(item: McpContent): string {
  switch (item.type) {
    case "text":
      return item.text ?? ""
    case "image":
    case "audio":
      return `[${item.type} ${item.mimeType ?? ""}, ${Math.floor(((item.data ?? "").length * 3) / 4)} bytes]`
    case "resource":
      return item.resource?.text ?? `[resource ${item.resource?.uri ?? ""}]`
    case "resource_link":
      return `[resource ${item.uri ?? ""}]`
    default:
      return `[${item.type} content]`
  }
}
