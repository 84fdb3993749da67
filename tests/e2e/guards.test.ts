// Guards through the compiled binary, driven by replayed model turns and scripted plans: a doom loop,
// a circuit breaker, wall time across kill -9 + resume, an external edit, an idle process, a raised limit.
import { describe, expect, test } from "bun:test"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { stringify } from "yaml"
import { ccode, events, sandbox, spawnCcode, waitFor, type Sandbox } from "./harness.ts"

type Turn = { text?: string; calls?: { tool: string; args: Record<string, unknown> }[] }
const shell = (command: string, extra: Record<string, unknown> = {}) => ({ tool: "shell", args: { command, ...extra } })

/** A replay agent task with a trusted policy file (passed with --policy) that auto-approves up to high. */
function replayTask(sb: Sandbox, turns: Turn[], policy: Record<string, unknown> = {}): void {
  sb.file("turns.yaml", stringify(turns))
  sb.file("policy.yaml", stringify({ version: 1, approval: { mode: "auto", threshold: "high" }, ...policy }))
  sb.file("task.yaml", stringify({ version: 1, name: "guarded", agent: { provider: "replay", script: "turns.yaml", goal: "exercise the guards" } }))
}

const guardEvents = (stdout: string) => events(stdout).filter((e) => e.type === "guard")

describe("guards (compiled binary)", () => {
  test("a doom loop stops the run with exit 4 and shows the repeated calls", async () => {
    const sb = sandbox()
    const again = { text: "Let me look at it again.", calls: [shell("cat missing.txt")] }
    replayTask(sb, [again, again, again, again, again, { calls: [{ tool: "finish", args: { success: true, summary: "never reached" } }] }])
    const result = await ccode(sb, ["run", "task.yaml", "--policy", "policy.yaml", "--json"])
    expect(result.code).toBe(4)
    const [guard] = guardEvents(result.stdout)
    expect(guard).toMatchObject({ guard: "loop" })
    expect(["repeat", "error_repeat"]).toContain(String(guard!.loop_type))
    expect(String(guard!.reason)).toContain("missing.txt")
    expect(events(result.stdout).at(-1)).toMatchObject({ type: "run.finished", status: "stopped", exit_code: 4 })
    // the calls after the third are never run
    expect(events(result.stdout).filter((e) => e.type === "step.finished")).toHaveLength(3)
  }, 60_000)

  test("a breaker opens after 3 failures and the replayed model's next call to that tool is refused", async () => {
    const sb = sandbox()
    replayTask(sb, [
      { calls: [shell("sleep 5", { timeout: "200ms" })] },
      { calls: [shell("sleep 6", { timeout: "200ms" })] },
      { calls: [shell("sleep 7", { timeout: "200ms" })] },
      { text: "Trying once more.", calls: [shell("echo still here")] },
      { calls: [{ tool: "finish", args: { success: false, summary: "the shell is disabled" } }] },
    ], { limits: { max_noop_iterations: 10 } }) // three timeouts in a row are also a stall; this test is about the breaker
    const result = await ccode(sb, ["run", "task.yaml", "--policy", "policy.yaml", "--json"])
    const evs = events(result.stdout)
    const breaker = evs.filter((e) => e.type === "breaker")
    expect(breaker.map((e) => [e.tool, e.from, e.to])).toEqual([["shell", "closed", "open"]])
    const codes = evs.filter((e) => e.type === "step.finished").map((e) => (e.error as { code?: string } | null)?.code ?? "ok")
    expect(codes).toEqual(["TIMEOUT", "TIMEOUT", "TIMEOUT", "CIRCUIT_OPEN", "ok"])
    expect(result.code).toBe(1) // the model gave up with finish(success: false)
  }, 60_000)

  test("max_wall_time counts time spent before a kill -9: after resume the limit stops the run", async () => {
    const sb = sandbox()
    sb.file("policy.yaml", stringify({ version: 1, approval: { mode: "auto", threshold: "high" }, limits: { max_wall_time: "4s", tool_timeout: "30s" } }))
    sb.file("task.yaml", stringify({ version: 1, steps: [
      { id: "first", run: "sleep 2.5; echo first >> log.txt" },
      { id: "second", needs: ["first"], run: "echo second-start >> log.txt; sleep 2.5; echo second >> log.txt" },
      { id: "third", needs: ["second"], run: "echo third >> log.txt" },
    ] }))
    const proc = await spawnCcode(sb, ["run", "task.yaml", "--policy", "policy.yaml", "--non-interactive"])
    const log = join(sb.work, "log.txt")
    await waitFor(async () => (await Bun.file(log).exists()) && (await Bun.file(log).text()).includes("second-start"))
    proc.kill("SIGKILL")
    await proc.exited
    // the step in flight is re-run (approved), taking the run past 4 s of wall time in total
    const resumed = await ccode(sb, ["resume", "--last", "--approve-all", "--json"])
    expect(resumed.code).toBe(4)
    const [guard] = guardEvents(resumed.stdout)
    expect(guard).toMatchObject({ guard: "limit" })
    expect(String(guard!.reason)).toContain("max_wall_time")
    expect((await Bun.file(log).text()).split("\n").filter(Boolean)).not.toContain("third")
  }, 60_000)

  test("an edit made outside ccode between steps stops the run and names the file; resume accepts it", async () => {
    const sb = sandbox()
    sb.file("notes.txt", "mine\n")
    sb.file("task.yaml", stringify({ version: 1, steps: [
      { id: "first", run: "echo one > out.txt" },
      { id: "gate", needs: ["first"], breakpoint: true, run: "echo two >> out.txt" },
    ] }))
    const paused = await ccode(sb, ["run", "task.yaml", "--yes", "--json"])
    expect(paused.code).toBe(3)
    const runId = String(events(paused.stdout)[0]!.run)
    writeFileSync(join(sb.work, "notes.txt"), "edited by a person\n")
    expect((await ccode(sb, ["approve", runId, "--all"])).code).toBe(0)
    const stopped = await ccode(sb, ["resume", runId, "--json"])
    expect(stopped.code).toBe(4)
    const [guard] = guardEvents(stopped.stdout)
    expect(guard).toMatchObject({ guard: "external_change" })
    expect(guard!.evidence).toMatchObject({ modified: ["notes.txt"] })
    const done = await ccode(sb, ["resume", runId, "--json"])
    expect(done.code).toBe(0)
  }, 60_000)

  test("a command that prints nothing for idle_timeout is killed", async () => {
    const sb = sandbox()
    sb.file("policy.yaml", stringify({ version: 1, approval: { mode: "auto", threshold: "high" }, limits: { idle_timeout: "500ms", tool_timeout: "1m" } }))
    sb.file("task.yaml", stringify({ version: 1, steps: [{ id: "quiet", run: "echo starting; sleep 30", retries: 0 }] }))
    const started = Date.now()
    const result = await ccode(sb, ["run", "task.yaml", "--policy", "policy.yaml", "--json"])
    expect(result.code).toBe(1)
    expect(Date.now() - started).toBeLessThan(20_000)
    const finished = events(result.stdout).find((e) => e.type === "step.finished")!
    expect((finished.error as { code: string }).code).toBe("IDLE_TIMEOUT")
  }, 60_000)

  test("a run stopped by max_steps continues on resume once the limit is raised", async () => {
    const sb = sandbox()
    const turn = (i: number) => ({ text: `turn ${i}`, calls: [shell(`echo turn-${i} >> turns.txt`)] })
    replayTask(sb, [turn(1), turn(2), turn(3), { calls: [{ tool: "finish", args: { success: true, summary: "done" } }] }])
    // the policy lives outside the workspace: editing a file inside it would (rightly) be an external change
    const policy = join(sb.root, "limits.yaml")
    const limits = (max: number) => writeFileSync(policy, stringify({ version: 1, approval: { mode: "auto", threshold: "high" }, limits: { max_steps: max } }))
    limits(2)
    const stopped = await ccode(sb, ["run", "task.yaml", "--policy", policy, "--json"])
    expect(stopped.code).toBe(4)
    expect(String(guardEvents(stopped.stdout)[0]!.reason)).toContain("max_steps")
    limits(10)
    const resumed = await ccode(sb, ["resume", "--last", "--json"])
    expect(resumed.code).toBe(0)
    expect((await Bun.file(join(sb.work, "turns.txt")).text()).trim().split("\n")).toEqual(["turn-1", "turn-2", "turn-3"])
  }, 60_000)
})
