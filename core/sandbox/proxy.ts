// The filtering proxy a sandbox with `network: [host, ...]` reaches the network through. It runs in
// ccode, outside the sandbox, on a unix socket only that sandbox sees; it lets a connection through
// only to a listed host and port, resolves the name itself and connects to the address it checked (a
// second lookup by someone else cannot rebind it), and reports every connection, allowed or refused.
// It never reads past a request's head: bodies and credentials are neither parsed nor logged.
import { lookup } from "node:dns/promises"
import { chmodSync, existsSync, rmSync } from "node:fs"
import { createConnection, createServer, isIP, type Socket } from "node:net"
import { addressAllowed, matchHost, type HostRule } from "../base/hosts.ts"
import { MAX_HEAD_BYTES, parseHead } from "./http-head.ts"

/** One connection the sandboxed command asked for: what the audit records (no path, no headers). */
export interface ProxyConnection {
  method: string
  host: string
  port: number
  /** the list lets it through (it may still fail: a listed server that is down) */
  allowed: boolean
  /** why it was refused, or why an allowed one failed */
  reason?: string
  /** the address it went to */
  address?: string
}

export interface ProxyOptions {
  socket: string
  rules: readonly HostRule[]
  onConnection: (connection: ProxyConnection) => void
  /** the whole head must arrive within this (a slowloris client is cut off) */
  headTimeoutMs?: number
  connectTimeoutMs?: number
  /** open client and upstream sockets together; connections beyond are closed at once */
  maxConnections?: number
  /** name -> addresses; the system resolver unless a test gives another */
  resolve?: (host: string) => Promise<string[]>
}

export interface Proxy {
  close(): void
}

const HEAD_TIMEOUT_MS = 10_000
const CONNECT_TIMEOUT_MS = 10_000
const REFUSED_LINGER_MS = 1000
const MAX_CONNECTIONS = 512

/**
 * Listen on `socket` (owner-only). Synchronous: bwrap binds the socket file into the sandbox the moment
 * it starts, so the file must exist before the call is spawned; when it does not, this throws.
 */
export function startProxy(options: ProxyOptions): Proxy {
  const open = new Set<Socket>()
  const server = createServer((client) => {
    // a command opening connections by the thousand must not run ccode (its database, its logs) out of descriptors
    if (open.size >= (options.maxConnections ?? MAX_CONNECTIONS)) return void client.destroy()
    open.add(client)
    client.on("close", () => open.delete(client))
    handle(client, options, open)
  })
  rmSync(options.socket, { force: true })
  server.on("error", () => server.close())
  server.listen(options.socket)
  if (!existsSync(options.socket)) {
    server.close()
    throw new Error(`the sandbox's network proxy could not listen on ${options.socket}`)
  }
  chmodSync(options.socket, 0o600)
  server.unref()
  return {
    close() {
      server.close()
      for (const socket of open) socket.destroy()
      open.clear()
      rmSync(options.socket, { force: true })
    },
  }
}

function handle(client: Socket, options: ProxyOptions, open: Set<Socket>): void {
  let buffered = Buffer.alloc(0)
  const timer = setTimeout(() => refuse(client, 408, "the request head took too long"), options.headTimeoutMs ?? HEAD_TIMEOUT_MS)
  timer.unref()
  client.on("error", () => client.destroy())
  client.once("close", () => clearTimeout(timer))
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk])
    const end = buffered.indexOf("\r\n\r\n")
    if (end < 0) {
      if (buffered.length > MAX_HEAD_BYTES) {
        clearTimeout(timer)
        client.off("data", onData)
        refuse(client, 431, "request head too large")
      }
      return
    }
    clearTimeout(timer)
    client.off("data", onData)
    client.pause()
    if (end > MAX_HEAD_BYTES) return refuse(client, 431, "request head too large")
    void route(client, buffered.subarray(0, end).toString("latin1"), buffered.subarray(end + 4), options, open)
  }
  client.on("data", onData)
}

async function route(client: Socket, head: string, rest: Buffer, options: ProxyOptions, open: Set<Socket>): Promise<void> {
  const parsed = parseHead(head)
  const report = (c: Omit<ProxyConnection, "method">) => options.onConnection({ method: parsed.ok ? parsed.target.method : (parsed.method ?? "?"), ...c })
  if (!parsed.ok) {
    report({ host: parsed.host ?? "?", port: parsed.port ?? 0, allowed: false, reason: parsed.reason })
    return refuse(client, parsed.status, parsed.reason)
  }
  const { host, port, kind } = parsed.target
  if (!matchHost(options.rules, host, port)) {
    const reason = `${host}:${port} is not in sandbox.network`
    report({ host, port, allowed: false, reason })
    return refuse(client, 403, reason)
  }
  let addresses: string[]
  try {
    addresses = isIP(host) ? [host] : await (options.resolve ?? systemResolve)(host)
  } catch {
    report({ host, port, allowed: true, reason: "failed: the name does not resolve" })
    return refuse(client, 502, `${host} does not resolve`)
  }
  // one internal answer among public ones is a rebinding attempt: the whole name is refused
  const internal = addresses.find((a) => !addressAllowed(options.rules, host, a))
  if (internal !== undefined || !addresses.length) {
    const reason = `${host} resolves to ${internal ?? "nothing"}, an address not in sandbox.network`
    report({ host, port, allowed: false, reason })
    return refuse(client, 403, reason)
  }
  // the call ended (the proxy closed) or the client left while the name was being resolved
  if (!open.has(client)) return void client.destroy()
  const address = addresses[0]!
  const upstream = createConnection({ host: address, port })
  open.add(upstream)
  upstream.on("close", () => open.delete(upstream))
  client.once("close", () => upstream.destroy())
  let connected = false
  const timer = setTimeout(() => upstream.destroy(new Error("timed out")), options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS)
  timer.unref()
  upstream.on("error", (error: NodeJS.ErrnoException) => {
    clearTimeout(timer)
    if (connected) return client.destroy()
    report({ host, port, allowed: true, reason: `failed: ${error.code ?? error.message}` })
    refuse(client, 502, `could not connect to ${host}:${port}`)
  })
  upstream.once("connect", () => {
    connected = true
    clearTimeout(timer)
    report({ host, port, allowed: true, address })
    if (kind === "connect") client.write("HTTP/1.1 200 Connection Established\r\n\r\n")
    else upstream.write(parsed.target.forward!)
    if (rest.length) upstream.write(rest)
    client.pipe(upstream)
    upstream.pipe(client)
    client.resume()
    upstream.on("close", () => client.destroy())
  })
}

async function systemResolve(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address)
}

function refuse(client: Socket, status: number, reason: string): void {
  const text = STATUS[status] ?? "Error"
  const body = `ccode sandbox proxy: ${reason}\n`
  // what the client still sends is read and dropped: closing on unread bytes would reset the
  // connection and lose the answer; the client gets a moment to read it, then the socket is destroyed
  client.removeAllListeners("data")
  client.on("data", () => undefined)
  client.resume()
  client.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
  setTimeout(() => client.destroy(), REFUSED_LINGER_MS).unref()
}

const STATUS: Record<number, string> = { 400: "Bad Request", 403: "Forbidden", 408: "Request Timeout", 431: "Request Header Fields Too Large", 502: "Bad Gateway" }
