// `ccode mcp`: serves a session's tools over MCP stdio with the official SDK (imported lazily).
// stdout carries the protocol only; every call goes through the session, so through the policy.
import { z } from "zod"
import { isReadOnly } from "../tools/declare.ts"
import type { Tool, ToolResult } from "../tools/types.ts"
import type { McpSession } from "./session.ts"

const INSTRUCTIONS =
  "Tools served by ccode: every call is decided by the workspace's ccode policy, run, checkpointed and audited. " +
  "A call that needs a person's approval fails with APPROVAL_REQUIRED and the command that approves it; " +
  "after the person approved, make the same call again."

/** Serve until the client disconnects (stdin closes) or `stop` fires. */
export async function serveMcp(session: McpSession, opts: { version: string; stop?: AbortSignal }): Promise<void> {
  const { Server } = await import("@modelcontextprotocol/sdk/server/index.js")
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js")
  const { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } = await import("@modelcontextprotocol/sdk/types.js")
  const server = new Server({ name: "ccode", version: opts.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS })
  const listed = session.tools.map(describeTool)
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    // the spec's answer to a tool that does not exist is a protocol error, not a tool result
    if (!session.serves(request.params.name)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name} (tools/list shows the tools ccode serves)`)
    const args = (request.params.arguments ?? {}) as Record<string, unknown>
    // extra.signal fires on the client's notifications/cancelled for this request
    return callResult(await session.call(request.params.name, args, extra.signal), session)
  })
  const ended = new Promise<void>((resolve) => {
    server.onclose = resolve
    process.stdin.once("end", resolve)
    process.stdin.once("close", resolve)
    opts.stop?.addEventListener("abort", () => resolve(), { once: true })
  })
  await server.connect(new StdioServerTransport())
  await ended
  await server.close().catch(() => {})
}

export function describeTool(tool: Tool) {
  const { $schema: _drop, ...inputSchema } = z.toJSONSchema(tool.args, { io: "input", unrepresentable: "any" }) as Record<string, unknown>
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: { ...inputSchema, type: "object" as const },
    annotations: { readOnlyHint: isReadOnly(tool), idempotentHint: tool.idempotent === true },
  }
}

/** The envelope as an MCP tool result: text for the client, the error code up front, secrets masked. */
export function callResult(result: ToolResult, session: Pick<McpSession, "redact">) {
  if (result.status === "ok") {
    return { content: [{ type: "text" as const, text: session.redact(result.text) }], isError: false }
  }
  const error = result.error!
  const extra = result.text && result.text !== error.message ? `\n${result.text}` : ""
  return { content: [{ type: "text" as const, text: session.redact(`[${error.code}] ${error.message}${extra}`) }], isError: true }
}
