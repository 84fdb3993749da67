// A fleet on one PostgreSQL database, through the compiled binary: each "machine" is a CCODE_HOME of
// its own (and a HOME), all pointed at the same database by CCODE_DB. Runs from many at once lose no
// event and keep one verifiable audit chain; a run paused on one is approved from another and resumed
// from a third, onto the same workspace only; kill -9 + resume runs every step exactly once.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { binary, ccode, events, sandbox, spawnCcode, waitFor, type Sandbox } from "./harness.ts"
import { machine } from "./fleet.ts"
import { findPgBin, pgMissing, startPg, type PgServer } from "../store/postgres.ts"

const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [])

function appendPlan(n: number, name = "append"): string {
  const steps = Array.from({ length: n }, (_, i) => `  - id: s${i + 1}\n    run: echo line-${i + 1} >> lines.txt${i ? `\n    needs: [s${i}]` : ""}`)
  return `version: 1\nname: ${name}\nsteps:\n${steps.join("\n")}\n`
}

const POLICY = `version: 1
approval: { mode: auto, threshold: high, on_ask: pause }
rules:
  - id: confirm-deploys
    tool: shell
    command: "echo deploy *"
    decision: ask
    reason: deploys need a person
`

if (!findPgBin()) {
  pgMissing("ccode on a shared PostgreSQL database")
} else {
  describe("ccode on a shared PostgreSQL database", () => {
    let pg: PgServer
    beforeAll(async () => {
      pg = await startPg()
    }, 120_000)
    afterAll(() => pg?.stop(), 60_000)

    async function database(sb: Sandbox): Promise<string> {
      const url = await pg.createDatabase()
      expect((await ccode(sb, ["db", "migrate", "--db", url])).code).toBe(0)
      return url
    }

    test("16 runs from 16 CCODE_HOMEs at once: all complete, every printed event is stored, the audit chain verifies", async () => {
      const sb = sandbox()
      const url = await database(sb)
      const n = 16
      // each run in its own workspace: in a shared one, each would rightly see the others' writes as external changes
      for (let i = 1; i <= n; i++) sb.file(`w${i}/task.yaml`, appendPlan(6, `t${i}`))
      const procs = await Promise.all(
        Array.from({ length: n }, (_, i) => ccode(sb, ["run", `w${i + 1}/task.yaml`, "--yes", "--json"], { env: machine(sb, String(i + 1), url), timeoutMs: 240_000 })),
      )
      expect(procs.map((p) => p.code)).toEqual(Array.from({ length: n }, () => 0))
      const viewer = machine(sb, "viewer", url)
      const listed = JSON.parse((await ccode(sb, ["runs", "ls", "--json"], { env: viewer })).stdout) as { id: string; status: string }[]
      expect(listed.length).toBe(n)
      expect(listed.every((r) => r.status === "completed")).toBe(true)
      let auditRows = 0
      for (const [i, p] of procs.entries()) {
        const printed = events(p.stdout)
        const runId = String(printed[0]!.run)
        const stored = events((await ccode(sb, ["runs", "events", runId, "--json"], { env: viewer })).stdout)
        // only committed events reach stdout, and every one of them is in the database, in order
        expect(stored).toEqual(printed)
        expect(lines(join(sb.work, `w${i + 1}`, "lines.txt"))).toEqual(Array.from({ length: 6 }, (_, k) => `line-${k + 1}`))
        auditRows += (JSON.parse((await ccode(sb, ["audit", "--run", runId, "--json"], { env: viewer })).stdout) as unknown[]).length
      }
      const verify = await ccode(sb, ["audit", "verify", "--json"], { env: viewer })
      expect(verify.code).toBe(0)
      expect(JSON.parse(verify.stdout)).toMatchObject({ ok: true, rows: auditRows })
    }, 300_000)

    test("a batch with --jobs in one process (runs and their independent steps at once): every run's printed events are stored, in order", async () => {
      const sb = sandbox()
      const url = await database(sb)
      const env = machine(sb, "a", url)
      const wide = (name: string) => `version: 1\nname: ${name}\nsteps:\n${["x", "y", "z", "w"].map((id) => `  - id: ${id}\n    run: echo ${id} >> ${id}.txt`).join("\n")}\n`
      for (const i of [1, 2, 3]) sb.file(`w${i}/task.yaml`, wide(`b${i}`))
      const batch = await ccode(sb, ["run", "w1/task.yaml", "w2/task.yaml", "w3/task.yaml", "--jobs", "3", "--yes", "--json"], { env, timeoutMs: 120_000 })
      expect(batch.code).toBe(0)
      const printed = events(batch.stdout).filter((e) => typeof e.run === "string" && e.type !== "batch.finished")
      const runIds = [...new Set(printed.map((e) => String(e.run)))]
      expect(runIds.length).toBe(3)
      for (const runId of runIds) {
        const stored = events((await ccode(sb, ["runs", "events", runId, "--json"], { env })).stdout)
        expect(stored).toEqual(printed.filter((e) => e.run === runId))
        expect(stored.filter((e) => e.type === "step.finished").length).toBe(4)
      }
      expect(JSON.parse((await ccode(sb, ["audit", "verify", "--json"], { env })).stdout)).toMatchObject({ ok: true })
    }, 180_000)

    test("paused on one machine, approved from a second, resumed on a third: the call runs exactly once", async () => {
      const sb = sandbox()
      const url = await database(sb)
      const [a, b, c] = ["a", "b", "c"].map((m) => machine(sb, m, url)) as [Record<string, string>, Record<string, string>, Record<string, string>]
      sb.file("policy.yaml", POLICY)
      sb.file("task.yaml", "version: 1\nsteps:\n  - id: build\n    run: echo built >> log.txt\n  - id: deploy\n    needs: [build]\n    run: echo deploy prod >> log.txt\n")
      const first = await ccode(sb, ["run", "task.yaml", "--policy", "policy.yaml", "--json"], { env: a })
      expect(first.code).toBe(3)
      const req = events(first.stdout).find((e) => e.type === "request.created")!
      expect(lines(join(sb.work, "log.txt"))).toEqual(["built"])

      const approved = await ccode(sb, ["approve", String(req.run), String(req.req), "--json"], { env: b })
      expect(approved.code).toBe(0)
      expect(JSON.parse(approved.stdout)).toEqual([expect.objectContaining({ id: req.req, status: "approved" })])
      // settled once: a second approval, from anywhere, changes nothing
      const again = await ccode(sb, ["approve", String(req.run), String(req.req)], { env: c })
      expect(again.code).toBe(2)
      expect(again.stderr).toContain("already approved")

      const resumed = await ccode(sb, ["resume", String(req.run), "--json"], { env: c })
      expect(resumed.code).toBe(0)
      expect(events(resumed.stdout).find((e) => e.type === "decision")).toMatchObject({ decision: "allow", by: "user" })
      expect(lines(join(sb.work, "log.txt"))).toEqual(["built", "deploy prod"])
      // the summary is written where the run finished
      expect(existsSync(join(c.CCODE_HOME!, "runs", String(req.run), "summary.md"))).toBe(true)
      const shown = JSON.parse((await ccode(sb, ["runs", "show", String(req.run), "--json"], { env: a })).stdout)
      expect(shown).toMatchObject({ status: "completed", requests: [expect.objectContaining({ status: "approved" })] })
      const report = await ccode(sb, ["audit", "report", String(req.run), "--format", "json"], { env: b })
      expect(report.code).toBe(0)
      const verify = await ccode(sb, ["audit", "verify", "--json"], { env: b })
      expect(JSON.parse(verify.stdout)).toMatchObject({ ok: true })
    }, 120_000)

    test("a paused run cancelled from another machine: its request closed, resume and approve refused everywhere", async () => {
      const sb = sandbox()
      const url = await database(sb)
      const [a, b] = ["a", "b"].map((m) => machine(sb, m, url)) as [Record<string, string>, Record<string, string>]
      sb.file("policy.yaml", POLICY)
      sb.file("task.yaml", "version: 1\nsteps:\n  - id: deploy\n    run: echo deploy prod >> log.txt\n")
      const first = await ccode(sb, ["run", "task.yaml", "--policy", "policy.yaml", "--json"], { env: a })
      expect(first.code).toBe(3)
      const req = events(first.stdout).find((e) => e.type === "request.created")!
      const cancelled = await ccode(sb, ["cancel", String(req.run), "--json"], { env: b })
      expect(cancelled.code).toBe(0)
      expect(JSON.parse(cancelled.stdout)).toMatchObject({ run: req.run, from: "paused", status: "cancelled", requests: [req.req] })
      const resumed = await ccode(sb, ["resume", String(req.run)], { env: a })
      expect(resumed.code).toBe(2)
      expect(resumed.stderr).toContain("is cancelled")
      const approved = await ccode(sb, ["approve", String(req.run), String(req.req)], { env: a })
      expect(approved.code).toBe(2)
      expect(approved.stderr).toContain("already cancelled")
      expect(lines(join(sb.work, "log.txt"))).toEqual([])
      expect(JSON.parse((await ccode(sb, ["audit", "verify", "--json"], { env: b })).stdout)).toMatchObject({ ok: true })
    }, 120_000)

    test("ccode mcp on one machine: a call waits for approval given from another, then runs; the session is one run in the shared store", async () => {
      const sb = sandbox()
      const url = await database(sb)
      const [a, b] = ["a", "b"].map((m) => machine(sb, m, url)) as [Record<string, string>, Record<string, string>]
      sb.file("policy.yaml", "version: 1\napproval: { mode: auto, threshold: low, on_ask: pause }\n")
      const text = (r: Record<string, unknown>) => (r.content as { text: string }[]).map((c) => c.text).join("")
      const client = new Client({ name: "e2e", version: "1" })
      await client.connect(new StdioClientTransport({ command: await binary(), args: ["mcp", "--policy", "policy.yaml"], cwd: sb.work, env: { ...sb.env, ...a }, stderr: "pipe" }))
      let runId = ""
      try {
        const write = { name: "write_file", arguments: { path: "out.txt", content: "approved\n" } }
        const asked = await client.callTool(write)
        const hint = /`ccode approve (\S+) (\S+)`/.exec(text(asked))
        expect(text(asked)).toStartWith("[APPROVAL_REQUIRED]")
        runId = hint![1]!
        const approved = await ccode(sb, ["approve", runId, hint![2]!], { env: b })
        expect(approved.code).toBe(0)
        expect(approved.stderr).toContain("next: the MCP client makes the same call again")
        const done = await client.callTool(write)
        expect(done.isError).toBe(false)
        expect(readFileSync(join(sb.work, "out.txt"), "utf8")).toBe("approved\n")
      } finally {
        await client.close()
      }
      await waitFor(async () => JSON.parse((await ccode(sb, ["runs", "show", runId, "--json"], { env: b })).stdout).status === "completed", 30_000, 200)
      const shown = JSON.parse((await ccode(sb, ["runs", "show", runId, "--json"], { env: b })).stdout)
      expect(shown).toMatchObject({ driver: "mcp", calls: [expect.objectContaining({ tool: "write_file", status: "ok", decision: "allow" })] })
      expect(JSON.parse((await ccode(sb, ["audit", "verify", "--json"], { env: b })).stdout)).toMatchObject({ ok: true })
    }, 120_000)

    test("a task trusted from one machine is trusted on another (same workspace path and content); revoked, it is refused again", async () => {
      const sb = sandbox()
      const url = await database(sb)
      const [a, b] = ["a", "b"].map((m) => machine(sb, m, url)) as [Record<string, string>, Record<string, string>]
      // a loader variable in env: only a trusted task may set it
      const task = sb.file("task.yaml", "version: 1\nenv:\n  BASH_ENV: /dev/null\nsteps:\n  - id: hello\n    run: echo hello >> log.txt\n")
      const untrusted = await ccode(sb, ["run", task, "--yes"], { env: b })
      expect(untrusted.code).toBe(2)
      expect(untrusted.stderr).toContain("ccode trust")
      const trusted = await ccode(sb, ["trust", task, "--json"], { env: a })
      expect(trusted.code).toBe(0)
      expect(JSON.parse(trusted.stdout)).toEqual([expect.objectContaining({ trusted: true, changed: true })])
      expect((await ccode(sb, ["run", task, "--yes"], { env: b })).code).toBe(0)
      expect(lines(join(sb.work, "log.txt"))).toEqual(["hello"])
      const revoked = await ccode(sb, ["trust", task, "--revoke", "--json"], { env: b })
      expect(JSON.parse(revoked.stdout)).toEqual([expect.objectContaining({ trusted: false, changed: true })])
      expect((await ccode(sb, ["run", task, "--yes"], { env: a })).code).toBe(2)
      const rows = JSON.parse((await ccode(sb, ["audit", "--type", "trust", "--json"], { env: a })).stdout) as { action: string }[]
      expect(rows.map((r) => r.action)).toEqual(["trust", "revoke"])
    }, 120_000)

    test("hooks and policy check on the shared store: the workspace policy trusted from one machine applies on another, and the hook's audit row lands in the fleet's chain", async () => {
      const sb = sandbox()
      const url = await database(sb)
      const [a, b] = ["a", "b"].map((m) => machine(sb, m, url)) as [Record<string, string>, Record<string, string>]
      // an allow only a trusted policy file may grant (an untrusted layer's allows are ignored)
      sb.file(".ccode/policy.yaml", "version: 1\nrules:\n  - id: allow-deploy\n    tool: shell\n    command: \"./deploy.sh *\"\n    decision: allow\n")
      const check = async (env: Record<string, string>) => JSON.parse((await ccode(sb, ["policy", "check", "--json", "--", "./deploy.sh prod"], { env })).stdout) as { decision: string }
      expect((await check(b)).decision).toBe("ask")
      expect((await ccode(sb, ["trust", "--json"], { env: a })).code).toBe(0)
      expect((await check(b)).decision).toBe("allow")
      const payload = { hook_event_name: "PreToolUse", session_id: "sess-1", tool_use_id: "use-1", cwd: sb.work, tool_name: "Bash", tool_input: { command: "./deploy.sh prod" } }
      const hook = await ccode(sb, ["hook", "claude"], { env: b, stdin: JSON.stringify(payload) })
      expect(hook.code).toBe(0)
      expect(JSON.parse(hook.stdout).hookSpecificOutput.permissionDecision).toBe("allow")
      const rows = JSON.parse((await ccode(sb, ["audit", "--type", "decision", "--json"], { env: a })).stdout) as { actor: string; action: string }[]
      expect(rows).toContainEqual(expect.objectContaining({ actor: "hook", action: "./deploy.sh prod" }))
      expect(JSON.parse((await ccode(sb, ["audit", "verify", "--json"], { env: a })).stdout)).toMatchObject({ ok: true })
    }, 120_000)

    test("runs prune --all on a shared store removes finished and crashed runs, never one marked running on another host; audit rows stay", async () => {
      const sb = sandbox()
      const url = await database(sb)
      const [a, b] = ["a", "b"].map((m) => machine(sb, m, url)) as [Record<string, string>, Record<string, string>]
      for (const i of [0, 1]) sb.file(`w${i}/task.yaml`, appendPlan(2, `t${i}`))
      const done = await Promise.all([a, b].map((env, i) => ccode(sb, ["run", `w${i}/task.yaml`, "--yes", "--json"], { env })))
      expect(done.map((r) => r.code)).toEqual([0, 0])
      const [kept, removed] = done.map((r) => String(events(r.stdout)[0]!.run)) as [string, string]
      // as if machine B were running it right now
      const { SQL } = await import("bun")
      const client = new SQL(url, { max: 1 })
      await client.unsafe(`UPDATE runs SET status = 'running', pid = 1, host = 'ci-elsewhere' WHERE id = '${kept}'`)
      await client.close()
      const rm = await ccode(sb, ["runs", "rm", kept], { env: a })
      expect(rm.code).toBe(2)
      expect(rm.stderr).toContain("on ci-elsewhere")
      const auditBefore = JSON.parse((await ccode(sb, ["audit", "verify", "--json"], { env: a })).stdout)
      const pruned = await ccode(sb, ["runs", "prune", "--all", "--older-than", "0s", "--json"], { env: a })
      expect(pruned.code).toBe(0)
      expect(JSON.parse(pruned.stdout)).toMatchObject({ removed: [removed] })
      expect((JSON.parse((await ccode(sb, ["runs", "ls", "--json"], { env: b })).stdout) as { id: string }[]).map((r) => r.id)).toEqual([kept])
      // a summary lives under the CCODE_HOME of the machine that wrote it: B's is not A's to remove
      expect(existsSync(join(b.CCODE_HOME!, "runs", removed, "summary.md"))).toBe(true)
      expect(JSON.parse((await ccode(sb, ["audit", "verify", "--json"], { env: b })).stdout)).toEqual(auditBefore)
    }, 120_000)

    test("resume elsewhere refuses a workspace that differs from the one the run left, showing the difference; nothing runs", async () => {
      const sb = sandbox()
      const url = await database(sb)
      const [a, b] = ["a", "b"].map((m) => machine(sb, m, url)) as [Record<string, string>, Record<string, string>]
      sb.file("policy.yaml", POLICY)
      const notes = sb.file("notes.txt", "as left\n")
      sb.file("task.yaml", "version: 1\nsteps:\n  - id: build\n    run: echo built >> log.txt\n  - id: deploy\n    needs: [build]\n    run: echo deploy prod >> log.txt\n")
      const first = await ccode(sb, ["run", "task.yaml", "--policy", "policy.yaml", "--json"], { env: a })
      expect(first.code).toBe(3)
      const req = events(first.stdout).find((e) => e.type === "request.created")!
      expect((await ccode(sb, ["approve", String(req.run), String(req.req)], { env: b })).code).toBe(0)

      writeFileSync(notes, "changed since\n")
      const refused = await ccode(sb, ["resume", String(req.run)], { env: b })
      expect(refused.code).toBe(2)
      expect(refused.stderr).toContain("cannot resume here")
      expect(refused.stderr).toContain("modified: notes.txt")
      expect(lines(join(sb.work, "log.txt"))).toEqual(["built"])
      // still paused, for whoever resumes it onto the right workspace
      expect(JSON.parse((await ccode(sb, ["runs", "show", String(req.run), "--json"], { env: b })).stdout)).toMatchObject({ status: "paused" })

      writeFileSync(notes, "as left\n")
      const resumed = await ccode(sb, ["resume", String(req.run)], { env: b })
      expect(resumed.code).toBe(0)
      expect(lines(join(sb.work, "log.txt"))).toEqual(["built", "deploy prod"])
    }, 120_000)

    test("kill -9 in the middle of a 30-step plan, then resume: every line exactly once; a crashed run resumes only where it ran", async () => {
      const sb = sandbox()
      const url = await database(sb)
      const [a, b] = ["a", "b"].map((m) => machine(sb, m, url)) as [Record<string, string>, Record<string, string>]
      sb.file("task.yaml", appendPlan(30))
      const out = join(sb.work, "lines.txt")
      const proc = await spawnCcode(sb, ["run", "task.yaml", "--yes", "--non-interactive"], { env: a })
      await waitFor(() => lines(out).length >= 8, 60_000)
      proc.kill("SIGKILL")
      await proc.exited
      expect(lines(out).length).toBeLessThan(30)
      const [run] = JSON.parse((await ccode(sb, ["runs", "ls", "--json"], { env: b })).stdout) as { id: string; status: string }[]
      expect(run!.status).toBe("crashed")

      // its calls in flight can only be checked where it ran
      const elsewhere = await ccode(sb, ["resume", run!.id], { env: b })
      expect(elsewhere.code).toBe(2)
      expect(elsewhere.stderr).toContain("did not end cleanly")

      let result = await ccode(sb, ["resume", run!.id], { env: a })
      if (result.code === 3) {
        // the step in flight at the kill: a person checks whether it ran, then settles it
        const shown = JSON.parse((await ccode(sb, ["runs", "show", run!.id, "--json"], { env: a })).stdout) as { requests: { id: string; kind: string; status: string; step: string }[] }
        const req = shown.requests.find((r) => r.kind === "in_flight" && r.status === "pending")!
        const ran = lines(out).includes(`line-${req.step.slice(1)}`)
        expect((await ccode(sb, ran ? ["answer", run!.id, req.id, "done"] : ["approve", run!.id, req.id], { env: b })).code).toBe(0)
        result = await ccode(sb, ["resume", run!.id], { env: a })
      }
      expect(result.code).toBe(0)
      expect(lines(out)).toEqual(Array.from({ length: 30 }, (_, i) => `line-${i + 1}`))
      const verify = await ccode(sb, ["audit", "verify", "--json"], { env: b })
      expect(JSON.parse(verify.stdout)).toMatchObject({ ok: true })
    }, 180_000)
  })
}
