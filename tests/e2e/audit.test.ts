// ccode audit through the compiled binary: verify catches tampering, concurrent runs keep one chain,
// exports and the per-run report.
import { Database } from "bun:sqlite"
import { describe, expect, test } from "bun:test"
import { join } from "node:path"
import { ccode, sandbox, spawnCcode, type Sandbox } from "./harness.ts"

function task(sb: Sandbox, name: string, steps: number): string {
  const lines = ["version: 1", `name: ${name}`, "steps:"]
  for (let i = 1; i <= steps; i++) lines.push(`  - id: s${i}`, `    run: echo ${name}-${i}`)
  lines.push("  - id: push", "    run: git push --force origin main", "    continue_on_error: true")
  return sb.file(`${name}.yaml`, `${lines.join("\n")}\n`)
}

/** A copy of the sandbox database to tamper with. */
function copyDb(sb: Sandbox, name: string): string {
  const path = join(sb.root, `${name}.db`)
  const db = new Database(sb.db)
  db.run(`VACUUM INTO '${path}'`)
  db.close()
  return path
}

function tamper(path: string, sql: string): void {
  const db = new Database(path)
  db.run(sql)
  db.close()
}

describe("ccode audit verify", () => {
  test("an untouched audit verifies; an edited, a deleted and an inserted row are each named, with exit 1", async () => {
    const sb = sandbox()
    task(sb, "build", 3)
    const run = await ccode(sb, ["run", "build.yaml", "--yes", "--non-interactive"])
    expect(run.code).toBe(0)
    const ok = await ccode(sb, ["audit", "verify", "--json"])
    expect(ok.code).toBe(0)
    const intact = JSON.parse(ok.stdout)
    expect(intact.ok).toBe(true)
    expect(intact.rows).toBeGreaterThan(6)

    const edited = copyDb(sb, "edited")
    tamper(edited, "UPDATE audit SET result = 'approved' WHERE id = (SELECT max(id) FROM audit WHERE result = 'denied')")
    const e = await ccode(sb, ["audit", "verify", "--db", edited])
    expect(e.code).toBe(1)
    expect(e.stdout).toMatch(/audit chain broken: row \d+ was changed/)

    const deleted = copyDb(sb, "deleted")
    tamper(deleted, "DELETE FROM audit WHERE id = 3")
    const d = await ccode(sb, ["audit", "verify", "--db", deleted])
    expect(d.code).toBe(1)
    expect(d.stdout).toContain("row 3 was deleted")

    const inserted = copyDb(sb, "inserted")
    tamper(inserted, `INSERT INTO audit (ts, run_id, type, actor, action, result, reason, prev_hash, hash)
      SELECT ts + 1, run_id, 'permission', 'user', 'approve', 'approved', 'looks legit', hash, hash FROM audit ORDER BY id DESC LIMIT 1`)
    const i = await ccode(sb, ["audit", "verify", "--db", inserted])
    expect(i.code).toBe(1)
    expect(i.stdout).toContain(`row ${intact.rows + 1} was inserted out of chain`)
  }, 60_000)

  test("four runs in four processes writing to one database leave one chain that verifies", async () => {
    const sb = sandbox()
    const names = ["alpha", "beta", "gamma", "delta"]
    for (const name of names) task(sb, name, 12)
    const procs = await Promise.all(names.map((name) => spawnCcode(sb, ["run", `${name}.yaml`, "--yes", "--non-interactive"])))
    const codes = await Promise.all(procs.map((p) => p.exited))
    expect(codes).toEqual([0, 0, 0, 0])
    const verify = await ccode(sb, ["audit", "verify", "--json"])
    expect(verify.code).toBe(0)
    const db = new Database(sb.db, { readonly: true })
    const starts = db.query("SELECT count(DISTINCT run_id) AS n FROM audit WHERE type = 'session_start'").get() as { n: number }
    const total = db.query("SELECT count(*) AS n FROM audit").get() as { n: number }
    db.close()
    expect(starts.n).toBe(4)
    expect(JSON.parse(verify.stdout).rows).toBe(total.n)
  }, 120_000)
})

describe("ccode audit queries, exports and reports", () => {
  test("filters, every export format, and a per-run report with the denial and who decided it", async () => {
    const sb = sandbox()
    task(sb, "deploy", 2)
    expect((await ccode(sb, ["run", "deploy.yaml", "--yes", "--non-interactive"])).code).toBe(0)
    const runId = JSON.parse((await ccode(sb, ["runs", "ls", "--json"])).stdout)[0].id as string

    const jsonl = await ccode(sb, ["audit", "--run", runId.slice(0, 8), "--format", "jsonl"])
    expect(jsonl.code).toBe(0)
    const rows = jsonl.stdout.trimEnd().split("\n").map((l) => JSON.parse(l))
    expect(rows[0]).toMatchObject({ run: runId, type: "session_start" })
    expect(rows.at(-1)).toMatchObject({ run: runId, type: "session_end" })

    const denied = JSON.parse((await ccode(sb, ["audit", "--decision", "deny", "--since", "1h", "--json"])).stdout)
    expect(denied.map((r: { tool: string; type: string }) => [r.type, r.tool])).toContainEqual(["decision", "shell"])
    expect(denied.every((r: { result: string }) => r.result === "denied")).toBe(true)

    const csv = await ccode(sb, ["audit", "--run", runId, "--type", "decision", "--format", "csv"])
    expect(csv.stdout.split("\r\n")[0]).toBe("id,ts,run,call,type,actor,tool,action,result,risk,auto_approved,reason,data,prev_hash,hash")
    expect(csv.stdout.split("\r\n").filter(Boolean)).toHaveLength(4) // header + three decisions
    const md = await ccode(sb, ["audit", "--run", runId, "--format", "md"])
    expect(md.stdout.split("\n")[1]).toMatch(/^\|---\|/)
    const table = await ccode(sb, ["audit", "--run", runId])
    expect(table.stdout.split("\n")[0]).toMatch(/^id\s+time\s+run\s+type/)

    const report = await ccode(sb, ["audit", "report", runId, "--format", "json"])
    expect(report.code).toBe(0)
    const r = JSON.parse(report.stdout)
    expect(r.counts.by_decision).toMatchObject({ allow: 2, deny: 1 })
    expect(r.denials[0]).toMatchObject({ actor: "policy", tool: "shell" })
    expect(r.denials[0].reason).toContain("force")
    const mdReport = await ccode(sb, ["audit", "report", runId])
    expect(mdReport.stdout).toContain(`# Audit report: run ${runId}`)
    expect(mdReport.stdout).toContain("## Denials")

    expect((await ccode(sb, ["audit", "--format", "xml"])).code).toBe(2)
    expect((await ccode(sb, ["audit", "--since", "last tuesday"])).code).toBe(2)
    expect((await ccode(sb, ["audit", "report", "nope"])).code).toBe(2)
  }, 60_000)
})
