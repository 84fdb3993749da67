// The head of a request made to the sandbox's proxy: where it wants to go, read strictly. A CONNECT
// names host:port (HTTPS and anything else tunnelled, never decrypted); a plain HTTP request names an
// absolute http:// URI. Anything ambiguous is refused rather than guessed at. Pure.
import { normalizeHost, splitHostPort } from "../base/hosts.ts"

/** A request head bigger than this is refused (431): no legitimate proxy request needs more. */
export const MAX_HEAD_BYTES = 16 * 1024

export interface ProxyTarget {
  method: string
  /** normalised (lower case, no trailing dot, IPv6 expanded) */
  host: string
  port: number
  kind: "connect" | "http"
  /** plain HTTP: the head to send upstream (origin-form request line, hop-by-hop proxy headers dropped) */
  forward?: string
}

export type HeadResult = { ok: true; target: ProxyTarget } | { ok: false; status: number; reason: string; method?: string; host?: string; port?: number }

/** Parse a complete head (up to and excluding the blank line). */
export function parseHead(head: string): HeadResult {
  const lines = head.split("\r\n")
  const request = lines[0]!.match(/^([A-Z]{1,20}) (\S+) HTTP\/1\.[01]$/)
  if (!request) return refuse(400, "not an HTTP/1.x request line")
  const [, method, uri] = request as unknown as [string, string, string]
  const headers: [string, string][] = []
  for (const line of lines.slice(1)) {
    // folded lines and bare LFs are how one header hides inside another
    const header = line.match(/^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([^\r\n]*?)[ \t]*$/)
    if (!header || line.includes("\n")) return refuse(400, "malformed header line", method)
    headers.push([header[1]!, header[2]!])
  }
  const hosts = headers.filter(([name]) => name.toLowerCase() === "host")
  if (hosts.length > 1) return refuse(400, "more than one Host header", method)
  const hostHeader = hosts[0]?.[1]
  const target = method === "CONNECT" ? connectTarget(uri) : httpTarget(uri)
  if (typeof target === "string") return refuse(400, target, method)
  const { host, port, path } = target
  const named = { method, host, port }
  if (hostHeader !== undefined && !sameHost(hostHeader, host, port, method === "CONNECT")) {
    return { ok: false, status: 400, reason: `the Host header (${hostHeader.slice(0, 100)}) is not the request's target`, ...named }
  }
  if (method === "CONNECT") return { ok: true, target: { ...named, kind: "connect" } }
  return { ok: true, target: { ...named, kind: "http", forward: forwardHead(method, path!, headers, hostHeader === undefined ? authority(host, port) : undefined) } }
}

function connectTarget(uri: string): { host: string; port: number; path?: string } | string {
  const split = splitHostPort(uri)
  if (typeof split === "string" || split.port === undefined) return "CONNECT needs host:port"
  const host = normalizeHost(split.host)
  if (!host) return "CONNECT to something that is not a host name or IP address"
  return { host, port: split.port }
}

function httpTarget(uri: string): { host: string; port: number; path: string } | string {
  if (/^https:\/\//i.test(uri)) return "https:// URIs go through CONNECT"
  // an absolute http URI without credentials (`user@`): the authority ends at the first / ? or #
  const match = uri.match(/^http:\/\/([^/?#@\\]+)([/?][^#]*)?$/i)
  if (!match) return uri.startsWith("/") ? "not a proxy request (origin-form); set HTTP_PROXY" : "not an absolute http:// URI"
  const split = splitHostPort(match[1]!)
  if (typeof split === "string") return `bad authority: ${split}`
  const host = normalizeHost(split.host)
  if (!host) return "not a host name or IP address"
  const rest = match[2] ?? "/"
  return { host, port: split.port ?? 80, path: rest.startsWith("?") ? `/${rest}` : rest }
}

// the Host header names the same host (and port, when it gives one) as the request's target
function sameHost(header: string, host: string, port: number, connect: boolean): boolean {
  const split = splitHostPort(header)
  if (typeof split === "string" || normalizeHost(split.host) !== host) return false
  return split.port === undefined ? connect || port === 80 : split.port === port
}

// what the proxy itself consumes (its credentials, its connection handling) never goes upstream, and
// the upstream connection ends with the response: a second request on it cannot name another host
function forwardHead(method: string, path: string, headers: [string, string][], host: string | undefined): string {
  const hop = new Set(["proxy-authorization", "proxy-connection", "connection", "keep-alive"])
  const kept = headers.filter(([name]) => !hop.has(name.toLowerCase()))
  const lines = [`${method} ${path} HTTP/1.1`, ...(host ? [`Host: ${host}`] : []), ...kept.map(([n, v]) => `${n}: ${v}`), "Connection: close"]
  return `${lines.join("\r\n")}\r\n\r\n`
}

function authority(host: string, port: number): string {
  const name = host.includes(":") ? `[${host}]` : host
  return port === 80 ? name : `${name}:${port}`
}

function refuse(status: number, reason: string, method?: string): HeadResult {
  return { ok: false, status, reason, ...(method ? { method } : {}) }
}
