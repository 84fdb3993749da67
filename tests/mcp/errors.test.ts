// MCP failures land in the envelope's codes, so the policy, the breaker and the agent
// can tell a bad argument from a dead server from a slow one.
import { describe, expect, test } from "bun:test"
import { classifyMcpError, errorResultFailure } from "../../core/mcp/errors.ts"
import { ToolFailure } from "../../core/tools/types.ts"

const rpc = (code: number, message: string) => Object.assign(new Error(`MCP error ${code}: ${message}`), { code })
const classify = (error: unknown) => {
  const f = classifyMcpError(error, "mcp:gh/search")
  return [f.code, f.type]
}

describe("MCP error classification", () => {
  test("JSON-RPC errors by code", () => {
    expect(classify(rpc(-32602, "Invalid params"))).toEqual(["MCP_PARAM_ERROR", "param"])
    expect(classify(rpc(-32700, "Parse error"))).toEqual(["MCP_PARSE_ERROR", "parse"])
    expect(classify(rpc(-32600, "Invalid request"))).toEqual(["MCP_PARSE_ERROR", "parse"])
    expect(classify(rpc(-32601, "Method not found"))).toEqual(["MCP_NOT_FOUND", "not_found"])
    expect(classify(rpc(-32001, "Request timed out"))).toEqual(["MCP_TIMEOUT", "timeout"])
    expect(classify(rpc(-32000, "Connection closed"))).toEqual(["MCP_NETWORK_ERROR", "network"])
    expect(classify(rpc(-32603, "Internal error"))).toEqual(["MCP_EXECUTION_ERROR", "execution"])
  })

  test("transport failures are network errors", () => {
    expect(classify(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" }))).toEqual(["MCP_NETWORK_ERROR", "network"])
    expect(classify(new Error("Not connected"))).toEqual(["MCP_NETWORK_ERROR", "network"])
    expect(classify(new TypeError("fetch failed"))).toEqual(["MCP_NETWORK_ERROR", "network"])
  })

  test("an answer that is not valid MCP is a parse error; anything else an execution error", () => {
    expect(classify(Object.assign(new Error("bad shape"), { name: "ZodError" }))).toEqual(["MCP_PARSE_ERROR", "parse"])
    expect(classify(new Error("something odd"))).toEqual(["MCP_EXECUTION_ERROR", "execution"])
    expect(classify("a string")).toEqual(["MCP_EXECUTION_ERROR", "execution"])
  })

  test("a failure already classified passes through", () => {
    const failure = new ToolFailure("MCP_TIMEOUT", "timeout", "slow")
    expect(classifyMcpError(failure, "mcp:gh/search")).toBe(failure)
  })

  test("error results: bad arguments and unknown tools are told apart from the tool failing", () => {
    const of = (text: string) => {
      const f = errorResultFailure(text, "mcp:gh/search")
      return [f.code, f.message]
    }
    expect(of("MCP error -32602: Input validation error: Invalid arguments for tool search")).toEqual([
      "MCP_PARAM_ERROR", "mcp:gh/search: MCP error -32602: Input validation error: Invalid arguments for tool search",
    ])
    expect(of("Tool search not found")).toEqual(["MCP_NOT_FOUND", "mcp:gh/search: Tool search not found"])
    expect(of("rate limited by GitHub")).toEqual(["MCP_EXECUTION_ERROR", "mcp:gh/search: rate limited by GitHub"])
    expect(of("  ")).toEqual(["MCP_EXECUTION_ERROR", "mcp:gh/search: the tool reported an error"])
  })
})
