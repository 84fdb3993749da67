// MCP failures in the result envelope's terms (the error codes every tool uses): JSON-RPC and transport errors and
// error results become MCP_PARAM_ERROR, MCP_PARSE_ERROR, MCP_EXECUTION_ERROR, MCP_NETWORK_ERROR,
// MCP_TIMEOUT or MCP_NOT_FOUND. Pure: looks at values, never at the SDK's classes.
import { ToolFailure, type ErrorType } from "../tools/types.ts"

// JSON-RPC codes (the SDK's ErrorCode enum), kept here so classifying needs no SDK import
const CONNECTION_CLOSED = -32000
const REQUEST_TIMEOUT = -32001
const PARSE_ERROR = -32700
const INVALID_REQUEST = -32600
const METHOD_NOT_FOUND = -32601
const INVALID_PARAMS = -32602

const KINDS: Record<string, ErrorType> = {
  MCP_PARAM_ERROR: "param",
  MCP_PARSE_ERROR: "parse",
  MCP_EXECUTION_ERROR: "execution",
  MCP_NETWORK_ERROR: "network",
  MCP_TIMEOUT: "timeout",
  MCP_NOT_FOUND: "not_found",
}
export type McpErrorCode = keyof typeof KINDS

export function mcpFailure(code: McpErrorCode, message: string): ToolFailure {
  return new ToolFailure(code, KINDS[code]!, message)
}

/** What went wrong calling `name` (e.g. mcp:github/search), from whatever the SDK or transport threw. */
export function classifyMcpError(error: unknown, name: string): ToolFailure {
  if (error instanceof ToolFailure) return error
  const message = error instanceof Error ? error.message : String(error)
  const code = (error as { code?: unknown })?.code
  if (typeof code === "number") {
    const text = `${name}: ${message}`
    if (code === INVALID_PARAMS) return mcpFailure("MCP_PARAM_ERROR", text)
    if (code === PARSE_ERROR || code === INVALID_REQUEST) return mcpFailure("MCP_PARSE_ERROR", text)
    if (code === METHOD_NOT_FOUND) return mcpFailure("MCP_NOT_FOUND", text)
    if (code === REQUEST_TIMEOUT) return mcpFailure("MCP_TIMEOUT", `${name} did not answer in time (${message})`)
    if (code === CONNECTION_CLOSED) return mcpFailure("MCP_NETWORK_ERROR", `${name}: the server closed the connection (${message})`)
    return mcpFailure("MCP_EXECUTION_ERROR", text)
  }
  if ((error as { name?: string })?.name === "ZodError" || /invalid_type|invalid_union|unrecognized_keys/.test(message)) {
    return mcpFailure("MCP_PARSE_ERROR", `${name}: the server's answer is not valid MCP (${firstLine(message)})`)
  }
  if (typeof code === "string" && /^(ECONN|EPIPE|ENOTFOUND|EAI_|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOENT|EACCES)/.test(code)) {
    return mcpFailure("MCP_NETWORK_ERROR", `${name}: ${message}`)
  }
  if (/not connected|connection closed|fetch failed|socket|ECONNREFUSED|unable to connect|EPIPE/i.test(message)) {
    return mcpFailure("MCP_NETWORK_ERROR", `${name}: ${message}`)
  }
  return mcpFailure("MCP_EXECUTION_ERROR", `${name}: ${message}`)
}

/** A tool result with isError: the tool ran and failed; servers report bad arguments and unknown tools this way too. */
export function errorResultFailure(text: string, name: string): ToolFailure {
  const message = text.trim() || "the tool reported an error"
  if (/-32602|invalid (params|arguments)|input validation error/i.test(message)) return mcpFailure("MCP_PARAM_ERROR", `${name}: ${message}`)
  if (/-32601|tool [^\n]* not found|unknown tool/i.test(message)) return mcpFailure("MCP_NOT_FOUND", `${name}: ${message}`)
  return mcpFailure("MCP_EXECUTION_ERROR", `${name}: ${message}`)
}

function firstLine(text: string): string {
  return text.split("\n")[0]!.slice(0, 200)
}
