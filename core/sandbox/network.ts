// A run's host allowlist (`sandbox.network: [host, ...]`): one proxy per call, on a unix socket of its
// own, so every connection is reported with the call it belongs to and ends with that call. The
// command inside reaches it through the bridge on 127.0.0.1:BRIDGE_PORT, named by the proxy variables.
import { randomBytes } from "node:crypto"
import { mkdirSync, realpathSync } from "node:fs"
import { join, resolve } from "node:path"
import type { SandboxPolicy } from "../policy/types.ts"
import { parseAllowlist, type HostRule } from "../base/hosts.ts"
import { startProxy, type Proxy, type ProxyConnection } from "./proxy.ts"
import type { SandboxProxy } from "./types.ts"

/** The bridge's port inside the sandbox's own network namespace (nothing else listens there). */
export const BRIDGE_PORT = 3128
// sockaddr_un holds 108 bytes with its terminator
const MAX_SOCKET_PATH = 107

export type NetworkListener = (callId: string | undefined, connection: ProxyConnection) => void

export interface RunNetwork {
  /** start this call's proxy; undefined when the policy lists no hosts (no network, or all of it) */
  open(callId: string | undefined): SandboxProxy | undefined
  /** end the call's proxies (every call's without an id); the first refused `host:port`, if any */
  close(callId: string | undefined): string | undefined
  /** the variables that point the command's HTTP clients at the bridge */
  env: Record<string, string>
  /** a proxy-shaped layout for reading a failure after the call (the socket is gone by then) */
  placeholder?: SandboxProxy
  listen(listener: NetworkListener): void
}

interface Open {
  callId: string | undefined
  proxy: Proxy
  refused?: string
}

export function networkOf(input: { policy: SandboxPolicy; runDir: string; netDir?: string }): RunNetwork {
  const rules = Array.isArray(input.policy.network) ? parseAllowlist(input.policy.network) : undefined
  const listeners: NetworkListener[] = []
  const inert: RunNetwork = { open: () => undefined, close: () => undefined, env: {}, listen: (l) => void listeners.push(l) }
  // no list, or one the schema should have refused: no proxy, so no network at all (fail closed)
  if (!rules || typeof rules === "string") return inert
  const netDir = input.netDir ?? join(input.runDir, "..", "..", "net")
  const opened: Open[] = []
  const bridge = selfCommand()
  return {
    open(callId) {
      mkdirSync(netDir, { recursive: true, mode: 0o700 })
      const socket = join(realpathSync(netDir), `${randomBytes(6).toString("hex")}.sock`)
      if (socket.length > MAX_SOCKET_PATH) throw new Error(`the sandbox's proxy socket path is too long for a unix socket (${socket}); use a shorter CCODE_HOME`)
      const entry: Open = { callId, proxy: undefined as unknown as Proxy }
      entry.proxy = startProxy({
        socket, rules: rules as HostRule[],
        onConnection: (connection) => {
          if (!connection.allowed) entry.refused ??= `${connection.host}:${connection.port}`
          for (const listener of listeners) listener(callId, connection)
        },
      })
      opened.push(entry)
      return { socket, port: BRIDGE_PORT, bridge }
    },
    close(callId) {
      let refused: string | undefined
      for (const entry of opened.filter((e) => callId === undefined || e.callId === callId)) {
        entry.proxy.close()
        refused ??= entry.refused
        opened.splice(opened.indexOf(entry), 1)
      }
      return refused
    },
    env: proxyEnv(rules),
    placeholder: { socket: join(netDir, "closed.sock"), port: BRIDGE_PORT, bridge },
    listen: (listener) => void listeners.push(listener),
  }
}

/**
 * Every spelling HTTP clients read (curl, git, pip, npm, Go, Python requests). NO_PROXY names the
 * sandbox's own loopback, so a server a step starts inside is reached directly; except when the list
 * itself names loopback: then the host's 127.0.0.1 services it lists are reached through the proxy.
 */
export function proxyEnv(rules: readonly HostRule[]): Record<string, string> {
  const url = `http://127.0.0.1:${BRIDGE_PORT}`
  const loopbackListed = rules.some((r) => r.host === "localhost" || r.host.startsWith("127.") || r.host === "0000:0000:0000:0000:0000:0000:0000:0001")
  const noProxy = loopbackListed ? "" : "localhost,127.0.0.1,::1"
  return {
    HTTP_PROXY: url, HTTPS_PROXY: url, ALL_PROXY: url, http_proxy: url, https_proxy: url, all_proxy: url,
    NO_PROXY: noProxy, no_proxy: noProxy,
  }
}

function selfCommand(): string[] {
  return [...ccodeCommand(), "__sandbox-bridge"]
}

/** How to run ccode itself inside a sandbox: the compiled binary, or bun with the entry point when run from source. */
export function ccodeCommand(): string[] {
  // a compiled binary's own modules live under /$bunfs/; from source, bun runs the entry point
  const compiled = import.meta.path.includes("$bunfs")
  return compiled ? [process.execPath] : [process.execPath, resolve(import.meta.dir, "../../cli/main.ts")]
}
