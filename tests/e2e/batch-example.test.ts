// examples/batch/run-batch.sh: a --jobs batch parsed with jq into a table of task, status, exit code
// and the failing step's last output line, branching on the exit codes.
import { expect, test } from "bun:test"
import { cpSync, rmSync } from "node:fs"
import { join } from "node:path"
import { binary, sandbox } from "./harness.ts"

test("the batch example prints one row per task and acts on each exit code", async () => {
  const sb = sandbox()
  try {
    const dir = join(sb.root, "batch")
    cpSync(join(import.meta.dir, "..", "..", "examples", "batch"), dir, { recursive: true })
    const proc = Bun.spawn(["bash", join(dir, "run-batch.sh")], { cwd: sb.root, env: { ...sb.env, CCODE: await binary() }, stdout: "pipe", stderr: "pipe" })
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
    expect([code, stderr]).toEqual([1, ""])
    const rows = stdout.split("\n\n")[0]!.split("\n").map((l) => l.split(/\s{2,}|(?<=^\S+\s+\S+\s+\d)\s+/).map((c) => c.trim()))
    expect(rows[0]).toEqual(["TASK", "STATUS", "EXIT FAILING STEP: LAST LINE"])
    expect(rows.slice(1).map((r) => r.slice(0, 3))).toEqual([["build", "completed", "0"], ["publish", "denied", "5"], ["release", "paused", "3"], ["test", "failed", "1"]])
    expect(stdout).toMatch(/\ntest +failed +1 +unit: FAIL divides by zero: expected Infinity, got NaN\n/)
    expect(stdout).toMatch(/\npublish +denied +5 +push: denied: denied by rule no-force-push/)
    expect(stdout).toMatch(/\nrelease waits for a person: ccode runs show (r\w+), then ccode approve \1 --all && ccode resume \1\n/)
    expect(stdout).toMatch(/\ntest failed: full output with {2}ccode runs logs r\w+\n/)
    expect(stdout.trimEnd().endsWith("batch failed (exit 1)")).toBe(true)
  } finally {
    rmSync(sb.root, { recursive: true, force: true })
  }
}, 60_000)
