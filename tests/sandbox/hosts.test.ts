// The host allowlist's matching rules: exact names, label-bounded wildcards, ports, IP literals, and
// which resolved addresses a listed name may lead to.
import { describe, expect, test } from "bun:test"
import { addressAllowed, matchHost, normalizeHost, parseAllowlist, parseHostEntry, type HostRule } from "../../core/base/hosts.ts"

function rules(...entries: string[]): HostRule[] {
  const parsed = parseAllowlist(entries)
  if (typeof parsed === "string") throw new Error(parsed)
  return parsed
}
const allowed = (list: HostRule[], host: string, port = 443) => {
  const normal = normalizeHost(host)
  return normal !== undefined && matchHost(list, normal, port) !== undefined
}

describe("host allowlist entries", () => {
  test("a bare host allows 443 and 80; host:port that port only", () => {
    const list = rules("example.com", "api.example.org:8443")
    expect([allowed(list, "example.com", 443), allowed(list, "example.com", 80), allowed(list, "example.com", 22)]).toEqual([true, true, false])
    expect([allowed(list, "api.example.org", 8443), allowed(list, "api.example.org", 443)]).toEqual([true, false])
  })

  test("upper case and a trailing dot name the same host", () => {
    const list = rules("Example.COM.")
    expect(allowed(list, "EXAMPLE.com")).toBe(true)
    expect(allowed(list, "example.com.")).toBe(true)
    expect(allowed(list, "example.com..")).toBe(false)
  })

  test("*.example.com matches subdomains at a label boundary only", () => {
    const list = rules("*.example.com")
    expect(allowed(list, "api.example.com")).toBe(true)
    expect(allowed(list, "a.b.example.com")).toBe(true)
    for (const host of ["example.com", "evilexample.com", "example.com.evil.net", "api.example.com.evil.net", "xexample.com"]) expect(allowed(list, host)).toBe(false)
  })

  test("IP literals match as written, IPv6 in any spelling, never through a name rule", () => {
    const list = rules("127.0.0.1:8080", "[::1]:9090", "localhost:7070")
    expect(allowed(list, "127.0.0.1", 8080)).toBe(true)
    expect(allowed(list, "[0:0:0:0:0:0:0:1]", 9090)).toBe(true)
    expect(allowed(list, "[::1]", 8080)).toBe(false)
    expect(allowed(list, "127.0.0.1", 7070)).toBe(false) // localhost is a name: its address is not listed by it
    expect(allowed(list, "localhost", 8080)).toBe(false)
  })

  test("loose IPv4 spellings, zones, credentials and junk are not host names", () => {
    for (const host of ["127.1", "0x7f.0x1", "2130706433", "fe80::1%eth0", "user@example.com", "exa mple.com", "example.com/x", "", "a..b", "%65xample.com"]) {
      expect(normalizeHost(host)).toBeUndefined()
    }
  })

  test("bad entries are refused with the entry named", () => {
    for (const entry of ["*", "*.com", "https://example.com", "example.com:0", "example.com:99999", "*.127.0.0.1", "ex*.com", "[::1"]) {
      expect(typeof parseHostEntry(entry)).toBe("string")
    }
    expect(parseHostEntry("*.com") as string).toContain("*.com")
  })
})

describe("addresses a listed name may lead to", () => {
  test("public addresses yes; loopback, private, link-local, metadata, unspecified no (DNS rebinding)", () => {
    const list = rules("*.example.com", "example.org")
    expect(addressAllowed(list, "api.example.com", "93.184.216.34")).toBe(true)
    expect(addressAllowed(list, "api.example.com", "2606:2800:220:1:248:1893:25c8:1946")).toBe(true)
    for (const address of ["127.0.0.1", "127.8.9.10", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "0.0.0.0", "100.64.0.1", "::1", "::", "fe80::1", "fec0::1", "fd00::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "64:ff9b::a9fe:a9fe", "224.0.0.1"]) {
      expect([address, addressAllowed(list, "example.org", address)]).toEqual([address, false])
    }
  })

  test("an internal address is reachable when the list names it, or loopback when the request named localhost", () => {
    const list = rules("localhost:8080", "10.0.0.5", "*.corp.example")
    expect(addressAllowed(list, "localhost", "127.0.0.1")).toBe(true)
    expect(addressAllowed(list, "localhost", "::1")).toBe(true)
    expect(addressAllowed(list, "localhost", "10.0.0.6")).toBe(false)
    expect(addressAllowed(list, "git.corp.example", "10.0.0.5")).toBe(true)
    expect(addressAllowed(list, "git.corp.example", "127.0.0.1")).toBe(false)
    expect(addressAllowed(list, "git.corp.example", "::ffff:10.0.0.5")).toBe(true)
  })
})
