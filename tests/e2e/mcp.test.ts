// MCP through the compiled binary: a real stdio server (written with the SDK) whose tools a scripted
// task and a replay agent call under the policy, crashing/slow/broken servers classified and reported;
// and `ccode mcp` driven by the SDK's own client: list, allowed, denied, approval, audit.
import { Database } from "bun:sqlite"
import { describe, expect, test } from "bun:test"
import { copyFileSync, mkdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { stringify } from "yaml"
import { binary, ccode, events, sandbox, waitFor, type Sandbox } from "./harness.ts"

const ROOT = join(import.meta.dir, "..", "..")
const SERVER = join(ROOT, "tests", "fixtures", "mcp", "server.ts")
const FX = { command: "bun", args: [SERVER] }
type Ev = Record<string, any>

function calls(evs: Ev[]) {
  const tools = new Map(evs.filter((e) => e.type === "step.started").map((e) => [e.call, e.tool]))
  const decisions = new Map(evs.filter((e) => e.type === "decision").map((e) => [e.call, e]))
  return evs.filter((e) => e.type === "step.finished").map((e) => ({
    tool: tools.get(e.call), decision: decisions.get(e.call)?.decision, risk: decisions.get(e.call)?.risk, status: e.status, code: e.error?.code,
  }))
}

function outputs(sb: Sandbox, runId: string): (string | null)[] {
  const db = new Database(sb.db, { readonly: true })
  const rows = db.query("SELECT output FROM calls WHERE run_id = ? ORDER BY seq").all(runId) as { output: string | null }[]
  db.close()
  return rows.map((r) => r.output)
}

describe("MCP servers in runs (compiled binary)", () => {
  test("a scripted task calls a server's tools under rules on mcp:fx/*; crash, slow and broken servers are classified and reported", async () => {
    const sb = sandbox()
    sb.file("policy.yaml", stringify({
      approval: { mode: "manual", on_ask: "deny" },
      rules: [
        { id: "fixture-tools", tool: "mcp:fx/*", decision: "allow" },
        { id: "no-notes", tool: "mcp:fx/note", decision: "deny", reason: "notes are off limits" },
      ],
      mcp: { servers: { broken: { command: "bun", args: [SERVER, "--crash-on-start"] } } },
    }))
    const step = (id: string, tool: string, args: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
      ({ id, tool, with: args, retries: 0, continue_on_error: true, ...extra })
    sb.file("task.yaml", stringify({
      version: 1,
      mcp: { servers: { fx: FX } },
      policy: { workspace: { detect_external_changes: false } },
      steps: [
        step("echo", "mcp:fx/echo", { message: "hi" }),
        step("add", "mcp:fx/add", { a: 2, b: 3 }, { needs: ["echo"] }),
        step("note", "mcp:fx/note", { line: "secret" }, { needs: ["add"] }),
        step("crash", "mcp:fx/crash", {}, { needs: ["note"] }),
        step("slow", "mcp:fx/slow", { ms: 10_000 }, { needs: ["crash"], timeout: "700ms" }),
        step("again", "mcp:fx/echo", { message: "back" }, { needs: ["slow"] }),
      ],
    }))
    const result = await ccode(sb, ["run", "task.yaml", "--json", "--trust", "--policy", "policy.yaml"])
    expect(result.stderr).not.toContain("internal error")
    expect(result.code).toBe(0)
    const evs = events(result.stdout)
    const warnings = evs.filter((e) => e.type === "tool.warning").map((e) => e.message as string)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toStartWith("MCP server broken left out: the server closed the connection")
    expect(calls(evs)).toEqual([
      { tool: "mcp:fx/echo", decision: "allow", risk: "low", status: "ok", code: undefined },
      { tool: "mcp:fx/add", decision: "allow", risk: "low", status: "ok", code: undefined },
      { tool: "mcp:fx/note", decision: "deny", risk: "medium", status: "error", code: "DENIED" },
      { tool: "mcp:fx/crash", decision: "allow", risk: "medium", status: "error", code: "MCP_NETWORK_ERROR" },
      { tool: "mcp:fx/slow", decision: "allow", risk: "medium", status: "error", code: "MCP_TIMEOUT" },
      { tool: "mcp:fx/echo", decision: "allow", risk: "low", status: "ok", code: undefined },
    ])
    const runId = evs[0]!.run as string
    expect(outputs(sb, runId)).toEqual(["echo: hi", "5", null, expect.stringContaining("closed the connection"), expect.stringContaining("did not answer within 700ms"), "echo: back"])
  }, 120_000)

  test("a task's servers are not started while the task file is untrusted", async () => {
    const sb = sandbox()
    sb.file("task.yaml", stringify({ version: 1, mcp: { servers: { fx: FX } }, steps: [{ id: "echo", tool: "mcp:fx/echo", with: { message: "hi" } }] }))
    const result = await ccode(sb, ["run", "task.yaml"])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('uses unknown tool "mcp:fx/echo"')
    expect(result.stderr).toContain("MCP servers of")
    expect(result.stderr).toContain("not started: the task file is not trusted")
  }, 60_000)

  test("a replay agent calls a server's tools, each decided by the policy and run, failures classified", async () => {
    const sb = sandbox()
    sb.file("turns.yaml", stringify([
      { text: "using the fixture server", calls: [{ tool: "mcp:fx/echo", args: { message: "from the agent" } }, { tool: "mcp:fx/add", args: { a: 20, b: 22 } }] },
      { text: "one more", calls: [{ tool: "mcp:fx/fail", args: { why: "on purpose" } }] },
      { calls: [{ tool: "finish", args: { success: true, summary: "used MCP tools" } }] },
    ]))
    sb.file("task.yaml", stringify({
      version: 1,
      mcp: { servers: { fx: FX } },
      policy: { workspace: { detect_external_changes: false } },
      agent: { provider: "replay", script: "turns.yaml" },
    }))
    const result = await ccode(sb, ["run", "task.yaml", "--json", "--trust", "--yes"])
    expect(result.stderr).not.toContain("internal error")
    expect(result.code).toBe(0)
    const evs = events(result.stdout)
    expect(calls(evs).filter((c) => c.tool !== "finish")).toEqual([
      { tool: "mcp:fx/echo", decision: "allow", risk: "low", status: "ok", code: undefined },
      { tool: "mcp:fx/add", decision: "allow", risk: "low", status: "ok", code: undefined },
      { tool: "mcp:fx/fail", decision: "allow", risk: "medium", status: "error", code: "MCP_EXECUTION_ERROR" },
    ])
    expect(outputs(sb, evs[0]!.run as string).slice(0, 3)).toEqual(["echo: from the agent", "42", "mcp:fx/fail: it failed: on purpose"])
  }, 120_000)
})

describe("ccode mcp (compiled binary, driven by the SDK's client)", () => {
  test("lists built-in and plugin tools, runs an allowed call, refuses a denied one, and waits for approval of an ask", async () => {
    const sb = sandbox()
    const plugins = join(sb.env.XDG_CONFIG_HOME!, "ccode", "plugins")
    mkdirSync(plugins, { recursive: true })
    copyFileSync(join(ROOT, "tests", "fixtures", "plugins", "greet.ts"), join(plugins, "greet.ts"))
    sb.file("notes.txt", "line one\nline two\n")
    sb.file("policy.yaml", stringify({
      approval: { mode: "auto", threshold: "low", on_ask: "pause" },
      rules: [{ id: "no-root", tool: "greet", args: { name: "^root$" }, decision: "deny", reason: "root is never greeted" }],
    }))
    const client = new Client({ name: "e2e", version: "1" })
    await client.connect(new StdioClientTransport({ command: await binary(), args: ["mcp", "--policy", "policy.yaml"], cwd: sb.work, env: sb.env, stderr: "pipe" }))
    const text = (r: Ev) => (r.content as { text: string }[]).map((c) => c.text).join("")
    try {
      const { tools } = await client.listTools()
      expect(tools.map((t) => t.name)).toEqual(["shell", "read_file", "write_file", "edit_file", "list_dir", "glob", "grep", "greet"])
      expect(tools.find((t) => t.name === "greet")?.inputSchema).toMatchObject({ type: "object", properties: { name: { type: "string" } }, required: ["name"] })

      const read = await client.callTool({ name: "read_file", arguments: { path: "notes.txt" } })
      expect(read.isError).toBe(false)
      expect(text(read)).toContain("line two")
      const hello = await client.callTool({ name: "greet", arguments: { name: "alice", times: 2 } })
      expect([hello.isError, text(hello)]).toEqual([false, "hello alice\nhello alice"])

      const denied = await client.callTool({ name: "greet", arguments: { name: "root" } })
      expect(denied.isError).toBe(true)
      expect(text(denied)).toMatch(/^\[DENIED\] denied: denied by rule no-root \(.*policy\.yaml:\d+\): root is never greeted$/)

      const bad = await client.callTool({ name: "greet", arguments: { name: 7 } })
      expect(text(bad)).toStartWith("[INVALID_PARAM] invalid arguments for greet: name:")

      // medium risk is above the threshold: a person must approve, then the same call runs
      const write = { name: "write_file", arguments: { path: "out.txt", content: "approved\n" } }
      const asked = await client.callTool(write)
      expect(asked.isError).toBe(true)
      const hint = /`ccode approve (\S+) (\S+)`/.exec(text(asked))
      expect(text(asked)).toStartWith("[APPROVAL_REQUIRED] needs a person's approval (risk medium")
      expect(hint).not.toBeNull()
      const again = await client.callTool(write)
      expect(text(again)).toStartWith("[APPROVAL_PENDING]")
      const approved = await ccode(sb, ["approve", hint![1]!, hint![2]!])
      expect(approved.code).toBe(0)
      // nothing to resume: the session is still serving, the client calls again
      expect(approved.stderr).toContain("next: the MCP client makes the same call again")
      expect(approved.stderr).not.toContain("ccode resume")
      const done = await client.callTool(write)
      expect(done.isError).toBe(false)
      expect(await Bun.file(join(sb.work, "out.txt")).text()).toBe("approved\n")
    } finally {
      await client.close()
    }

    // one run for the session, driver "mcp", finished when the client left; every call audited
    const db = new Database(sb.db, { readonly: true })
    const runs = db.query("SELECT id, driver, status FROM runs").all() as { id: string; driver: string; status: string }[]
    expect(runs.map((r) => [r.driver, r.status])).toEqual([["mcp", "completed"]])
    const audit = db.query("SELECT type, tool, result FROM audit WHERE run_id = ? AND type IN ('decision', 'tool_call') ORDER BY id").all(runs[0]!.id)
    const rows = db.query("SELECT tool, status, decision FROM calls WHERE run_id = ? ORDER BY seq").all(runs[0]!.id)
    db.close()
    expect(rows).toEqual([
      { tool: "read_file", status: "ok", decision: "allow" },
      { tool: "greet", status: "ok", decision: "allow" },
      { tool: "greet", status: "denied", decision: "deny" },
      { tool: "greet", status: "error", decision: "allow" },
      { tool: "write_file", status: "ok", decision: "allow" },
    ])
    expect(audit).toContainEqual({ type: "decision", tool: "greet", result: "denied" })
    expect(audit).toContainEqual({ type: "tool_call", tool: "write_file", result: "success" })
  }, 120_000)

  test("a call the client cancels mid-run: its process group is killed, the audit says cancelled, the next call runs", async () => {
    const sb = sandbox()
    sb.file("policy.yaml", stringify({ approval: { mode: "auto", threshold: "low", on_ask: "deny" }, rules: [{ id: "shell-ok", tool: "shell", decision: "allow" }] }))
    const client = new Client({ name: "e2e", version: "1" })
    await client.connect(new StdioClientTransport({ command: await binary(), args: ["mcp", "--policy", "policy.yaml"], cwd: sb.work, env: sb.env, stderr: "pipe" }))
    let pids: number[] = []
    try {
      const abort = new AbortController()
      // the child writes its pid, then sleeps (with a grandchild, so the whole group must die)
      const call = client.callTool({ name: "shell", arguments: { command: "sleep 60 & echo $$ $! > sleeper.pid; wait" } }, undefined, { signal: abort.signal, timeout: 120_000 })
      const pidFile = join(sb.work, "sleeper.pid")
      await waitFor(async () => (await Bun.file(pidFile).exists()) && (await Bun.file(pidFile).text()).trim() !== "")
      pids = (await Bun.file(pidFile).text()).trim().split(" ").map(Number)
      expect(pids.map(alive)).toEqual([true, true])
      abort.abort("the user pressed stop")
      await expect(call).rejects.toThrow()
      await waitFor(() => !pids.some(alive), 20_000)
      // the cancelled call no longer holds the queue
      const started = Date.now()
      const next = await client.callTool({ name: "shell", arguments: { command: "echo after" } })
      expect([next.isError, (next.content as { text: string }[])[0]!.text.trim()]).toEqual([false, "after"])
      expect(Date.now() - started).toBeLessThan(15_000)

      // an unknown tool is a JSON-RPC error (-32602), not a tool result
      const unknown = await client.callTool({ name: "no_such_tool", arguments: {} }).then(() => undefined, (e: { code?: number; message: string }) => e)
      expect(unknown?.code).toBe(-32602)
      expect(unknown?.message).toContain("Unknown tool: no_such_tool")
    } finally {
      await client.close()
      for (const pid of pids) if (alive(pid)) process.kill(pid, "SIGKILL")
    }
    const db = new Database(sb.db, { readonly: true })
    try {
      const calls = db.query("SELECT status, error_code FROM calls ORDER BY seq").all()
      expect(calls).toEqual([{ status: "error", error_code: "CANCELLED" }, { status: "ok", error_code: null }])
      const cancelled = db.query("SELECT actor, tool, reason FROM audit WHERE action = 'cancelled'").all()
      expect(cancelled).toEqual([{ actor: "user", tool: "shell", reason: "cancelled by the MCP client (notifications/cancelled)" }])
      const ran = db.query("SELECT reason, data FROM audit WHERE type = 'tool_call' ORDER BY id LIMIT 1").get() as { reason: string; data: string }
      expect(ran.reason).toContain("cancelled by the MCP client")
      expect(JSON.parse(ran.data).error.code).toBe("CANCELLED")
    } finally {
      db.close()
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 120_000)
})

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
