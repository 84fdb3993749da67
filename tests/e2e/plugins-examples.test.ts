// The example plugins in plugins/ and the `ccode init` scaffold, through the compiled binary: risk
// computed from the arguments, rules on them, the plugins doing their job; a scaffolded plugin
// folder type-checks with nothing installed.
import { Database } from "bun:sqlite"
import { afterAll, describe, expect, test } from "bun:test"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { stringify } from "yaml"
import { ccode, events, sandbox } from "./harness.ts"

const ROOT = join(import.meta.dir, "..", "..")
type Ev = Record<string, any>

function callsOf(evs: Ev[]) {
  const decisions = new Map(evs.filter((e) => e.type === "decision").map((e) => [e.call, e]))
  const done = new Map(evs.filter((e) => e.type === "step.finished").map((e) => [e.call, e]))
  return evs.filter((e) => e.type === "step.started").map((e) => ({
    step: e.step, decision: decisions.get(e.call)?.decision, risk: decisions.get(e.call)?.risk, status: done.get(e.call)?.status, code: done.get(e.call)?.error?.code,
  }))
}

const requests: string[] = []
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(req) {
    const url = new URL(req.url)
    requests.push(`${req.method} ${url.pathname}`)
    if (url.pathname === "/ok") return new Response("hi from the test server", { headers: { "content-type": "text/plain" } })
    if (url.pathname === "/moved") return new Response(null, { status: 302, headers: { location: "http://10.0.0.1/elsewhere" } })
    return new Response("nothing here", { status: 404 })
  },
})
afterAll(() => server.stop(true))

describe("example plugins (compiled binary)", () => {
  test("http_request: risk from URL and method, allowed by an args rule, redirects returned not followed, 404 an error", async () => {
    const sb = sandbox()
    const base = `http://127.0.0.1:${server.port}`
    sb.file("policy.yaml", stringify({
      approval: { mode: "manual", on_ask: "deny" },
      rules: [
        { id: "local-reads", tool: "http_request", args: { url: `^http://127\\.0\\.0\\.1:${server.port}/`, method: "^GET$" }, decision: "allow" },
        { id: "no-deletes", tool: "http_request", args: { method: "^DELETE$" }, decision: "deny", reason: "nothing is deleted over HTTP here" },
      ],
    }))
    const step = (id: string, args: Record<string, unknown>) => ({ id, tool: "http_request", with: args, retries: 0, continue_on_error: true })
    sb.file("task.yaml", stringify({
      version: 1,
      plugins: [join(ROOT, "plugins", "http_request.ts")],
      steps: [
        // rules see the arguments as given (GET is the plugin's default, but the rule wants it said)
        step("get", { url: `${base}/ok`, method: "GET" }),
        step("moved", { url: `${base}/moved`, method: "GET" }),
        step("missing", { url: `${base}/missing`, method: "GET" }),
        step("delete", { url: `${base}/ok`, method: "DELETE" }),
        step("post", { url: `${base}/ok`, method: "POST", body: "x" }),
      ],
    }))
    requests.length = 0
    const result = await ccode(sb, ["run", "task.yaml", "--json", "--trust", "--policy", "policy.yaml"])
    expect(result.code).toBe(0)
    const evs = events(result.stdout)
    expect(callsOf(evs)).toEqual([
      { step: "get", decision: "allow", risk: "low", status: "ok", code: undefined },
      { step: "moved", decision: "allow", risk: "low", status: "ok", code: undefined },
      { step: "missing", decision: "allow", risk: "low", status: "error", code: "HTTP_404" },
      { step: "delete", decision: "deny", risk: "high", status: "error", code: "DENIED" },
      { step: "post", decision: "ask", risk: "medium", status: "error", code: "DENIED" },
    ])
    // the server saw the reads only, and the redirect was not followed
    expect(requests).toEqual(["GET /ok", "GET /moved", "GET /missing"])
    const db = new Database(sb.db, { readonly: true })
    const outputs = db.query("SELECT item_id, output FROM calls WHERE tool = 'http_request' AND status = 'ok' ORDER BY seq").all() as { item_id: string; output: string }[]
    db.close()
    expect(outputs[0]!.output).toBe("HTTP 200 OK\ncontent-type: text/plain\n\nhi from the test server")
    expect(outputs[1]!.output).toContain("location: http://10.0.0.1/elsewhere (not followed)")
  }, 60_000)

  test("sqlite_query: reads are low and read-only, writes medium, schema changes high", async () => {
    const sb = sandbox()
    const dbFile = join(sb.work, "app.db")
    const app = new Database(dbFile)
    app.run("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)")
    app.run("INSERT INTO items (name) VALUES ('apple'), ('pear')")
    app.close()
    const step = (id: string, sql: string, params?: unknown[]) => ({ id, tool: "sqlite_query", with: { database: "app.db", sql, ...(params ? { params } : {}) }, retries: 0, continue_on_error: true })
    sb.file("task.yaml", stringify({
      version: 1,
      plugins: [join(ROOT, "plugins", "sqlite_query.ts")],
      policy: { approval: { on_ask: "deny" }, workspace: { detect_external_changes: false } },
      steps: [
        step("read", "SELECT name FROM items WHERE name LIKE ? ORDER BY id", ["%p%"]),
        step("write", "INSERT INTO items (name) VALUES (?)", ["plum"]),
        step("sneaky", "SELECT 1; DROP TABLE items"),
        step("wipe", "DELETE FROM items -- WHERE 1"),
      ],
    }))
    const result = await ccode(sb, ["run", "task.yaml", "--json", "--trust", "--auto-approve", "medium"])
    expect(result.code).toBe(0)
    expect(callsOf(events(result.stdout))).toEqual([
      { step: "read", decision: "allow", risk: "low", status: "ok", code: undefined },
      { step: "write", decision: "allow", risk: "medium", status: "ok", code: undefined },
      { step: "sneaky", decision: "ask", risk: "high", status: "error", code: "DENIED" },
      { step: "wipe", decision: "ask", risk: "high", status: "error", code: "DENIED" },
    ])
    const check = new Database(dbFile, { readonly: true })
    expect(check.query("SELECT name FROM items ORDER BY id").all()).toEqual([{ name: "apple" }, { name: "pear" }, { name: "plum" }])
    check.close()
    const db = new Database(sb.db, { readonly: true })
    const read = db.query("SELECT output FROM calls WHERE item_id = 'read'").get() as { output: string }
    db.close()
    expect(read.output).toBe("name\napple\npear\n(2 rows)")
  }, 60_000)
})

describe("ccode init (compiled binary)", () => {
  test("scaffolds .ccode/ whose plugin loads, whose policy and sample task run, and which an editor type-checks with nothing installed", async () => {
    const sb = sandbox()
    const init = await ccode(sb, ["init", "--json"])
    expect(init.code).toBe(0)
    const written = (JSON.parse(init.stdout) as Ev).files.map((f: Ev) => [f.path.slice(sb.work.length + 1), f.status, f.trusted])
    expect(written).toEqual([
      [".ccode/policy.yaml", "written", true],
      [".ccode/plugins/example.ts", "written", true],
      [".ccode/plugins/ccode-plugin.d.ts", "written", false],
      [".ccode/plugins/tsconfig.json", "written", false],
      [".ccode/tasks/example.yaml", "written", false],
    ])
    expect(readFileSync(join(sb.work, ".ccode/plugins/ccode-plugin.d.ts"), "utf8")).toBe(readFileSync(join(ROOT, "plugins/ccode-plugin.d.ts"), "utf8"))

    // ccode wrote and trusted them: the example plugin loads and the sample task runs
    const ls = await ccode(sb, ["plugins", "ls", "--json"])
    expect((JSON.parse(ls.stdout) as Ev[]).find((t) => t.name === "wait_for_url")?.origin).toBe("workspace")
    const run = await ccode(sb, ["run", ".ccode/tasks/example.yaml", "--json"])
    expect(run.code).toBe(0)

    // a second init keeps what is there
    const again = await ccode(sb, ["init", "--json"])
    expect((JSON.parse(again.stdout) as Ev).files.every((f: Ev) => f.status === "kept")).toBe(true)

    // an editor's view: the plugin folder type-checks with the written types, and a type error is caught
    const tsc = join(ROOT, "node_modules", ".bin", "tsc")
    const project = join(sb.work, ".ccode", "plugins", "tsconfig.json")
    const ok = Bun.spawnSync([tsc, "-p", project], { cwd: sb.work })
    expect(ok.stdout.toString() + ok.stderr.toString()).toBe("")
    expect(ok.exitCode).toBe(0)
    sb.file(".ccode/plugins/typo.ts", [
      'import { defineTool, z } from "ccode/plugin"',
      'export default defineTool({ name: "typo", description: "x", args: z.object({ n: z.number() }),',
      "  async run({ n }) { return { text: n.toUpperCase() } } })",
      "",
    ].join("\n"))
    const bad = Bun.spawnSync([tsc, "-p", project], { cwd: sb.work })
    expect(bad.exitCode).not.toBe(0)
    expect(bad.stdout.toString()).toContain("typo.ts")
    expect(existsSync(join(sb.work, "node_modules"))).toBe(false)
  }, 60_000)
})
