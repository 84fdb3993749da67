// Asking a person from a scripted run: pause + approve/deny + resume, on_ask deny, grants for the run.
import { describe, expect, test } from "bun:test"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { binary, ccode, events, sandbox, type Sandbox } from "./harness.ts"

const POLICY = (onAsk: string) => `version: 1
approval: { mode: auto, threshold: high, on_ask: ${onAsk} }
rules:
  - id: confirm-deploys
    tool: shell
    command: "echo deploy *"
    decision: ask
    reason: deploys need a person
`

function setup(onAsk: string, steps: string): Sandbox {
  const sb = sandbox()
  sb.file("policy.yaml", POLICY(onAsk))
  sb.file("task.yaml", `version: 1\nsteps:\n${steps}`)
  return sb
}

const log = (sb: Sandbox) => (existsSync(join(sb.work, "log.txt")) ? readFileSync(join(sb.work, "log.txt"), "utf8").split("\n").filter(Boolean) : [])

describe("approvals without a terminal", () => {
  test("an ask pauses with exit 3; approve + resume runs the call exactly once", async () => {
    const sb = setup("pause", "  - id: build\n    run: echo built >> log.txt\n  - id: deploy\n    needs: [build]\n    run: echo deploy prod >> log.txt\n")
    const first = await ccode(sb, ["run", "task.yaml", "--policy", "policy.yaml", "--json"])
    expect(first.code).toBe(3)
    const evs = events(first.stdout)
    const decision = evs.find((e) => e.type === "decision" && e.decision === "ask")!
    expect(decision.rules).toEqual([expect.objectContaining({ id: "confirm-deploys" })])
    const req = evs.find((e) => e.type === "request.created")!
    expect(req).toMatchObject({ kind: "approval", tool: "shell", risk: expect.any(String) })
    expect(log(sb)).toEqual(["built"])
    expect((await ccode(sb, ["approve", String(req.run), String(req.req)])).code).toBe(0)
    const second = await ccode(sb, ["resume", String(req.run), "--json"])
    expect(second.code).toBe(0)
    expect(log(sb)).toEqual(["built", "deploy prod"])
    const decided = events(second.stdout).find((e) => e.type === "decision")!
    expect(decided).toMatchObject({ decision: "allow", by: "user" })
  }, 60_000)

  test("ccode deny + resume: the step is refused, the run exits 5 and says why", async () => {
    const sb = setup("pause", "  - id: deploy\n    run: echo deploy prod >> log.txt\n")
    const first = await ccode(sb, ["run", "task.yaml", "--policy", "policy.yaml", "--json"])
    const req = events(first.stdout).find((e) => e.type === "request.created")!
    expect((await ccode(sb, ["deny", String(req.run), String(req.req), "--reason", "not on a Friday"])).code).toBe(0)
    const second = await ccode(sb, ["resume", String(req.run), "--json"])
    expect(second.code).toBe(5)
    expect(events(second.stdout).at(-1)).toMatchObject({ type: "run.finished", status: "denied", exit_code: 5 })
    expect(String(events(second.stdout).at(-1)!.message)).toContain("not on a Friday")
    expect(log(sb)).toEqual([])
  }, 60_000)

  test("on_ask: deny refuses the call with the reason and the rest of the run goes on", async () => {
    const sb = setup("deny", "  - id: deploy\n    run: echo deploy prod >> log.txt\n  - id: docs\n    run: echo docs >> log.txt\n")
    const result = await ccode(sb, ["run", "task.yaml", "--policy", "policy.yaml", "--json"])
    expect(result.code).toBe(5)
    const finished = events(result.stdout).filter((e) => e.type === "step.finished")
    expect(finished.map((e) => e.status)).toEqual(["error", "ok"])
    expect((finished[0]!.error as { code: string }).code).toBe("DENIED")
    expect(log(sb)).toEqual(["docs"])
  }, 60_000)

  test("approve --for-run: a similar call later in the run is not asked again", async () => {
    const sb = sandbox()
    // sandboxed_threshold low: inside the OS sandbox a medium write would not be asked about at all
    sb.file("policy.yaml", "version: 1\napproval: { mode: auto, threshold: low, sandboxed_threshold: low, on_ask: pause }\n")
    sb.file("task.yaml", "version: 1\nsteps:\n  - id: one\n    run: touch a.txt\n  - id: two\n    needs: [one]\n    run: touch b.txt\n")
    const first = await ccode(sb, ["run", "task.yaml", "--policy", "policy.yaml", "--json"])
    expect(first.code).toBe(3)
    const req = events(first.stdout).find((e) => e.type === "request.created")!
    expect((await ccode(sb, ["approve", String(req.run), String(req.req), "--for-run"])).code).toBe(0)
    const second = await ccode(sb, ["resume", String(req.run), "--json"])
    expect(second.code).toBe(0)
    const decisions = events(second.stdout).filter((e) => e.type === "decision")
    expect(decisions.map((d) => [d.decision, d.by])).toEqual([["allow", "user"], ["allow", "grant"]])
    expect(events(second.stdout).some((e) => e.type === "request.created")).toBe(false)
    expect(existsSync(join(sb.work, "b.txt"))).toBe(true)
  }, 60_000)

  test("approving a request that does not exist, or twice, is exit 2 and changes nothing", async () => {
    const sb = setup("pause", "  - id: deploy\n    run: echo deploy prod >> log.txt\n")
    const first = await ccode(sb, ["run", "task.yaml", "--policy", "policy.yaml", "--json"])
    const req = events(first.stdout).find((e) => e.type === "request.created")!
    const wrong = await ccode(sb, ["approve", String(req.run), "q-nope"])
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toContain("has no request q-nope")
    expect((await ccode(sb, ["approve", String(req.run), String(req.req)])).code).toBe(0)
    const again = await ccode(sb, ["approve", String(req.run), String(req.req)])
    expect([again.code, again.stderr.includes("already approved")]).toEqual([2, true])
  }, 60_000)
})

describe("Ctrl-C at an approval prompt", () => {
  test("pauses the run: exit 130, the request stays open, approve + resume runs the call once", async () => {
    const sb = sandbox()
    sb.file("task.yaml", "version: 1\nsteps:\n  - id: risky\n    run: rm -rf build && echo risky >> log.txt\n  - id: after\n    needs: [risky]\n    run: echo after\n")
    const env = { ...sb.env, TERM: "xterm", CCODE_PANEL: "0" } // the line prompt (the panel: panel.test.ts)
    const driver = join(import.meta.dir, "..", "fixtures", "pty-ctrl-c.py")
    const proc = Bun.spawn(["python3", driver, sb.work, "Allow this call?", "--", await binary(), "run", "task.yaml"], { env, stdout: "pipe", stderr: "pipe" })
    const printed = await new Response(proc.stdout).text()
    await proc.exited
    expect(printed).toContain("EXIT 130 PRESSED True")
    const ls = JSON.parse((await ccode(sb, ["runs", "ls", "--json"])).stdout) as { id: string; status: string }[]
    expect(ls.map((r) => r.status)).toEqual(["interrupted"])
    const show = JSON.parse((await ccode(sb, ["runs", "show", ls[0]!.id, "--json"])).stdout) as { requests: { kind: string; status: string }[] }
    expect(show.requests.map((r) => [r.kind, r.status])).toEqual([["approval", "pending"]])
    expect(existsSync(join(sb.work, "log.txt"))).toBe(false)
    expect((await ccode(sb, ["approve", ls[0]!.id, "--all"])).code).toBe(0)
    expect((await ccode(sb, ["resume", ls[0]!.id])).code).toBe(0)
    expect(readFileSync(join(sb.work, "log.txt"), "utf8")).toBe("risky\n")
  }, 90_000)
})
