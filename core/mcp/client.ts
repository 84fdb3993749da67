// Connections to a run's MCP servers (`mcp.servers`: command/args/env for stdio, url for streamable
// HTTP) through the official SDK, imported only here and only when a run has servers. A server that
// fails to start is reported and its tools left out; one that dies is started again on the next call.
import type { Tool } from "../tools/types.ts"
import { classifyMcpError, mcpFailure } from "./errors.ts"
import { mcpTool, type McpCallResult, type McpCaller, type McpToolInfo } from "./tool.ts"

export interface McpServerConfig {
  command?: string
  args?: string[]
  env?: Record<string, string>
  url?: string
  /** ms: connecting, listing, and each call's timeout unless the policy sets one for the tool */
  timeout?: number
}

export interface ConnectedServers {
  tools: { tool: Tool; source: string }[]
  /** one line per server that could not be used */
  problems: string[]
  close(): Promise<void>
}

const CONNECT_TIMEOUT_MS = 30_000
const STDERR_TAIL = 2000

export async function connectServers(
  servers: Record<string, McpServerConfig>,
  opts: { cwd: string; env: Record<string, string | undefined> },
): Promise<ConnectedServers> {
  const connections: McpConnection[] = []
  const problems: string[] = []
  const tools: ConnectedServers["tools"] = []
  const results = await Promise.all(
    Object.entries(servers).map(async ([name, config]) => {
      const connection = new McpConnection(name, { ...config, env: expandEnv(config.env, opts.env) }, opts.cwd)
      try {
        const infos = await connection.start()
        return { connection, infos }
      } catch (error) {
        await connection.close()
        return { connection, error: `MCP server ${name} left out: ${describe(error, connection)}` }
      }
    }),
  )
  for (const result of results) {
    if (result.error !== undefined) {
      problems.push(result.error)
      continue
    }
    connections.push(result.connection)
    for (const info of result.infos!) {
      tools.push({ tool: mcpTool(result.connection.name, info, result.connection, result.connection.config.timeout), source: `mcp:${result.connection.name}` })
    }
  }
  return { tools, problems, close: async () => void (await Promise.all(connections.map((c) => c.close()))) }
}

type SdkClient = InstanceType<typeof import("@modelcontextprotocol/sdk/client/index.js").Client>

/** One server: owns the SDK client, its transport and (stdio) the child process. */
export class McpConnection implements McpCaller {
  private client?: SdkClient
  private connecting?: Promise<SdkClient>
  private stderr = ""
  private closed = false
  /** calls waiting for an answer: a server that writes garbage fails them at once */
  private waiting = new Set<(failure: Error) => void>()

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly cwd: string,
  ) {}

  /** Connect and list the server's tools. */
  async start(): Promise<McpToolInfo[]> {
    const client = await this.connect()
    const infos: McpToolInfo[] = []
    let cursor: string | undefined
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.timeoutMs() })
      infos.push(...(page.tools as McpToolInfo[]))
      cursor = page.nextCursor
    } while (cursor)
    return infos
  }

  async call(tool: string, args: Record<string, unknown>, opts: Parameters<McpCaller["call"]>[2]): Promise<McpCallResult> {
    const client = await this.connect()
    let fail!: (failure: Error) => void
    const garbage = new Promise<never>((_, reject) => (fail = reject))
    this.waiting.add(fail)
    try {
      const request = client.callTool({ name: tool, arguments: args }, undefined, {
        signal: opts.signal,
        timeout: opts.timeoutMs,
        onprogress: (p) => opts.onProgress?.(p.message ?? ""),
        resetTimeoutOnProgress: false,
      })
      return (await Promise.race([request, garbage])) as McpCallResult
    } finally {
      this.waiting.delete(fail)
    }
  }

  async close(): Promise<void> {
    this.closed = true
    const client = this.client ?? (await this.connecting?.catch(() => undefined))
    this.client = undefined
    await client?.close().catch(() => {})
  }

  stderrTail(): string {
    return this.stderr.trim()
  }

  private connect(): Promise<SdkClient> {
    if (this.client) return Promise.resolve(this.client)
    if (this.closed) return Promise.reject(mcpFailure("MCP_NETWORK_ERROR", `MCP server ${this.name} is closed`))
    this.connecting ??= this.open().finally(() => (this.connecting = undefined))
    return this.connecting
  }

  private async open(): Promise<SdkClient> {
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js")
    const client = new Client({ name: "ccode", version: "1" }, { capabilities: {} })
    client.onerror = (error) => {
      if (!isProtocolGarbage(error)) return
      const failure = mcpFailure("MCP_PARSE_ERROR", `MCP server ${this.name} sent something that is not MCP: ${error.message.split("\n")[0]}`)
      for (const fail of this.waiting) fail(failure)
    }
    client.onclose = () => {
      // the server went away (crash, exit): the next call starts it again
      if (this.client === client) this.client = undefined
    }
    await client.connect(await this.transport(), { timeout: this.timeoutMs() })
    this.client = client
    return client
  }

  private async transport() {
    const { url, command } = this.config
    if (url && command) throw new Error("give either `command` (stdio) or `url` (streamable HTTP), not both")
    if (url) {
      const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js")
      return new StreamableHTTPClientTransport(new URL(url))
    }
    if (!command) throw new Error("needs `command` (stdio) or `url` (streamable HTTP)")
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js")
    const transport = new StdioClientTransport({ command, args: this.config.args ?? [], env: this.config.env, cwd: this.cwd, stderr: "pipe" })
    transport.stderr?.on("data", (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-STDERR_TAIL)
    })
    return transport
  }

  private timeoutMs(): number {
    return this.config.timeout ?? CONNECT_TIMEOUT_MS
  }
}

/**
 * A stdio server gets only a few safe variables of ccode's environment (the SDK's default: HOME, PATH,
 * USER, ...) plus its `env:`, whose values may name ccode's variables as ${NAME} so secrets stay out of files.
 */
export function expandEnv(env: Record<string, string> | undefined, from: Record<string, string | undefined>): Record<string, string> | undefined {
  if (!env) return undefined
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) out[key] = value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => from[name] ?? "")
  return out
}

function isProtocolGarbage(error: Error): boolean {
  return error instanceof SyntaxError || error.name === "ZodError" || /JSON|Unexpected token/i.test(error.message)
}

function describe(error: unknown, connection: McpConnection): string {
  const failure = classifyMcpError(error, `mcp:${connection.name}`)
  const stderr = connection.stderrTail()
  const message = failure.message.replace(/^mcp:[^:]+: /, "")
  return `${message} [${failure.code}]${stderr ? `; its stderr: ${stderr.split("\n").slice(-5).join(" | ")}` : ""}`
}
