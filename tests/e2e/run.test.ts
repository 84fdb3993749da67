// ccode run / resume through the compiled binary: crash safety, timeouts, breakpoints, batches, signals.
import { Database } from "bun:sqlite"
import { describe, expect, test } from "bun:test"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { ccode, events, sandbox, spawnCcode, waitFor } from "./harness.ts"

const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [])

function appendPlan(n: number): string {
  const steps = Array.from({ length: n }, (_, i) => `  - id: s${i + 1}\n    run: echo line-${i + 1} >> lines.txt${i ? `\n    needs: [s${i}]` : ""}`)
  return `version: 1\nname: append\nsteps:\n${steps.join("\n")}\n`
}

describe("ccode run (scripted plans)", () => {
  test("kill -9 in the middle of a 50-step plan, then resume: every line exactly once", async () => {
    const sb = sandbox()
    sb.file("task.yaml", appendPlan(50))
    const out = join(sb.work, "lines.txt")
    const proc = await spawnCcode(sb, ["run", "task.yaml", "--yes", "--non-interactive"])
    await waitFor(() => lines(out).length >= 15)
    proc.kill("SIGKILL")
    await proc.exited
    const atKill = lines(out).length
    expect(atKill).toBeLessThan(50)

    let result = await ccode(sb, ["resume", "--last"])
    if (result.code === 3) {
      // the step in flight at the kill: a person checks whether it ran, then settles it
      const db = new Database(sb.db, { readonly: true })
      const req = db.query("SELECT id, run_id, item_id FROM requests WHERE kind = 'in_flight' AND status = 'pending'").get() as { id: string; run_id: string; item_id: string }
      db.close()
      expect(req).toBeTruthy()
      const ran = lines(out).includes(`line-${req.item_id.slice(1)}`)
      const settle = ran ? ["answer", req.run_id, req.id, "done"] : ["approve", req.run_id, req.id]
      expect((await ccode(sb, settle)).code).toBe(0)
      result = await ccode(sb, ["resume", req.run_id])
    }
    expect(result.code).toBe(0)
    expect(lines(out)).toEqual(Array.from({ length: 50 }, (_, i) => `line-${i + 1}`))
  }, 120_000)

  test("a timeout kills the process tree; the step is retried, then the run fails with exit 1", async () => {
    const sb = sandbox()
    sb.file("task.yaml", [
      "version: 1",
      "policy: { limits: { retry_backoff: 50ms } }",
      "steps:",
      "  - id: hang",
      "    run: 'echo $$ >> pids.txt; sleep 1000 & echo $! >> pids.txt; wait'",
      "    timeout: 700ms",
      "    retries: 1",
      "",
    ].join("\n"))
    // host pids: inside the OS sandbox `$$` is a pid of its own namespace (tests/e2e/sandbox.test.ts kills there)
    const result = await ccode(sb, ["run", "task.yaml", "--yes", "--json", "--sandbox", "off"])
    expect(result.code).toBe(1)
    const finished = events(result.stdout).filter((e) => e.type === "step.finished")
    expect(finished.map((e) => (e.error as { code: string }).code)).toEqual(["TIMEOUT", "TIMEOUT"])
    const pids = lines(join(sb.work, "pids.txt")).map(Number)
    expect(pids.length).toBe(4)
    await Bun.sleep(300)
    for (const pid of pids) {
      const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, "utf8") : ""
      expect(stat === "" || /^\d+ \(.*\) Z/.test(stat)).toBe(true)
    }
  }, 60_000)

  test("a breakpoint without a TTY pauses with exit 3; approve + resume completes", async () => {
    const sb = sandbox()
    sb.file("task.yaml", "version: 1\nsteps:\n  - id: first\n    run: echo one\n  - id: gate\n    needs: [first]\n    breakpoint: true\n    run: echo two\n")
    const paused = await ccode(sb, ["run", "task.yaml", "--json"])
    expect(paused.code).toBe(3)
    const evs = events(paused.stdout)
    const request = evs.find((e) => e.type === "request.created")!
    expect(request.kind).toBe("breakpoint")
    expect(evs.at(-1)).toMatchObject({ type: "run.finished", status: "paused", exit_code: 3 })
    expect(paused.stderr).toBe("")
    const human = await ccode(sb, ["resume", String(request.run)])
    expect(human.code).toBe(3) // still not approved: pauses again and says how to continue
    expect(human.stderr).toContain(`ccode approve ${request.run} ${request.req}`)
    expect((await ccode(sb, ["approve", String(request.run), String(request.req)])).code).toBe(0)
    const done = await ccode(sb, ["resume", String(request.run), "--json"])
    expect(done.code).toBe(0)
    const finished = events(done.stdout).filter((e) => e.type === "step.finished")
    expect(finished.length).toBe(1) // `first` is not run again
  }, 60_000)

  test("4 runs in parallel processes against one database all complete with all their events", async () => {
    const sb = sandbox()
    // each run in its own workspace: in a shared one, each would rightly see the others' writes as external changes
    for (let i = 1; i <= 4; i++) sb.file(`w${i}/task.yaml`, appendPlan(15).replace("name: append", `name: t${i}`))
    const procs = await Promise.all([1, 2, 3, 4].map((i) => ccode(sb, ["run", `w${i}/task.yaml`, "--yes", "--json"])))
    expect(procs.map((p) => p.code)).toEqual([0, 0, 0, 0])
    const db = new Database(sb.db, { readonly: true })
    const runs = db.query("SELECT id, status FROM runs").all() as { id: string; status: string }[]
    expect(runs.length).toBe(4)
    for (const [i, p] of procs.entries()) {
      const printed = events(p.stdout)
      const stored = db.query("SELECT count(*) AS n FROM events WHERE run_id = ?").get(printed[0]!.run as string) as { n: number }
      expect(stored.n).toBe(printed.length)
      expect(lines(join(sb.work, `w${i + 1}`, "lines.txt")).length).toBe(15)
    }
    db.close()
  }, 120_000)

  test("a batch with --jobs runs in one process and exits with the highest-priority code", async () => {
    const sb = sandbox()
    sb.file("ok.yaml", "version: 1\nsteps:\n  - run: echo fine\n")
    sb.file("bad.yaml", "version: 1\npolicy: { limits: { retries: 0 } }\nsteps:\n  - run: exit 3\n")
    sb.file("gate.yaml", "version: 1\nsteps:\n  - run: echo x\n    breakpoint: true\n")
    const result = await ccode(sb, ["run", "ok.yaml", "bad.yaml", "gate.yaml", "--jobs", "2", "--yes"])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/ok\s+completed\s+0/)
    expect(result.stderr).toMatch(/bad\s+failed\s+1/)
    expect(result.stderr).toMatch(/gate\s+paused\s+3/)
  }, 60_000)

  test("SIGINT ends the running tool, exits 130, and leaves it in flight: resume asks, approve runs it again", async () => {
    const sb = sandbox()
    sb.file("task.yaml", "version: 1\nsteps:\n  - id: slow\n    run: 'if [ -f once ]; then echo again >> log.txt; else touch once; echo started >> log.txt; sleep 30; fi'\n    timeout: 1m\n  - id: after\n    needs: [slow]\n    run: echo after >> log.txt\n")
    const proc = await spawnCcode(sb, ["run", "task.yaml", "--yes", "--json"])
    await waitFor(() => lines(join(sb.work, "log.txt")).length >= 1)
    proc.kill("SIGINT")
    expect(await proc.exited).toBe(130)
    const printed = events(await new Response(proc.stdout).text())
    expect(printed.at(-1)).toMatchObject({ type: "run.finished", status: "interrupted", exit_code: 130 })
    const runId = String(printed[0]!.run)
    // never re-run silently: without a person, resume pauses with an in_flight request
    const asked = await ccode(sb, ["resume", runId, "--json"], { env: {} })
    expect(asked.code).toBe(3)
    expect(events(asked.stdout).filter((e) => e.type === "request.created").map((e) => e.kind)).toEqual(["in_flight"])
    expect(lines(join(sb.work, "log.txt"))).toEqual(["started"])
    expect((await ccode(sb, ["approve", runId, "--all"])).code).toBe(0)
    const resumed = await ccode(sb, ["resume", runId], { env: {} })
    expect(resumed.code).toBe(0)
    expect(lines(join(sb.work, "log.txt"))).toEqual(["started", "again", "after"])
  }, 90_000)
})

describe("bad input changes nothing", () => {
  const cases: [string, string, RegExp][] = [
    ["unknown key", "version: 1\nsteps:\n  - run: echo\n    retires: 1\n", /task\.yaml:4:5: unknown key "retires"/],
    ["wrong type", "version: 1\nsteps:\n  - run: echo\n    retries: many\n", /task\.yaml:4:\d+: steps\.0\.retries/],
    ["duplicate id", "steps:\n  - id: a\n    run: x\n  - id: a\n    run: y\n", /task\.yaml:4:\d+: duplicate step id "a"/],
    ["cycle", "steps:\n  - id: a\n    run: x\n    needs: [b]\n  - id: b\n    run: y\n    needs: [a]\n", /dependency cycle/],
    ["invalid yaml", "steps: [\n", /task\.yaml:\d+:\d+: invalid YAML/],
    ["unknown tool", "steps:\n  - tool: teleport\n    with: {}\n", /task\.yaml:2:\d+: step "step-1" uses unknown tool "teleport"/],
    ["bad args", "steps:\n  - tool: read_file\n    with: { file: x }\n", /task\.yaml:3:\d+: .*invalid arguments for read_file/],
  ]
  for (const [name, text, message] of cases) {
    test(`${name}: exit 2, file:line:col, no run row`, async () => {
      const sb = sandbox()
      sb.file("task.yaml", text)
      const result = await ccode(sb, ["run", "task.yaml"])
      expect(result.code).toBe(2)
      expect(result.stderr).toMatch(message)
      const db = new Database(sb.db, { readonly: true })
      expect((db.query("SELECT count(*) AS n FROM runs").get() as { n: number }).n).toBe(0)
      db.close()
    })
  }

  test("a missing file and an unknown flag are exit 2 with what to do", async () => {
    const sb = sandbox()
    const missing = await ccode(sb, ["run", "nope.yaml"])
    expect([missing.code, missing.stderr.includes("nope.yaml:1:1: task file not found")]).toEqual([2, true])
    sb.file("task.yaml", "steps:\n  - run: echo\n")
    const flag = await ccode(sb, ["run", "task.yaml", "--jbos", "2"])
    expect(flag.code).toBe(2)
    expect(flag.stderr).toContain("unknown flag --jbos")
    const jobs = await ccode(sb, ["run", "task.yaml", "--jobs", "zero"])
    expect([jobs.code, jobs.stderr.includes("--jobs takes a whole number")]).toEqual([2, true])
  })

  test("resuming a completed run is refused with a clear message", async () => {
    const sb = sandbox()
    sb.file("task.yaml", "steps:\n  - run: echo hi\n")
    const run = await ccode(sb, ["run", "task.yaml", "--json"])
    expect(run.code).toBe(0)
    const id = String(events(run.stdout)[0]!.run)
    const again = await ccode(sb, ["resume", id])
    expect(again.code).toBe(2)
    expect(again.stderr).toContain(`run ${id} is completed`)
  })
})
