// Every step's processes are reaped when the step ends, through the compiled binary: near the end of a
// 50-step run ccode has no pile of zombie children (inside the OS sandbox each step's bwrap used to
// leave its pid-namespace init behind as a zombie of ccode, one per step), and nothing of any step is
// left running after the run, the step that timed out included.
import { describe, expect, test } from "bun:test"
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs"
import { join } from "node:path"
import { events, sandbox, spawnCcode, waitFor } from "./harness.ts"

const HAS_BWRAP = Bun.which("bwrap") !== null
const STEPS = 50

/** 47 quick steps, one that times out with a background child, one that fails, then one that lingers. */
function task(): string {
  const steps: string[] = []
  for (let i = 0; i < STEPS - 3; i++) steps.push(`  - id: s${i}\n    run: "true"`)
  steps.push(`  - id: slow\n    run: "sleep 30 & sleep 30"\n    timeout: 1s\n    retries: 0\n    continue_on_error: true`)
  steps.push(`  - id: fails\n    run: "exit 3"\n    retries: 0\n    continue_on_error: true`)
  // the last step says it started, then gives the watcher time to look
  steps.push(`  - id: last\n    run: "touch last.started && sleep 1.5"\n    if: always()`)
  return `version: 1\nname: reaping\nsteps:\n${steps.join("\n")}\n`
}

/** Direct children of `parent`, by state (Z: zombie), from a scan of /proc. */
function childrenByState(parent: number): { zombies: number; live: number } {
  let zombies = 0
  let live = 0
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8")
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      if (Number(ppid) !== parent) continue
      if (state === "Z") zombies++
      else live++
    } catch {
      // gone
    }
  }
  return { zombies, live }
}

/** Processes whose working directory is inside `dir` (what a step started there). */
function runningIn(dir: string): number[] {
  const out: number[] = []
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue
    try {
      const cwd = readlinkSync(`/proc/${name}/cwd`)
      if (cwd === dir || cwd.startsWith(`${dir}/`)) out.push(Number(name))
    } catch {
      // gone, or not ours to look at
    }
  }
  return out
}

async function runWatched(mode: "required" | "off") {
  const sb = sandbox()
  let proc: Awaited<ReturnType<typeof spawnCcode>> | undefined
  try {
    sb.file("task.yaml", task())
    proc = await spawnCcode(sb, ["run", "task.yaml", "--json", "--yes", "--sandbox", mode])
    const stdout = new Response(proc.stdout).text()
    const stderr = new Response(proc.stderr).text()
    let exited = false
    void proc.exited.then(() => (exited = true))
    await waitFor(() => exited || existsSync(join(sb.work, "last.started")), 120_000, 10)
    // the last step is running: every earlier step has ended, and was to be reaped when it did
    await Bun.sleep(300)
    const seen = exited ? undefined : childrenByState(proc.pid)
    const code = await proc.exited
    const out = await stdout
    await Bun.sleep(100)
    return { code, stdout: out, stderr: await stderr, seen, left: runningIn(sb.work) }
  } finally {
    // a failed look leaves no run behind (ccode ends its steps' processes when it is killed)
    if (proc && proc.exitCode === null) {
      proc.kill("SIGTERM")
      await proc.exited
    }
    rmSync(sb.root, { recursive: true, force: true })
  }
}

function expectReaped(run: Awaited<ReturnType<typeof runWatched>>): void {
  const finished = events(run.stdout).filter((e) => e.type === "step.finished")
  expect(finished).toHaveLength(STEPS)
  const errors = finished.filter((e) => e.status !== "ok").map((e) => [e.step, (e.error as { code?: string } | undefined)?.code])
  expect(errors).toEqual([["slow", "TIMEOUT"], ["fails", "EXIT_CODE"]])
  expect(run.seen).toBeDefined()
  // looked while the last step ran (its process is a live child of ccode)
  expect(run.seen!.live).toBeGreaterThanOrEqual(1)
  // the running step's own processes are live; ended steps leave nothing, a zombie mid-reap at most
  expect(run.seen!.zombies).toBeLessThanOrEqual(2)
  expect(run.left).toEqual([])
}

describe("a step's processes are reaped when it ends (compiled binary)", () => {
  test.skipIf(!HAS_BWRAP)("inside the OS sandbox: 50 steps leave no zombie children behind", async () => {
    const run = await runWatched("required")
    expect(events(run.stdout).filter((e) => e.type === "decision").every((e) => e.sandboxed === true)).toBe(true)
    expectReaped(run)
  }, 180_000)

  test("without the sandbox: 50 steps leave no zombie children behind", async () => {
    const run = await runWatched("off")
    expectReaped(run)
  }, 180_000)
})
