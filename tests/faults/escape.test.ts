// A step's processes never outlive it, and never run twice at once: setsid escapes, background
// children holding the output, a long step left running by a kill -9, TERM-ignoring children and
// a double Ctrl-C. Each case uses its own `sleep` duration as a marker to find its processes.
// Runs are unsandboxed: these cases are about ccode's own process handling (inside the OS sandbox
// its pid namespace ends every process of a step with the step).
import { Database } from "bun:sqlite"
import { afterEach, describe, expect, test } from "bun:test"
import { existsSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { ccode, events, sandbox, spawnCcode, waitFor, type Sandbox } from "../e2e/harness.ts"

const sandboxes: Sandbox[] = []
const markers: string[] = []

afterEach(() => {
  for (const marker of markers.splice(0)) for (const pid of pidsOf(marker)) process.kill(pid, "SIGKILL")
  for (const sb of sandboxes.splice(0)) rmSync(sb.root, { recursive: true, force: true })
})

function box(): Sandbox {
  const sb = sandbox()
  sandboxes.push(sb)
  return sb
}

/** A unique `sleep` argument, and the pids of processes running `sleep <it>`. */
function marker(): string {
  const m = `${100 + Math.floor(Math.random() * 800)}.${Math.floor(Math.random() * 1e6)}`
  markers.push(m)
  return m
}

function pidsOf(mark: string): number[] {
  const out = Bun.spawnSync(["pgrep", "-f", `^sleep ${mark.replace(".", "\\.")}$`]).stdout.toString()
  return out.split("\n").filter(Boolean).map(Number)
}

const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [])

describe("escaped and leftover processes", () => {
  test("a setsid escape in a step that succeeds is killed at step end; the step runs once, without waiting for its timeout", async () => {
    const sb = box()
    const m = marker()
    sb.file("task.yaml", `version: 1\nsteps:\n  - id: escape\n    run: '(setsid bash -c "sleep ${m}" &); echo ran >> log.txt'\n    timeout: 2m\n`)
    const started = Date.now()
    const result = await ccode(sb, ["run", "task.yaml", "--sandbox", "off", "--yes"])
    expect(result.code).toBe(0)
    expect(Date.now() - started).toBeLessThan(20_000)
    expect(lines(join(sb.work, "log.txt"))).toEqual(["ran"])
    expect(pidsOf(m)).toEqual([])
  }, 60_000)

  test("a background child holding stdout: the step's exit 0 is kept, it is not re-run, the child does not survive", async () => {
    const sb = box()
    const m = marker()
    sb.file("task.yaml", `version: 1\nsteps:\n  - id: bg\n    run: 'sleep ${m} & echo ran >> log.txt'\n  - id: next\n    needs: [bg]\n    run: echo next >> log.txt\n`)
    const result = await ccode(sb, ["run", "task.yaml", "--sandbox", "off", "--yes", "--json"])
    expect(result.code).toBe(0)
    const finished = events(result.stdout).filter((e) => e.type === "step.finished")
    expect(finished.map((e) => [e.status, e.exit_code])).toEqual([["ok", 0], ["ok", 0]])
    expect(lines(join(sb.work, "log.txt"))).toEqual(["ran", "next"])
    expect(pidsOf(m)).toEqual([])
  }, 60_000)

  test("after kill -9 a long step still runs: resume says so, and approve kills it before running it again (never two copies)", async () => {
    const sb = box()
    const m = marker()
    const step = `if [ -f once ]; then echo "again, copies running: $(pgrep -fc "^sleep ${m.replace(".", "\\\\.")}$")" >> log.txt; else touch once; echo start >> log.txt; (setsid sleep ${m} &); sleep ${m}; fi`
    sb.file("task.yaml", `version: 1\nsteps:\n  - id: long\n    run: '${step}'\n    timeout: 5m\n`)
    const proc = await spawnCcode(sb, ["run", "task.yaml", "--sandbox", "off", "--yes", "--json"])
    await waitFor(() => pidsOf(m).length >= 2)
    proc.kill("SIGKILL")
    await proc.exited
    expect(pidsOf(m).length).toBe(2) // the step and its setsid escape live on without ccode

    const asked = await ccode(sb, ["resume", "--last", "--json"])
    expect(asked.code).toBe(3)
    const request = events(asked.stdout).find((e) => e.type === "request.created")!
    expect(request).toMatchObject({ kind: "in_flight", still_running: true })
    const show = await ccode(sb, ["runs", "show", String(request.run)])
    expect(show.stdout).toMatch(/still running as pgid \d+/)
    expect(pidsOf(m).length).toBe(2) // resume without a person's choice touches nothing

    expect((await ccode(sb, ["approve", String(request.run), String(request.req)])).code).toBe(0)
    const resumed = await ccode(sb, ["resume", String(request.run)])
    expect(resumed.code).toBe(0)
    expect(lines(join(sb.work, "log.txt"))).toEqual(["start", "again, copies running: 0"])
    expect(pidsOf(m)).toEqual([])
  }, 90_000)

  test("kill -9 after the command exited but before its result was committed: resume settles it from the recorded exit status", async () => {
    const sb = box()
    const m = marker()
    // the background sleep holds stdout, so ccode is still draining output when it is killed
    sb.file("task.yaml", `version: 1\nsteps:\n  - id: quick\n    run: 'sleep ${m} & echo quick >> log.txt'\n  - id: after\n    needs: [quick]\n    run: echo after >> log.txt\n`)
    const proc = await spawnCcode(sb, ["run", "task.yaml", "--sandbox", "off", "--yes", "--json"])
    await waitFor(() => lines(join(sb.work, "log.txt")).length >= 1, 30_000, 5)
    await Bun.sleep(60)
    proc.kill("SIGKILL")
    await proc.exited
    const db = new Database(sb.db, { readonly: true })
    const call = db.query("SELECT status, exit_code AS exitCode, pgid FROM calls WHERE item_id = 'quick'").get() as { status: string; exitCode: number | null; pgid: number | null }
    db.close()
    expect(call.pgid).toBeGreaterThan(1)
    if (call.status !== "running") return // the result was committed before the kill: nothing to settle (rare on a fast machine)
    expect(call.exitCode).toBe(0)
    const resumed = await ccode(sb, ["resume", "--last", "--json"])
    expect(resumed.code).toBe(0)
    expect(events(resumed.stdout).filter((e) => e.type === "request.created")).toEqual([])
    expect(lines(join(sb.work, "log.txt"))).toEqual(["quick", "after"])
    expect(pidsOf(m)).toEqual([])
  }, 60_000)

  test("two Ctrl-Cs 50 ms apart: a TERM-ignoring child is SIGKILLed before ccode exits", async () => {
    const sb = box()
    const m = marker()
    sb.file("task.yaml", `version: 1\nsteps:\n  - id: stubborn\n    run: 'trap "" TERM; echo start >> log.txt; exec sleep ${m}'\n`)
    const proc = await spawnCcode(sb, ["run", "task.yaml", "--sandbox", "off", "--yes"])
    await waitFor(() => pidsOf(m).length === 1)
    proc.kill("SIGINT")
    await Bun.sleep(50)
    proc.kill("SIGINT")
    expect(await proc.exited).toBe(130)
    await waitFor(() => pidsOf(m).length === 0, 3000)
    expect(pidsOf(m)).toEqual([])
  }, 60_000)

  test("SIGTERM mid-step: the call is left in flight; answering done continues without running it again", async () => {
    const sb = box()
    const m = marker()
    sb.file("task.yaml", `version: 1\nsteps:\n  - id: work\n    run: 'echo work >> log.txt; sleep ${m}'\n  - id: after\n    needs: [work]\n    run: echo after >> log.txt\n`)
    const proc = await spawnCcode(sb, ["run", "task.yaml", "--sandbox", "off", "--yes", "--json"])
    await waitFor(() => pidsOf(m).length === 1)
    proc.kill("SIGTERM")
    expect(await proc.exited).toBe(130)
    expect(pidsOf(m)).toEqual([])
    const asked = await ccode(sb, ["resume", "--last", "--json"])
    expect(asked.code).toBe(3)
    const request = events(asked.stdout).find((e) => e.type === "request.created")!
    expect(request.kind).toBe("in_flight")
    expect((await ccode(sb, ["answer", String(request.run), String(request.req), "done"])).code).toBe(0)
    expect((await ccode(sb, ["resume", String(request.run)])).code).toBe(0)
    expect(lines(join(sb.work, "log.txt"))).toEqual(["work", "after"])
  }, 60_000)
})
