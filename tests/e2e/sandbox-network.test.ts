// sandbox.network: [host, ...] through the compiled binary: a sandboxed command reaches the listed
// 127.0.0.1 services through ccode's proxy (plain HTTP and CONNECT), nothing else; every connection
// is an event and an audit row with its call; exit codes and timeouts are the command's own.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:net"
import { join } from "node:path"
import { ccode, events, sandbox, type Sandbox } from "./harness.ts"

const READY = Bun.which("bwrap") !== null && Bun.which("curl") !== null
const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

let listed: ReturnType<typeof Bun.serve>
let unlisted: ReturnType<typeof Bun.serve>
let unlistedHits = 0
const headers: Record<string, string>[] = []
beforeAll(() => {
  listed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (r) => (headers.push(Object.fromEntries(r.headers)), new Response(`listed says hi ${new URL(r.url).pathname}\n`)) })
  unlisted = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => (unlistedHits++, new Response("unlisted\n")) })
})
afterAll(() => {
  listed.stop(true)
  unlisted.stop(true)
})

function box(hosts: string[]): { sb: Sandbox; policy: string } {
  const sb = sandbox()
  made.push(sb.root)
  const policy = sb.file("net.yaml", `sandbox:\n  mode: required\n  network: [${hosts.map((h) => JSON.stringify(h)).join(", ")}]\n`)
  return { sb, policy }
}

function task(steps: Record<string, string>, extra = ""): string {
  const body = Object.entries(steps).flatMap(([id, run]) => [`  - id: ${id}`, `    run: ${JSON.stringify(run)}`, "    continue_on_error: true", "    retries: 0", extra].filter(Boolean))
  return ["version: 1", "steps:", ...body].join("\n")
}

type Finished = { step: string; status: string; exit_code: number | null; output: string; error: { code: string; message: string } | null }

describe.skipIf(!READY)("sandbox.network host allowlist (compiled binary)", () => {
  test("listed 127.0.0.1 port: plain HTTP and a CONNECT tunnel work; another port, and a program ignoring the proxy, are blocked; all recorded", async () => {
    const { sb, policy } = box([`127.0.0.1:${listed.port}`])
    sb.file("task.yaml", task({
      http: `curl -sS -f http://127.0.0.1:${listed.port}/plain`,
      tunnel: `curl -sS -f -p http://127.0.0.1:${listed.port}/tunnel`,
      other: `curl -sS -f -p http://127.0.0.1:${unlisted.port}/`,
      direct: `curl -sS -f --noproxy '*' http://127.0.0.1:${listed.port}/direct`,
      env: "echo $HTTPS_PROXY $http_proxy $ALL_PROXY",
    }))
    const result = await ccode(sb, ["run", "task.yaml", "--yes", "--json", "--policy", policy])
    expect(result.code).toBe(0)
    const all = events(result.stdout)
    const finished = Object.fromEntries(all.filter((e) => e.type === "step.finished").map((e) => [e.step, e as unknown as Finished]))
    expect(finished.http!.output).toContain("listed says hi /plain")
    expect(finished.tunnel!.output).toContain("listed says hi /tunnel")
    expect(finished.other!.error!.code).toBe("SANDBOX_BLOCKED")
    expect(finished.other!.error!.message).toStartWith(`blocked by the sandbox: network access to 127.0.0.1:${unlisted.port}`)
    expect(finished.direct!.error!.code).toBe("SANDBOX_BLOCKED")
    expect(finished.direct!.error!.message).toContain("network access outside the proxy")
    expect(finished.env!.output.trim()).toBe(Array(3).fill("http://127.0.0.1:3128").join(" "))
    expect(unlistedHits).toBe(0)
    const calls = Object.fromEntries(all.filter((e) => e.type === "step.started").map((e) => [e.step, e.call]))
    const net = all.filter((e) => e.type === "sandbox.network")
    expect(net.map((e) => [e.call, e.method, e.host, e.port, e.allowed])).toEqual([
      [calls.http, "GET", "127.0.0.1", listed.port, true],
      [calls.tunnel, "CONNECT", "127.0.0.1", listed.port, true],
      [calls.other, "CONNECT", "127.0.0.1", unlisted.port, false],
    ])
    const audit = await ccode(sb, ["audit", "--type", "policy", "--format", "json"])
    const rows = (JSON.parse(audit.stdout) as { action: string; result: string; call: string; reason: string }[]).filter((r) => r.action === "network")
    expect(rows.map((r) => [r.call, r.result])).toEqual([[calls.http, "approved"], [calls.tunnel, "approved"], [calls.other, "denied"]])
    expect(rows[2]!.reason).toContain(`127.0.0.1:${unlisted.port} is not in sandbox.network`)
  }, 90_000)

  test("localhost listed by name reaches the host's 127.0.0.1; credentials and paths are never recorded", async () => {
    const { sb, policy } = box([`localhost:${listed.port}`])
    sb.file("task.yaml", task({
      auth: `curl -sS -f -H 'Authorization: Bearer TOPSECRET42' -U user:PROXYPW http://localhost:${listed.port}/private-path?key=QUERYSECRET`,
      // the name is listed, not the address: the IP literal is another host
      literal: `curl -sS -f -p http://127.0.0.1:${listed.port}/literal`,
    }))
    const result = await ccode(sb, ["run", "task.yaml", "--yes", "--json", "--policy", policy])
    const all = events(result.stdout)
    const finished = all.filter((e) => e.type === "step.finished") as unknown as Finished[]
    expect(finished[0]!.output).toContain("listed says hi /private-path")
    expect(headers.at(-1)!["proxy-authorization"]).toBeUndefined() // the proxy's credentials stop at the proxy
    expect(finished[1]!.error!.message).toStartWith(`blocked by the sandbox: network access to 127.0.0.1:${listed.port}`)
    const net = all.filter((e) => e.type === "sandbox.network")
    expect(net.map((e) => [e.host, e.allowed])).toEqual([["localhost", true], ["127.0.0.1", false]])
    const audit = await ccode(sb, ["audit", "--type", "policy", "--format", "json"])
    const recorded = JSON.stringify([net, JSON.parse(audit.stdout)])
    for (const secret of ["TOPSECRET42", "PROXYPW", "private-path", "QUERYSECRET"]) expect(recorded).not.toContain(secret)
  }, 60_000)

  test("the command sees only its own proxy socket: another run's socket is hidden, and the bridge carries to the proxy alone", async () => {
    const { sb, policy } = box([`127.0.0.1:${listed.port}`])
    // another run's proxy, listening in the shared socket folder
    const netDir = join(sb.env.CCODE_HOME!, "net")
    mkdirSync(netDir, { recursive: true, mode: 0o700 })
    const decoy = join(netDir, "other-run.sock")
    let decoyHits = 0
    const server: Server = createServer((c) => (decoyHits++, c.end("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\ndecoy")))
    await new Promise<void>((resolve) => server.listen(decoy, () => resolve()))
    try {
      sb.file("task.yaml", task({
        look: `ls -A ${netDir} | grep -c '\\.sock$'; test ! -e ${decoy} && echo hidden`,
        decoy: `curl -sS -f --unix-socket ${decoy} http://x/`,
        // raw bytes to the bridge asking for an unlisted port: the proxy answers, not the target
        raw: "bash raw.sh",
      }))
      sb.file("raw.sh", `exec 3<>/dev/tcp/127.0.0.1/3128\nprintf 'CONNECT 127.0.0.1:${unlisted.port} HTTP/1.1\\r\\n\\r\\n' >&3\nhead -c 12 <&3\n`)
      const result = await ccode(sb, ["run", "task.yaml", "--yes", "--json", "--policy", policy])
      const finished = Object.fromEntries(events(result.stdout).filter((e) => e.type === "step.finished").map((e) => [e.step, e as unknown as Finished]))
      expect(finished.look!.output.trim().split("\n")).toEqual(["1", "hidden"])
      expect(finished.decoy!.status).toBe("error")
      expect(finished.raw!.output).toBe("HTTP/1.1 403")
      expect(decoyHits).toBe(0)
      expect(unlistedHits).toBe(0)
    } finally {
      server.close()
    }
  }, 60_000)

  test("through the bridge the command keeps its exit code, and a timeout still kills it", async () => {
    const { sb, policy } = box([`127.0.0.1:${listed.port}`])
    sb.file("task.yaml", task({ code: "exit 7", slow: "sleep 30" }, "    timeout: 2s"))
    const started = Date.now()
    const result = await ccode(sb, ["run", "task.yaml", "--yes", "--json", "--policy", policy])
    const finished = Object.fromEntries(events(result.stdout).filter((e) => e.type === "step.finished").map((e) => [e.step, e as unknown as Finished]))
    expect(finished.code!.exit_code).toBe(7)
    expect(finished.slow!.error!.code).toBe("TIMEOUT")
    expect(Date.now() - started).toBeLessThan(25_000)
  }, 60_000)

  test("a bad entry in the list is exit 2 naming the file, line and entry; nothing runs", async () => {
    const { sb } = box(["127.0.0.1"])
    const policy = sb.file("bad.yaml", "sandbox:\n  network:\n    - example.com\n    - \"*.com\"\n")
    sb.file("task.yaml", task({ touch: "touch ran" }))
    const result = await ccode(sb, ["run", "task.yaml", "--yes", "--policy", policy])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`${policy}:4:`)
    expect(result.stderr).toContain("*.com")
    expect(await Bun.file(join(sb.work, "ran")).exists()).toBe(false)
  }, 30_000)
})
