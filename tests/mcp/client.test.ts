// MCP servers' tools as ccode tools, against real servers written with the SDK (stdio and streamable
// HTTP): names, risk from annotations, results, and each kind of failure in its own error code.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { connectServers, type ConnectedServers } from "../../core/mcp/client.ts"
import { executeTool } from "../../core/tools/execute.ts"
import type { Tool, ToolResult } from "../../core/tools/types.ts"
import { startHttpMcpServer } from "../fixtures/mcp/http.ts"

const SERVER = join(import.meta.dir, "..", "fixtures", "mcp", "server.ts")
const cwd = mkdtempSync(join(tmpdir(), "ccode-mcp-"))
let servers: ConnectedServers
let http: { url: string; stop(): void }

beforeAll(async () => {
  http = await startHttpMcpServer()
  servers = await connectServers(
    {
      fx: { command: "bun", args: [SERVER], env: { FIXTURE_TOKEN: "${CCODE_TEST_TOKEN}", PLAIN: "as written" } },
      web: { url: http.url },
      broken: { command: "bun", args: [SERVER, "--crash-on-start"] },
      absent: { command: join(cwd, "no-such-server") },
    },
    { cwd, env: { ...process.env, CCODE_TEST_TOKEN: "tok-123", CCODE_TEST_OTHER: "not for servers" } },
  )
})
afterAll(async () => {
  await servers.close()
  http.stop()
})

function tool(name: string): Tool {
  const found = servers.tools.find((t) => t.tool.name === name)
  if (!found) throw new Error(`no ${name}`)
  return found.tool
}

function call(name: string, args: Record<string, unknown>, timeoutMs = 10_000): Promise<ToolResult> {
  return executeTool(tool(name), args, { cwd, workspace: cwd, env: {}, runId: "r", callId: "c", confine: true, timeoutMs, idleTimeoutMs: 60_000 })
}

describe("MCP servers' tools", () => {
  test("tools are named mcp:SERVER/TOOL with their source; read-only ones are low risk, the rest medium", () => {
    const listed = servers.tools.map(({ tool, source }) => [tool.name, source, tool.risk, tool.idempotent])
    expect(listed).toEqual([
      ["mcp:fx/echo", "mcp:fx", "low", true],
      ["mcp:fx/add", "mcp:fx", "low", true],
      ["mcp:fx/slow", "mcp:fx", "medium", false],
      ["mcp:fx/crash", "mcp:fx", "medium", false],
      ["mcp:fx/fail", "mcp:fx", "medium", false],
      ["mcp:fx/note", "mcp:fx", "medium", false],
      ["mcp:fx/save", "mcp:fx", "medium", false],
      ["mcp:fx/env", "mcp:fx", "low", true],
      ["mcp:fx/garbage", "mcp:fx", "medium", false],
      ["mcp:web/shout", "mcp:web", "low", true],
    ])
  })

  test("a server that fails to start is reported with its stderr, and its tools left out", () => {
    expect(servers.problems).toHaveLength(2)
    expect(servers.problems[0]).toStartWith("MCP server broken left out: the server closed the connection")
    expect(servers.problems[0]).toContain("its stderr: fixture: cannot start, configuration missing")
    expect(servers.problems[1]).toStartWith("MCP server absent left out:")
    expect(servers.problems[1]).toContain("[MCP_NETWORK_ERROR]")
  })

  test("a call returns the tool's text and structured content; side effects happen in the run's directory", async () => {
    expect(await call("mcp:fx/add", { a: 2, b: 3 })).toMatchObject({ status: "ok", text: "5", data: { sum: 5 } })
    expect(await call("mcp:web/shout", { text: "over http" })).toMatchObject({ status: "ok", text: "OVER HTTP" })
    expect((await call("mcp:fx/note", { line: "first" })).status).toBe("ok")
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("first\n")
  })

  test("a server sees its env: (with ${NAME} taken from ccode's environment) and no other variables of ccode's", async () => {
    expect((await call("mcp:fx/env", { name: "FIXTURE_TOKEN" })).text).toBe("tok-123")
    expect((await call("mcp:fx/env", { name: "PLAIN" })).text).toBe("as written")
    expect((await call("mcp:fx/env", { name: "CCODE_TEST_OTHER" })).text).toBe("(unset)")
  })

  test("bad arguments are refused before the server sees them, with a param error", async () => {
    const result = await call("mcp:fx/add", { a: "two", b: 3 })
    expect(result.error).toEqual({ code: "INVALID_PARAM", type: "param", message: "invalid arguments for mcp:fx/add: a: Invalid input: expected number, received string" })
  })

  test("a tool that reports an error is an execution error with its text", async () => {
    const result = await call("mcp:fx/fail", { why: "disk full" })
    expect(result.error).toEqual({ code: "MCP_EXECUTION_ERROR", type: "execution", message: "mcp:fx/fail: it failed: disk full" })
  })

  test("a slow server is abandoned at the timeout with MCP_TIMEOUT", async () => {
    const started = Date.now()
    const result = await call("mcp:fx/slow", { ms: 10_000 }, 300)
    expect(result.error?.code).toBe("MCP_TIMEOUT")
    expect(result.error?.type).toBe("timeout")
    expect(result.error?.message).toBe("mcp:fx/slow did not answer within 300ms")
    expect(Date.now() - started).toBeLessThan(3000)
    // the server is still usable afterwards
    expect((await call("mcp:fx/echo", { message: "still here" })).text).toBe("echo: still here")
  })

  test("a server that crashes mid-call gives a network error, and is started again for the next call", async () => {
    const crashed = await call("mcp:fx/crash", {})
    expect(crashed.error?.code).toBe("MCP_NETWORK_ERROR")
    expect(crashed.error?.type).toBe("network")
    expect(crashed.error?.message).toContain("the server closed the connection")
    expect(await call("mcp:fx/echo", { message: "back" })).toMatchObject({ status: "ok", text: "echo: back" })
  })

  test("a server that writes something that is not MCP gives a parse error at once", async () => {
    const started = Date.now()
    const result = await call("mcp:fx/garbage", {})
    expect(result.error?.code).toBe("MCP_PARSE_ERROR")
    expect(result.error?.type).toBe("parse")
    expect(Date.now() - started).toBeLessThan(5000)
  })
})
