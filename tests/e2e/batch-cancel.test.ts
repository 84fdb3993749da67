// ccode run --fail-fast (a batch stops at its first failure) and ccode cancel RUN, through the binary.
import { Database } from "bun:sqlite"
import { describe, expect, test } from "bun:test"
import { existsSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { ccode, events, sandbox, spawnCcode, waitFor, type Sandbox } from "./harness.ts"

const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [])

/** n steps, each sleeping then appending its number to log.txt (each task in its own folder). */
function slowTask(sb: Sandbox, dir: string, n: number): string {
  const steps = Array.from({ length: n }, (_, i) => `  - id: s${i + 1}\n    run: sleep 1.5; echo ${i + 1} >> log.txt${i ? `\n    needs: [s${i}]` : ""}`)
  return sb.file(`${dir}/task.yaml`, `version: 1\nname: ${dir}\nsteps:\n${steps.join("\n")}\n`)
}

function failingTask(sb: Sandbox, dir: string): string {
  return sb.file(`${dir}/task.yaml`, `version: 1\nname: ${dir}\npolicy: { limits: { retries: 0 } }\nsteps:\n  - id: boom\n    run: sleep 0.3; exit 7\n`)
}

function query<T>(sb: Sandbox, sql: string, ...params: string[]): T[] {
  const db = new Database(sb.db, { readonly: true })
  try {
    return db.query(sql).all(...params) as T[]
  } finally {
    db.close()
  }
}

describe("ccode run --fail-fast", () => {
  test("the first failure interrupts the running runs at a step boundary, queued ones never start; batch.finished lists all", async () => {
    const sb = sandbox()
    try {
      const files = [slowTask(sb, "slow1", 6), failingTask(sb, "fail"), slowTask(sb, "slow2", 6), slowTask(sb, "queued", 2)]
      const result = await ccode(sb, ["run", ...files, "--jobs", "3", "--fail-fast", "--yes", "--json", "--sandbox", "off"], { timeoutMs: 90_000 })
      expect(result.code).toBe(1) // failed (1) outranks interrupted (130)
      const printed = events(result.stdout)
      const last = printed.at(-1)!
      expect(last).toMatchObject({ type: "batch.finished", run: null, exit_code: 1, fail_fast: true })
      const runs = last.runs as { run: string | null; task: string; status: string; exit_code: number | null }[]
      expect(runs.map((r) => [r.task, r.status, r.exit_code])).toEqual([
        ["slow1", "interrupted", 130], ["fail", "failed", 1], ["slow2", "interrupted", 130], ["queued", "not_started", null],
      ])
      expect(last.stopped_by).toBe(runs[1]!.run)
      expect(runs[3]!.run).toBeNull()
      expect(existsSync(join(sb.work, "queued", "log.txt"))).toBe(false)
      // each interrupted run says why, and was not cut mid-step: every started step finished ok
      for (const r of [runs[0]!, runs[2]!]) {
        const finished = printed.find((e) => e.type === "run.finished" && e.run === r.run)!
        expect(String(finished.message)).toContain(`stopped by --fail-fast: run ${runs[1]!.run} (fail) failed`)
        const calls = query<{ status: string }>(sb, "SELECT status FROM calls WHERE run_id = ?", r.run!)
        expect(calls.length).toBeGreaterThan(0)
        expect(calls.every((c) => c.status === "ok")).toBe(true)
      }
      const stored = query<{ id: string; status: string }>(sb, "SELECT id, status FROM runs ORDER BY created_at")
      expect(stored.length).toBe(3) // the queued task has no run row
      // resumable: the rest of the plan runs, no step twice
      const resumed = await ccode(sb, ["resume", runs[0]!.run!, "--yes"], { timeoutMs: 60_000 })
      expect(resumed.code).toBe(0)
      expect(lines(join(sb.work, "slow1", "log.txt"))).toEqual(["1", "2", "3", "4", "5", "6"])
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 180_000)

  test("one at a time: a failure leaves the rest unstarted; people get a summary line; without the flag all run", async () => {
    const sb = sandbox()
    try {
      const files = [failingTask(sb, "fail"), slowTask(sb, "a", 1), slowTask(sb, "b", 1)]
      const stopped = await ccode(sb, ["run", ...files, "--fail-fast", "--yes", "--sandbox", "off"])
      expect(stopped.code).toBe(1)
      expect(stopped.stderr).toMatch(/batch b\w+: 3 runs — 1 failed, 2 not started; stopped by --fail-fast after run r\w+ failed \(exit 1\)/)
      expect(query(sb, "SELECT id FROM runs").length).toBe(1)
      const all = await ccode(sb, ["run", ...files, "--yes", "--json", "--sandbox", "off"])
      expect(all.code).toBe(1)
      const last = events(all.stdout).at(-1)!
      expect(last).toMatchObject({ type: "batch.finished", fail_fast: false, stopped_by: null })
      expect((last.runs as { status: string }[]).map((r) => r.status)).toEqual(["failed", "completed", "completed"])
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 120_000)
})

describe("ccode cancel", () => {
  test("a paused run: cancelled for good, its requests closed, history kept, resume refuses", async () => {
    const sb = sandbox()
    try {
      sb.file("task.yaml", "version: 1\nsteps:\n  - id: first\n    run: echo one\n  - id: gate\n    needs: [first]\n    run: echo two\n    breakpoint: true\n")
      const paused = await ccode(sb, ["run", "task.yaml", "--yes", "--json", "--non-interactive"])
      expect(paused.code).toBe(3)
      const runId = String(events(paused.stdout)[0]!.run)
      const cancelled = await ccode(sb, ["cancel", runId, "--json"])
      expect(cancelled.code).toBe(0)
      const out = JSON.parse(cancelled.stdout)
      expect(out).toMatchObject({ run: runId, from: "paused", status: "cancelled" })
      expect(out.requests.length).toBe(1)
      expect(query<{ status: string }>(sb, "SELECT status FROM requests WHERE run_id = ?", runId).map((r) => r.status)).toEqual(["cancelled"])
      expect(query(sb, "SELECT id FROM audit WHERE run_id = ? AND type = 'state_change' AND action = 'cancel'", runId).length).toBe(1)
      expect(query(sb, "SELECT id FROM calls WHERE run_id = ?", runId).length).toBe(1) // the finished step stays
      const shown = await ccode(sb, ["runs", "show", runId, "--json"])
      expect(JSON.parse(shown.stdout)).toMatchObject({ status: "cancelled" })
      const resumed = await ccode(sb, ["resume", runId])
      expect(resumed.code).toBe(2)
      expect(resumed.stderr).toContain(`run ${runId} is cancelled`)
      const again = await ccode(sb, ["cancel", runId])
      expect([again.code, again.stderr.includes("already cancelled")]).toEqual([2, true])
      expect((await ccode(sb, ["audit", "verify"])).code).toBe(0)
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)

  test("a running run is refused (stop it first); after Ctrl-C it can be cancelled", async () => {
    const sb = sandbox()
    try {
      sb.file("task.yaml", "version: 1\nsteps:\n  - id: slow\n    run: touch started; sleep 30\n    timeout: 1m\n")
      const proc = await spawnCcode(sb, ["run", "task.yaml", "--yes", "--json", "--sandbox", "off"])
      try {
        await waitFor(() => existsSync(join(sb.work, "started")))
        const [run] = query<{ id: string }>(sb, "SELECT id FROM runs")
        const refused = await ccode(sb, ["cancel", run!.id])
        expect(refused.code).toBe(2)
        expect(refused.stderr).toContain(`run ${run!.id} is still running (pid ${proc.pid}); stop it first`)
        expect(query<{ status: string }>(sb, "SELECT status FROM runs")[0]!.status).toBe("running")
        proc.kill("SIGINT")
        expect(await proc.exited).toBe(130)
        const cancelled = await ccode(sb, ["cancel", run!.id])
        expect(cancelled.code).toBe(0)
        expect(cancelled.stdout).toContain(`cancelled run ${run!.id}`)
        expect(query<{ status: string }>(sb, "SELECT status FROM calls").every((c) => c.status !== "running")).toBe(true)
      } finally {
        proc.kill("SIGKILL")
      }
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)

  test("a run crashed by kill -9: refused while its step's processes live, then its in-flight call closes as abandoned", async () => {
    const sb = sandbox()
    let pgid: number | null = null
    try {
      sb.file("task.yaml", "version: 1\nsteps:\n  - id: slow\n    run: touch started; sleep 30\n    timeout: 1m\n")
      const proc = await spawnCcode(sb, ["run", "task.yaml", "--yes", "--json", "--sandbox", "off"])
      await waitFor(() => existsSync(join(sb.work, "started")))
      proc.kill("SIGKILL")
      await proc.exited
      const [call] = query<{ id: string; run_id: string; pgid: number | null; status: string }>(sb, "SELECT id, run_id, pgid, status FROM calls")
      expect(call!.status).toBe("running")
      pgid = call!.pgid
      expect(pgid).not.toBeNull()
      const refused = await ccode(sb, ["cancel", call!.run_id])
      expect(refused.code).toBe(2)
      expect(refused.stderr).toContain("is still running as pgid")
      expect(query<{ status: string }>(sb, "SELECT status FROM runs")[0]!.status).toBe("running")
      process.kill(-pgid!, "SIGKILL")
      await waitFor(async () => (await ccode(sb, ["cancel", call!.run_id, "--json"])).code === 0, 20_000, 300)
      expect(query<{ status: string }>(sb, "SELECT status FROM calls")[0]!.status).toBe("abandoned")
      expect(query<{ status: string }>(sb, "SELECT status FROM runs")[0]!.status).toBe("cancelled")
      const resumed = await ccode(sb, ["resume", call!.run_id])
      expect(resumed.code).toBe(2)
    } finally {
      if (pgid) {
        try {
          process.kill(-pgid, "SIGKILL")
        } catch {}
      }
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)

  test("an unknown run id is exit 2; --help shows an example", async () => {
    const sb = sandbox()
    try {
      const unknown = await ccode(sb, ["cancel", "rnope"])
      expect([unknown.code, unknown.stderr.includes('no run "rnope"')]).toEqual([2, true])
      const help = await ccode(sb, ["cancel", "--help"])
      expect([help.code, help.stdout.includes("ccode cancel r1a2b3")]).toEqual([0, true])
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)
})
