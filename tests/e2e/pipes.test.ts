// Every listing and export command writes its whole result when stdout is a slow pipe: a large write
// followed by the process's exit used to lose everything after the first 64 KiB (with exit 0).
import { Database } from "bun:sqlite"
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { rmSync } from "node:fs"
import { binary, ccode, events, sandbox, type Sandbox } from "./harness.ts"

let sb: Sandbox
let runId = ""

beforeAll(async () => {
  sb = sandbox()
  // 130 steps of 9,000 characters each: > 1 MB of events (8 KiB of output each) and of `runs show`
  const steps = Array.from({ length: 130 }, (_, i) => `  - id: s${i}\n    run: head -c 9000 /dev/zero | tr '\\0' x`).join("\n")
  sb.file("t.yaml", `version: 1\nname: loud\nsteps:\n${steps}\n`)
  const r = await ccode(sb, ["run", "t.yaml", "--json"], { timeoutMs: 120_000 })
  expect(r.code).toBe(0)
  runId = String(events(r.stdout)[0]!.run)
  // more rows of the same kinds, so runs ls and every audit format pass 1 MB
  const db = new Database(sb.db)
  db.run(`INSERT INTO runs (id, task, task_file, workdir, status, driver, created_at, updated_at, exit_code)
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
    SELECT 'rcopy' || i, 'copy-' || i || '-' || hex(randomblob(40)), task_file, workdir, 'completed', driver, created_at - i, updated_at, 0 FROM runs, n WHERE id = ?`, [runId])
  db.run(`INSERT INTO audit (ts, run_id, call_id, type, actor, tool, action, result, risk, auto_approved, reason, data, prev_hash, hash)
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 8)
    SELECT ts, run_id, call_id, type, actor, tool, action, result, risk, auto_approved, reason, data, prev_hash, hash FROM audit, n`)
  db.close()
}, 180_000)

afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

/** Run ccode with stdout into a pipe whose reader waits a second before reading, then reads slowly. */
async function throughSlowPipe(args: string[]): Promise<{ code: number; bytes: Buffer }> {
  const quoted = [await binary(), ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ")
  const proc = Bun.spawn(["bash", "-c", `set -o pipefail; ${quoted} | (sleep 1; dd bs=4096 status=none)`], { env: sb.env, cwd: sb.work, stdout: "pipe", stderr: "pipe" })
  const [out, code] = await Promise.all([new Response(proc.stdout).arrayBuffer(), proc.exited])
  return { code, bytes: Buffer.from(out) }
}

describe("piped stdout is complete", () => {
  const cases: [string, () => string[], (text: string) => void][] = [
    ["audit --format jsonl", () => ["audit", "--format", "jsonl"], (t) => t.trim().split("\n").forEach((l) => JSON.parse(l))],
    ["audit --format json", () => ["audit", "--format", "json"], (t) => expect(Array.isArray(JSON.parse(t))).toBe(true)],
    ["audit --format csv", () => ["audit", "--format", "csv"], (t) => expect(t.trimEnd().split("\n").length).toBeGreaterThan(1000)],
    ["runs events --format jsonl", () => ["runs", "events", runId, "--format", "jsonl"], (t) => expect(t.trim().split("\n").map((l) => JSON.parse(l).type).at(-1)).toBe("run.finished")],
    ["runs ls --json", () => ["runs", "ls", "--json", "--limit", "10000"], (t) => expect(JSON.parse(t).length).toBe(5001)],
    ["runs show --json", () => ["runs", "show", runId, "--json"], (t) => expect(JSON.parse(t).calls.length).toBe(130)],
    ["runs logs", () => ["runs", "logs", runId], (t) => expect(t.split("── step ").length).toBe(131)],
  ]
  for (const [name, args, check] of cases) {
    test(`${name}: over 1 MB arrives whole through a slow reader`, async () => {
      const direct = await ccode(sb, args())
      const piped = await throughSlowPipe(args())
      expect(piped.code).toBe(0)
      expect(piped.bytes.length).toBeGreaterThan(1024 * 1024)
      expect(piped.bytes.length).toBe(Buffer.byteLength(direct.stdout))
      check(piped.bytes.toString("utf8"))
    }, 60_000)
  }
})
