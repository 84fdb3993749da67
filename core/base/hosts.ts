// The host allowlist of `sandbox.network: [host, ...]`: parsing its entries, matching a requested
// host and port against them, and deciding which resolved addresses may be connected to. Pure.
import { isIP } from "node:net"

/** One entry of the list: an exact name, a `*.suffix` wildcard or an IP address, with its ports. */
export interface HostRule {
  /** the entry as the policy wrote it */
  entry: string
  kind: "name" | "wildcard" | "ip"
  /** lower case, no trailing dot; the suffix without `*.` for a wildcard; an IPv6 address fully expanded */
  host: string
  /** `host:port` allows that port only; a bare host allows the web's ports */
  ports: number[]
}

/** Ports a bare entry allows: HTTPS and plain HTTP. */
export const DEFAULT_PORTS = [443, 80]

// a DNS name after normalising: letters, digits, hyphens, underscores (some service names), dots between labels
const NAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_](?:[a-z0-9_-]{0,62}))*$/

/** Parse one policy entry; a string saying what is wrong when it is not one. */
export function parseHostEntry(entry: string): HostRule | string {
  const split = splitHostPort(entry.trim())
  if (typeof split === "string") return `${entry}: ${split}`
  const ports = split.port === undefined ? DEFAULT_PORTS : [split.port]
  if (split.host.startsWith("*.")) {
    const suffix = normalizeHost(split.host.slice(2))
    // `*.com` would open a whole top-level domain: a wildcard needs at least two labels under it
    if (!suffix || isIP(suffix) || !NAME.test(suffix) || !suffix.includes(".")) return `${entry}: a wildcard is \`*.\` and a domain with a dot, e.g. *.example.com`
    return { entry, kind: "wildcard", host: suffix, ports }
  }
  const host = normalizeHost(split.host)
  if (!host) return `${entry}: not a host name or IP address (wildcards are \`*.example.com\`)`
  return { entry, kind: isIP(host) ? "ip" : "name", host, ports }
}

/** Every entry parsed, or the first problem. */
export function parseAllowlist(entries: readonly string[]): HostRule[] | string {
  const rules: HostRule[] = []
  for (const entry of entries) {
    const rule = parseHostEntry(entry)
    if (typeof rule === "string") return rule
    rules.push(rule)
  }
  return rules
}

/**
 * A host as a request names it, in one canonical form: lower case, without the trailing dot, an IPv6
 * literal without brackets and fully expanded. Undefined when it is neither a DNS name nor an IP address
 * (spaces, `@`, `%`, `/`, empty labels): such a request is refused.
 */
export function normalizeHost(raw: string): string | undefined {
  let host = raw.toLowerCase()
  // a zone (fe80::1%eth0) or percent-encoding names nothing the list could
  if (host.includes("%")) return undefined
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1)
  if (isIP(host) === 6) return expandIPv6(host)
  if (host.endsWith(".")) host = host.slice(0, -1)
  if (isIP(host) === 4) return host
  // a numeric last label is an IP address in a form resolvers read loosely (127.1, 0x7f.0x1): not a name
  const last = host.slice(host.lastIndexOf(".") + 1)
  return NAME.test(host) && /[a-z]/.test(last) && !/^0x[0-9a-f]*$/.test(last) ? host : undefined
}

/** `host:port`, `[v6]:port`, a bare host or a bare IPv6 address. */
export function splitHostPort(text: string): { host: string; port?: number } | string {
  if (!text) return "empty"
  if (text.startsWith("[")) {
    const close = text.indexOf("]")
    if (close < 0) return "unclosed ["
    const rest = text.slice(close + 1)
    if (rest && !rest.startsWith(":")) return "junk after ]"
    return withPort(text.slice(0, close + 1), rest ? rest.slice(1) : undefined)
  }
  const colons = text.split(":").length - 1
  if (colons > 1) return { host: text } // a bare IPv6 address
  if (colons === 0) return { host: text }
  const at = text.lastIndexOf(":")
  return withPort(text.slice(0, at), text.slice(at + 1))
}

function withPort(host: string, port: string | undefined): { host: string; port?: number } | string {
  if (port === undefined) return { host }
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) return `bad port "${port}"`
  return { host, port: Number(port) }
}

/** The rule that lets `host:port` through (host already normalised), or undefined. */
export function matchHost(rules: readonly HostRule[], host: string, port: number): HostRule | undefined {
  return rules.find((rule) => rule.ports.includes(port) && hostMatches(rule, host))
}

function hostMatches(rule: HostRule, host: string): boolean {
  if (rule.kind !== "wildcard") return rule.host === host
  // a label boundary: `*.example.com` is not `evilexample.com`, nor `example.com.evil.net`, nor `example.com`
  return host.endsWith(`.${rule.host}`) && !isIP(host)
}

/**
 * May the proxy connect to `address`, resolved for the allowed `host`? Public addresses: yes. Loopback,
 * private, link-local (the cloud metadata service 169.254.169.254), unspecified and multicast ones
 * only when the list names that address itself, or the request named `localhost` and it is loopback:
 * a listed name whose DNS answer points inside (DNS rebinding) reaches nothing the user did not list.
 */
export function addressAllowed(rules: readonly HostRule[], host: string, address: string): boolean {
  const canonical = normalizeHost(address)
  if (!canonical) return false
  const v4 = embeddedIPv4(canonical)
  if (!isInternal(v4 ?? canonical)) return true
  if (rules.some((r) => r.kind === "ip" && (r.host === canonical || (v4 !== undefined && r.host === v4)))) return true
  return host === "localhost" && isLoopback(v4 ?? canonical)
}

/** Addresses that are not the public internet (and `v4` forms hidden in IPv6 ones are checked as v4). */
export function isInternal(address: string): boolean {
  if (isIP(address) === 4) {
    const [a, b] = address.split(".").map(Number) as [number, number]
    return a === 0 || a === 10 || a === 127 || a >= 224 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || (a === 192 && b === 0) || (a === 198 && (b === 18 || b === 19))
  }
  const first = parseInt(address.split(":")[0]!, 16)
  return address === expandIPv6("::") || isLoopback(address) || (first & 0xffc0) === 0xfe80 || (first & 0xffc0) === 0xfec0 || (first & 0xfe00) === 0xfc00 || (first & 0xff00) === 0xff00
}

function isLoopback(address: string): boolean {
  return isIP(address) === 4 ? address.startsWith("127.") : address === expandIPv6("::1")
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible or NAT64 (64:ff9b::) IPv6 one. */
function embeddedIPv4(address: string): string | undefined {
  if (isIP(address) !== 6) return undefined
  const groups = address.split(":")
  const head = groups.slice(0, 6).join(":")
  const mapped = head === "0000:0000:0000:0000:0000:ffff" || head === "0000:0000:0000:0000:0000:0000" || head === "0064:ff9b:0000:0000:0000:0000"
  if (!mapped || address === expandIPv6("::") || address === expandIPv6("::1")) return undefined
  const [hi, lo] = [parseInt(groups[6]!, 16), parseInt(groups[7]!, 16)]
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".")
}

/** An IPv6 address as eight four-digit groups (dotted IPv4 tails turned into two groups). */
export function expandIPv6(address: string): string {
  let text = address.toLowerCase()
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/)
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split(".").map(Number) as [number, number, number, number]
    text = text.slice(0, -dotted[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [left, right] = text.includes("::") ? text.split("::") as [string, string] : [text, undefined]
  const head = left ? left.split(":") : []
  const tail = right ? right.split(":") : []
  const groups = right === undefined ? head : [...head, ...Array(8 - head.length - tail.length).fill("0"), ...tail]
  return groups.map((g) => g.padStart(4, "0")).join(":")
}
