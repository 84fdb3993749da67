// Steering a stopped or paused run: `ccode resume` takes --max-steps, --max-wall-time, --yes,
// --auto-approve and --policy; the change is the person's, recorded in the audit, and kept for later resumes.
import { describe, expect, test } from "bun:test"
import { existsSync, rmSync } from "node:fs"
import { join } from "node:path"
import { ccode, events, sandbox } from "./harness.ts"

const finished = (stdout: string) => events(stdout).find((e) => e.type === "run.finished")!

describe("ccode resume with overrides", () => {
  test("a max_steps stop goes on after --max-steps raises the limit, counted against the new limit", async () => {
    const sb = sandbox()
    try {
      sb.file("turns.yaml", [1, 2, 3, 4].map((n) => `- calls: [{ tool: shell, args: { command: "echo turn${n}" } }]`).join("\n") + "\n- calls: [{ tool: finish, args: { success: true, summary: done } }]\n")
      sb.file("task.yaml", "version: 1\nname: agent\nagent:\n  provider: replay\n  script: turns.yaml\n  goal: count\n  tools: [shell]\n")
      const first = await ccode(sb, ["run", "task.yaml", "--max-steps", "2", "--json"])
      expect([first.code, finished(first.stdout).status]).toEqual([4, "stopped"])
      const runId = String(finished(first.stdout).run)
      const bad = await ccode(sb, ["resume", runId, "--max-steps", "lots"])
      expect([bad.code, bad.stderr.includes("--max-steps takes a whole number")]).toEqual([2, true])
      const more = await ccode(sb, ["resume", runId, "--max-steps", "3", "--json"])
      expect(more.code).toBe(4)
      expect(String(finished(more.stdout).message)).toContain("3 of 3 agent turns used")
      const done = await ccode(sb, ["resume", runId, "--max-steps", "10", "--json"])
      expect([done.code, finished(done.stdout).status]).toEqual([0, "completed"])
      const audit = (await ccode(sb, ["audit", "--run", runId, "--type", "policy", "--format", "jsonl"])).stdout.trim().split("\n").map((l) => JSON.parse(l))
      expect(audit.filter((a) => a.action === "resume_override").map((a) => [a.actor, a.reason, a.data])).toEqual([
        ["user", "resumed with --max-steps 3", { max_steps: 3 }],
        ["user", "resumed with --max-steps 10", { max_steps: 10 }],
      ])
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)

  test("resume --yes decides a waiting approval again and runs it; the old request is superseded", async () => {
    const sb = sandbox()
    try {
      sb.file("t.yaml", "version: 1\nname: ap\nsteps:\n  - id: look\n    run: echo look\n  - id: make\n    needs: [look]\n    run: touch made.txt\n  - id: after\n    needs: [make]\n    run: ls made.txt\n")
      const first = await ccode(sb, ["run", "t.yaml", "--json", "--non-interactive"])
      expect(first.code).toBe(3)
      expect(existsSync(join(sb.work, "made.txt"))).toBe(false)
      const runId = String(finished(first.stdout).run)
      const plain = await ccode(sb, ["resume", runId, "--json", "--non-interactive"])
      expect(plain.code).toBe(3) // nothing changed: still waiting
      const yes = await ccode(sb, ["resume", runId, "--yes", "--json", "--non-interactive"])
      expect(yes.code).toBe(0)
      expect(events(yes.stdout).filter((e) => e.type === "step.finished").map((e) => [e.step, e.status])).toEqual([["make", "ok"], ["after", "ok"]])
      expect(existsSync(join(sb.work, "made.txt"))).toBe(true)
      const show = JSON.parse((await ccode(sb, ["runs", "show", runId, "--json"])).stdout)
      expect(show.requests.map((r: { status: string; step: string }) => [r.step, r.status])).toEqual([["make", "answered"]])
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)

  test("a wall-time stop goes on after --max-wall-time; --policy adds a layer that denies", async () => {
    const sb = sandbox()
    try {
      sb.file("w.yaml", "version: 1\nname: wall\nsteps:\n  - id: a\n    run: sleep 1.2\n  - id: b\n    needs: [a]\n    run: echo b\n  - id: c\n    needs: [b]\n    run: echo c\n")
      const policy = join(sb.root, "no-c.yaml")
      await Bun.write(policy, "version: 1\nrules:\n  - { tool: shell, command: 'echo c', decision: deny }\n")
      const first = await ccode(sb, ["run", "w.yaml", "--max-wall-time", "1s", "--json"])
      expect([first.code, String(finished(first.stdout).message)]).toEqual([4, expect.stringContaining("max_wall_time")])
      const runId = String(finished(first.stdout).run)
      const next = await ccode(sb, ["resume", runId, "--max-wall-time", "10m", "--policy", policy, "--json"])
      expect(next.code).toBe(5)
      expect(events(next.stdout).filter((e) => e.type === "step.finished").map((e) => [e.step, e.status])).toEqual([["b", "ok"], ["c", "error"]])
      expect(events(next.stdout).find((e) => e.type === "policy.warning")?.message).toBe(`resumed with --policy ${policy}, --max-wall-time 10m0s`)
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)
})
