// Attacks on the host allowlist's proxy, with real servers on 127.0.0.1 and the proxy on a real unix
// socket: every way of asking for a host the list does not name is refused and reported.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test"
import { mkdtempSync, rmSync } from "node:fs"
import { createConnection } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseAllowlist, type HostRule } from "../../core/base/hosts.ts"
import { startProxy, type Proxy, type ProxyConnection, type ProxyOptions } from "../../core/sandbox/proxy.ts"

const dir = mkdtempSync(join(tmpdir(), "ccode-proxy-"))
let http: ReturnType<typeof Bun.serve>
let other: ReturnType<typeof Bun.serve>
let echo: Bun.TCPSocketListener
let otherHits = 0
let seen: Record<string, string>[] = []

beforeAll(() => {
  http = Bun.serve({
    hostname: "127.0.0.1", port: 0,
    fetch(req) {
      seen.push(Object.fromEntries(req.headers))
      return new Response(`hello ${new URL(req.url).pathname}`)
    },
  })
  other = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => (otherHits++, new Response("other")) })
  echo = Bun.listen<undefined>({ hostname: "127.0.0.1", port: 0, socket: { data: (s, d) => void s.write(`echo:${d}`) } })
})
afterAll(() => {
  http.stop(true)
  other.stop(true)
  echo.stop(true)
  rmSync(dir, { recursive: true, force: true })
})

let proxy: Proxy | undefined
let log: ProxyConnection[] = []
afterEach(() => {
  proxy?.close()
  proxy = undefined
  log = []
  seen = []
})

function start(entries: string[], extra: Partial<ProxyOptions> = {}): string {
  const rules = parseAllowlist(entries) as HostRule[]
  const socket = join(dir, "p.sock")
  proxy = startProxy({ socket, rules, onConnection: (c) => log.push(c), ...extra })
  return socket
}

/** Send raw bytes to the proxy (in pieces, `gapMs` apart), read until it closes or `waitMs` passes. */
async function talk(socket: string, pieces: string | string[], opts: { gapMs?: number; waitMs?: number; after?: string } = {}): Promise<{ text: string; closed: boolean }> {
  const conn = createConnection(socket)
  let text = ""
  let closed = false
  conn.on("data", (d) => {
    text += d.toString()
    if (opts.after && text.includes("200 Connection Established") && !text.includes("echo:")) conn.write(opts.after)
  })
  conn.on("error", () => undefined)
  const done = new Promise<void>((resolve) => conn.on("close", () => ((closed = true), resolve())))
  await new Promise<void>((resolve) => conn.once("connect", () => resolve()))
  for (const piece of Array.isArray(pieces) ? pieces : [pieces]) {
    if (conn.destroyed) break
    conn.write(piece)
    if (opts.gapMs) await Bun.sleep(opts.gapMs)
  }
  await Promise.race([done, Bun.sleep(opts.waitMs ?? 3000)])
  conn.destroy()
  return { text, closed }
}

describe("the sandbox's network proxy", () => {
  test("CONNECT to a listed 127.0.0.1 port tunnels bytes both ways, recorded as allowed", async () => {
    const socket = start([`127.0.0.1:${echo.port}`])
    const { text } = await talk(socket, `CONNECT 127.0.0.1:${echo.port} HTTP/1.1\r\nHost: 127.0.0.1:${echo.port}\r\n\r\n`, { after: "ping", waitMs: 500 })
    expect(text).toStartWith("HTTP/1.1 200 Connection Established\r\n\r\n")
    expect(text).toContain("echo:ping")
    expect(log).toEqual([{ method: "CONNECT", host: "127.0.0.1", port: echo.port, allowed: true, address: "127.0.0.1" }])
  })

  test("CONNECT and absolute-URI GET to a 127.0.0.1 port the list does not name are refused (403), the server never sees them", async () => {
    const socket = start([`127.0.0.1:${http.port}`])
    const connect = await talk(socket, `CONNECT 127.0.0.1:${other.port} HTTP/1.1\r\n\r\n`)
    const get = await talk(socket, `GET http://127.0.0.1:${other.port}/ HTTP/1.1\r\nHost: 127.0.0.1:${other.port}\r\n\r\n`)
    expect(connect.text).toStartWith("HTTP/1.1 403 ")
    expect(get.text).toStartWith("HTTP/1.1 403 ")
    expect(otherHits).toBe(0)
    expect(log.map((c) => [c.method, c.port, c.allowed])).toEqual([["CONNECT", other.port!, false], ["GET", other.port!, false]])
  })

  test("plain HTTP to a listed host is forwarded in origin form, without the proxy's credentials; nothing of them is recorded", async () => {
    const socket = start([`127.0.0.1:${http.port}`])
    const request = `POST http://127.0.0.1:${http.port}/path?q=1 HTTP/1.1\r\nHost: 127.0.0.1:${http.port}\r\nProxy-Authorization: Basic c2VjcmV0\r\nAuthorization: Bearer TOKEN123\r\nContent-Length: 11\r\n\r\nBODY-SECRET`
    const { text } = await talk(socket, request)
    expect(text).toStartWith("HTTP/1.1 200")
    expect(text).toContain("hello /path")
    expect(seen[0]!["proxy-authorization"]).toBeUndefined()
    expect(seen[0]!.authorization).toBe("Bearer TOKEN123") // the server's own credentials are the client's business
    const recorded = JSON.stringify(log)
    for (const secret of ["c2VjcmV0", "TOKEN123", "BODY-SECRET", "/path", "q=1"]) expect(recorded).not.toContain(secret)
    expect(log).toEqual([{ method: "POST", host: "127.0.0.1", port: http.port!, allowed: true, address: "127.0.0.1" }])
  })

  test("a Host header that names another host than the target is refused, for CONNECT and for plain HTTP", async () => {
    const socket = start([`127.0.0.1:${http.port}`, `127.0.0.1:${echo.port}`])
    const get = await talk(socket, `GET http://127.0.0.1:${http.port}/ HTTP/1.1\r\nHost: evil.example.com\r\n\r\n`)
    const connect = await talk(socket, `CONNECT 127.0.0.1:${echo.port} HTTP/1.1\r\nHost: evil.example.com:443\r\n\r\n`)
    const twice = await talk(socket, `GET http://127.0.0.1:${http.port}/ HTTP/1.1\r\nHost: 127.0.0.1:${http.port}\r\nHost: evil.example.com\r\n\r\n`)
    for (const r of [get, connect, twice]) expect(r.text).toStartWith("HTTP/1.1 400 ")
    expect(seen).toEqual([])
    expect(log.every((c) => !c.allowed)).toBe(true)
  })

  test("IP literals and names are different entries: localhost listed does not open 127.0.0.1, nor [::1]", async () => {
    const socket = start([`localhost:${http.port}`], { resolve: async (h) => (h === "localhost" ? ["127.0.0.1"] : []) })
    const byIp = await talk(socket, `CONNECT 127.0.0.1:${http.port} HTTP/1.1\r\n\r\n`)
    const byV6 = await talk(socket, `CONNECT [::1]:${http.port} HTTP/1.1\r\n\r\n`)
    const byName = await talk(socket, `GET http://LOCALHOST.:${http.port}/n HTTP/1.1\r\nHost: localhost.:${http.port}\r\n\r\n`)
    expect(byIp.text).toStartWith("HTTP/1.1 403 ")
    expect(byV6.text).toStartWith("HTTP/1.1 403 ")
    expect(byName.text).toContain("hello /n") // upper case and a trailing dot are the listed name
    expect(log.map((c) => [c.host, c.allowed])).toEqual([["127.0.0.1", false], ["0000:0000:0000:0000:0000:0000:0000:0001", false], ["localhost", true]])
  })

  test("an IPv6 literal that is listed is reached in any spelling; the listed address only", async () => {
    const v6 = Bun.serve({ hostname: "::1", port: 0, fetch: () => new Response("v6 hi") })
    try {
      const socket = start([`[::1]:${v6.port}`])
      const short = await talk(socket, `GET http://[::1]:${v6.port}/ HTTP/1.1\r\nHost: [::1]:${v6.port}\r\n\r\n`)
      const long = await talk(socket, `CONNECT [0:0:0:0:0:0:0:1]:${v6.port} HTTP/1.1\r\n\r\n`)
      const v4 = await talk(socket, `CONNECT 127.0.0.1:${v6.port} HTTP/1.1\r\n\r\n`)
      expect(short.text).toContain("v6 hi")
      expect(long.text).toStartWith("HTTP/1.1 200 Connection Established")
      expect(v4.text).toStartWith("HTTP/1.1 403 ")
    } finally {
      v6.stop(true)
    }
  })

  test("DNS rebinding: a listed name that resolves to loopback, metadata or a mix is refused; the proxy connects to what it checked", async () => {
    const answers: Record<string, string[]> = {
      "a.example.test": ["127.0.0.1"], "b.example.test": ["169.254.169.254"], "c.example.test": ["93.184.216.34", "127.0.0.1"], "d.example.test": ["::ffff:127.0.0.1"],
    }
    const socket = start([`*.example.test:${http.port}`], { resolve: async (h) => answers[h] ?? [] })
    for (const host of Object.keys(answers)) {
      const { text } = await talk(socket, `CONNECT ${host}:${http.port} HTTP/1.1\r\n\r\n`)
      expect(text).toStartWith("HTTP/1.1 403 ")
    }
    expect(log.map((c) => c.reason)).toEqual(Object.keys(answers).map((h) => expect.stringContaining(`${h} resolves to`)))
    expect(seen).toEqual([])
  })

  test("a listed internal address makes a listed name that resolves to it reachable", async () => {
    const socket = start([`*.example.test:${http.port}`, `127.0.0.1:${http.port}`], { resolve: async () => ["127.0.0.1"] })
    const { text } = await talk(socket, `GET http://svc.example.test:${http.port}/r HTTP/1.1\r\nHost: svc.example.test:${http.port}\r\n\r\n`)
    expect(text).toContain("hello /r")
  })

  test("*.example.test does not match example.test.evil.net, evilexample.test or example.test itself", async () => {
    const socket = start([`*.example.test:${http.port}`], { resolve: async () => ["93.184.216.34"] })
    for (const host of ["example.test.evil.net", "evilexample.test", "example.test"]) {
      const { text } = await talk(socket, `CONNECT ${host}:${http.port} HTTP/1.1\r\n\r\n`)
      expect(text).toStartWith("HTTP/1.1 403 ")
    }
    expect(log.map((c) => c.reason)).toEqual(["example.test.evil.net", "evilexample.test", "example.test"].map((h) => `${h}:${http.port} is not in sandbox.network`))
  })

  test("a huge header is refused (431) without being read to its end", async () => {
    const socket = start([`127.0.0.1:${http.port}`])
    const { text } = await talk(socket, `GET http://127.0.0.1:${http.port}/ HTTP/1.1\r\nX-Big: ${"a".repeat(64 * 1024)}\r\n\r\n`)
    expect(text).toStartWith("HTTP/1.1 431 ")
    expect(seen).toEqual([])
  })

  test("a slowloris client that never finishes its head is cut off (408)", async () => {
    const socket = start([`127.0.0.1:${http.port}`], { headTimeoutMs: 300 })
    const drip = ["GET http://127.0.0.1", `:${http.port}/ HTTP/1.1\r\n`, ...Array.from({ length: 30 }, (_, i) => `X-${i}: y\r\n`)]
    const started = Date.now()
    const { text, closed } = await talk(socket, drip, { gapMs: 100, waitMs: 5000 })
    expect(text).toStartWith("HTTP/1.1 408 ")
    expect(closed).toBe(true)
    expect(Date.now() - started).toBeLessThan(4500)
    expect(seen).toEqual([])
  })

  test("requests that are not proxy requests, https:// URIs and URIs with credentials are refused (400)", async () => {
    const socket = start([`127.0.0.1:${http.port}`])
    const requests = [
      `GET / HTTP/1.1\r\nHost: 127.0.0.1:${http.port}\r\n\r\n`,
      `GET https://127.0.0.1:${http.port}/ HTTP/1.1\r\n\r\n`,
      `GET http://user:pw@127.0.0.1:${http.port}/ HTTP/1.1\r\n\r\n`,
      `GET http://127.0.0.1:${http.port}/ HTTP/1.1\r\nX: a\r\n folded: b\r\n\r\n`,
      `CONNECT 127.0.0.1 HTTP/1.1\r\n\r\n`,
      `HELLO\r\n\r\n`,
    ]
    for (const request of requests) expect((await talk(socket, request)).text).toStartWith("HTTP/1.1 400 ")
    expect(seen).toEqual([])
    expect(JSON.stringify(log)).not.toContain("pw")
  })

  test("a listed server that is down is a 502, recorded as allowed but failed (not as the list refusing it)", async () => {
    const probe = Bun.listen<undefined>({ hostname: "127.0.0.1", port: 0, socket: { data() {} } })
    const down = probe.port
    probe.stop(true)
    const socket = start([`127.0.0.1:${down}`])
    const { text } = await talk(socket, `CONNECT 127.0.0.1:${down} HTTP/1.1\r\n\r\n`)
    expect(text).toStartWith("HTTP/1.1 502 ")
    expect(log).toEqual([{ method: "CONNECT", host: "127.0.0.1", port: down, allowed: true, reason: "failed: ECONNREFUSED" }])
  })

  test("connections beyond the cap are closed at once (a flood cannot exhaust ccode's descriptors)", async () => {
    const socket = start([`127.0.0.1:${http.port}`], { maxConnections: 2 })
    const held = [createConnection(socket), createConnection(socket)]
    await Promise.all(held.map((c) => new Promise<void>((resolve) => c.once("connect", () => resolve()))))
    await Bun.sleep(50)
    const third = await talk(socket, `GET http://127.0.0.1:${http.port}/ HTTP/1.1\r\n\r\n`)
    expect(third).toEqual({ text: "", closed: true })
    for (const c of held) c.destroy()
    expect(seen).toEqual([])
  })

  test("a call that ends while a name is being resolved opens no connection afterwards", async () => {
    const socket = start([`slow.example.test:${http.port}`, `127.0.0.1:${http.port}`], { resolve: async () => (await Bun.sleep(300), ["127.0.0.1"]) })
    const pending = talk(socket, `GET http://slow.example.test:${http.port}/late HTTP/1.1\r\nHost: slow.example.test:${http.port}\r\n\r\n`, { waitMs: 1500 })
    await Bun.sleep(100)
    proxy!.close()
    proxy = undefined
    expect((await pending).closed).toBe(true)
    await Bun.sleep(400)
    expect(seen).toEqual([])
    expect(log).toEqual([])
  })

  test("closing the proxy ends open tunnels and removes its socket", async () => {
    const socket = start([`127.0.0.1:${echo.port}`])
    const conn = createConnection(socket)
    const closed = new Promise<void>((resolve) => conn.on("close", () => resolve()))
    conn.write(`CONNECT 127.0.0.1:${echo.port} HTTP/1.1\r\n\r\n`)
    await new Promise<void>((resolve) => conn.once("data", () => resolve()))
    proxy!.close()
    proxy = undefined
    await closed
    expect(await Bun.file(socket).exists()).toBe(false)
  })
})

describe("independent review: smuggling a second host through one allowed connection", () => {
  test("a pipelined absolute-URI request to an unlisted port after an allowed one never reaches it", async () => {
    const socket = start([`127.0.0.1:${http.port}`])
    const before = otherHits
    const first = `GET http://127.0.0.1:${http.port}/one HTTP/1.1\r\nHost: 127.0.0.1:${http.port}\r\n\r\n`
    const second = `GET http://127.0.0.1:${other.port}/two HTTP/1.1\r\nHost: 127.0.0.1:${other.port}\r\n\r\n`
    const { text } = await talk(socket, first + second, { waitMs: 2000 })
    expect(text).toContain("hello /one")
    expect(text).not.toContain("other")
    expect(otherHits).toBe(before)
    expect(log.every((c) => !JSON.stringify(c).includes(String(other.port)))).toBe(true)
  })

  test("a Transfer-Encoding body hiding a second request to an unlisted port never reaches it", async () => {
    const socket = start([`127.0.0.1:${http.port}`])
    const before = otherHits
    const hidden = `GET http://127.0.0.1:${other.port}/x HTTP/1.1\r\nHost: 127.0.0.1:${other.port}\r\n\r\n`
    const req = `POST http://127.0.0.1:${http.port}/p HTTP/1.1\r\nHost: 127.0.0.1:${http.port}\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${hidden}`
    await talk(socket, req, { waitMs: 2000 })
    expect(otherHits).toBe(before)
  })
})
