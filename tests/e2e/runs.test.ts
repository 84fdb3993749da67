// Inspecting and cleaning up runs through the binary: ls, show, events, rm, prune (all with --json),
// --dry-run, and a resume refused because the task's plan changed since the run started.
import { Database } from "bun:sqlite"
import { describe, expect, test } from "bun:test"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { ccode, events, sandbox } from "./harness.ts"

describe("ccode runs", () => {
  test("ls, show and events describe runs newest first; events match the live --json stream", async () => {
    const sb = sandbox()
    sb.file("a.yaml", "version: 1\nname: first\nsteps:\n  - id: one\n    run: echo a\n")
    sb.file("b.yaml", "version: 1\nname: second\nsteps:\n  - id: one\n    run: echo b\n  - id: two\n    needs: [one]\n    run: exit 3\n    retries: 0\n")
    const a = await ccode(sb, ["run", "a.yaml", "--json"])
    const b = await ccode(sb, ["run", "b.yaml", "--json"])
    expect([a.code, b.code]).toEqual([0, 1])
    const ls = JSON.parse((await ccode(sb, ["runs", "ls", "--json"])).stdout) as Record<string, unknown>[]
    expect(ls.map((r) => [r.task, r.status, r.exit_code])).toEqual([["second", "failed", 1], ["first", "completed", 0]])
    const id = String(ls[0]!.id)
    for (const r of ls) {
      expect([typeof r.id, r.workdir, /^\d{4}-\d\d-\d\dT/.test(String(r.created_at))]).toEqual(["string", sb.work, true])
    }
    const shown = await ccode(sb, ["runs", "show", id.slice(0, 10), "--json"])
    expect(shown.stderr).toBe("")
    const show = JSON.parse(shown.stdout)
    expect(show.plan.map((p: { id: string; state: string }) => [p.id, p.state])).toEqual([["one", "done"], ["two", "failed"]])
    expect(show.calls.map((c: { tool: string; status: string; exit_code: number }) => [c.tool, c.status, c.exit_code])).toEqual([["shell", "ok", 0], ["shell", "error", 3]])
    const stored = (await ccode(sb, ["runs", "events", id, "--format", "jsonl"])).stdout.trim().split("\n").map((l) => JSON.parse(l))
    expect(stored).toEqual(events(b.stdout))
  }, 60_000)

  test("rm and prune delete runs and their summaries, keep the audit, and say what they removed", async () => {
    const sb = sandbox()
    sb.file("t.yaml", "version: 1\nsteps:\n  - run: echo x\n")
    const ids: string[] = []
    for (let i = 0; i < 3; i++) ids.push(String(events((await ccode(sb, ["run", "t.yaml", "--json"])).stdout)[0]!.run))
    const summary = (id: string) => join(sb.env.CCODE_HOME!, "runs", id, "summary.md")
    expect(ids.every((id) => existsSync(summary(id)))).toBe(true)
    const rm = await ccode(sb, ["runs", "rm", ids[0]!, "--json"])
    expect(JSON.parse(rm.stdout)).toEqual({ removed: [ids[0]] })
    expect(existsSync(summary(ids[0]!))).toBe(false)
    const bad = await ccode(sb, ["runs", "prune", "--older-than", "soon"])
    expect([bad.code, bad.stderr.includes("--older-than takes a duration")]).toEqual([2, true])
    const kept = await ccode(sb, ["runs", "prune", "--json"]) // default retention: 7 days, nothing that old
    expect(JSON.parse(kept.stdout)).toMatchObject({ removed: [] })
    const pruned = await ccode(sb, ["runs", "prune", "--older-than", "0s", "--json"])
    expect((JSON.parse(pruned.stdout).removed as string[]).sort()).toEqual(ids.slice(1).sort())
    expect(JSON.parse((await ccode(sb, ["runs", "ls", "--json"])).stdout)).toEqual([])
    const db = new Database(sb.db, { readonly: true })
    const audited = db.query("SELECT count(DISTINCT run_id) AS n FROM audit WHERE type = 'session_start'").get() as { n: number }
    db.close()
    expect(audited.n).toBe(3)
    expect((await ccode(sb, ["audit", "verify"])).code).toBe(0)
  }, 60_000)
})

describe("ccode run --dry-run", () => {
  test("decides every step with the real policy, runs nothing and stores nothing", async () => {
    const sb = sandbox()
    sb.file("task.yaml", "version: 1\nsteps:\n  - id: look\n    run: ls\n  - id: push\n    run: git push --force origin main\n  - id: write\n    run: touch made.txt\n")
    // unsandboxed, so the medium write asks (inside the OS sandbox it would be auto-approved)
    const result = await ccode(sb, ["run", "task.yaml", "--dry-run", "--json", "--sandbox", "off"])
    expect(result.code).toBe(5) // the force push would be denied
    expect(events(result.stdout).map((e) => [e.step, e.decision])).toEqual([["look", "allow"], ["push", "deny"], ["write", "ask"]])
    expect(existsSync(join(sb.work, "made.txt"))).toBe(false)
    expect(existsSync(sb.db) ? JSON.parse((await ccode(sb, ["runs", "ls", "--json"])).stdout) : []).toEqual([])
  }, 60_000)
})

describe("resume and a changed task file", () => {
  test("a plan edited since the run started is refused (exit 2); restoring the file lets it go on", async () => {
    const sb = sandbox()
    const original = "version: 1\nsteps:\n  - id: one\n    run: echo one\n  - id: gate\n    needs: [one]\n    breakpoint: true\n    run: echo two\n"
    sb.file("task.yaml", original)
    const paused = await ccode(sb, ["run", "task.yaml", "--json"])
    expect(paused.code).toBe(3)
    const id = String(events(paused.stdout)[0]!.run)
    expect((await ccode(sb, ["approve", id, "--all"])).code).toBe(0)
    sb.file("task.yaml", original.replace("echo two", "rm -rf build"))
    const refused = await ccode(sb, ["resume", id])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain("changed since run")
    sb.file("task.yaml", original)
    // the restored file is an edit in the workspace too: the watch reports it once, then the run goes on
    let resumed = await ccode(sb, ["resume", id])
    if (resumed.code === 4) resumed = await ccode(sb, ["resume", id])
    expect(resumed.code).toBe(0)
  }, 60_000)
})
