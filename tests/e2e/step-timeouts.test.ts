// A step's timeout above the policy's tool timeout is a load-time warning naming the key to raise;
// a trusted task may go up to limits.max_tool_timeout. Limits that bound agent runs only are a
// warning on a scripted task, not silence.
import { describe, expect, test } from "bun:test"
import { rmSync } from "node:fs"
import { ccode, events, sandbox } from "./harness.ts"

const TASK = `version: 1
name: slow-suite
policy:
  limits: { tool_timeouts: { shell: 1s }, max_tool_timeout: 10s }
steps:
  - id: suite
    run: sleep 2; echo passed
    timeout: 5s
    retries: 0
`

const warnings = (stdout: string) => events(stdout).filter((e) => e.type === "policy.warning").map((e) => String(e.message))

describe("step timeouts", () => {
  test("untrusted: the step is capped, and a warning says which key to raise", async () => {
    const sb = sandbox()
    try {
      sb.file("t.yaml", TASK)
      const r = await ccode(sb, ["run", "t.yaml", "--json"])
      expect(r.code).toBe(1)
      expect(warnings(r.stdout)).toContain('step "suite": timeout 5.0s is above limits.tool_timeouts.shell (1.0s); it runs with 1.0s. To give it longer, raise limits.tool_timeouts.shell in a trusted policy (or trust this task with `ccode trust` and set limits.max_tool_timeout)')
      const step = events(r.stdout).find((e) => e.type === "step.finished")!
      expect((step.error as { code: string }).code).toBe("TIMEOUT")
      const dry = await ccode(sb, ["run", "t.yaml", "--dry-run"])
      expect(dry.stderr).toContain('step "suite": timeout 5.0s is above limits.tool_timeouts.shell')
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)

  test("trusted: the step runs with its own timeout, up to limits.max_tool_timeout", async () => {
    const sb = sandbox()
    try {
      sb.file("t.yaml", TASK)
      expect((await ccode(sb, ["trust", "t.yaml"])).code).toBe(0)
      const r = await ccode(sb, ["run", "t.yaml", "--json"])
      expect(r.code).toBe(0)
      expect(warnings(r.stdout)).toEqual([])
      expect(events(r.stdout).find((e) => e.type === "step.finished")!.output).toBe("passed\n")
      sb.file("t.yaml", TASK.replace("timeout: 5s", "timeout: 20s"))
      const over = await ccode(sb, ["run", "t.yaml", "--json", "--trust"])
      expect(warnings(over.stdout)).toContain('step "suite": timeout 20s is above limits.tool_timeouts.shell (1.0s); it runs with 10s. To give it longer, raise limits.max_tool_timeout (10s)')
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)

  test("agent-only limits on a scripted task are a load-time warning", async () => {
    const sb = sandbox()
    try {
      sb.file("t.yaml", "version: 1\npolicy:\n  limits: { max_tool_calls: 1 }\nsteps:\n  - run: echo a\n  - run: echo b\n")
      const r = await ccode(sb, ["run", "t.yaml", "--json", "--max-steps", "1"])
      expect(r.code).toBe(0)
      const w = warnings(r.stdout)
      expect(w.some((m) => m.startsWith("limits.max_tool_calls (from ") && m.includes("bounds agent runs only; this task is scripted"))).toBe(true)
      expect(w).toContain("limits.max_steps (from flag:--max-steps) bounds agent runs only; this task is scripted: its plan bounds it (each step runs at most 1 + retries times)")
      const audit = (await ccode(sb, ["audit", "--type", "policy", "--format", "jsonl"])).stdout.trim().split("\n").map((l) => JSON.parse(l))
      expect(audit.filter((a) => a.action === "load_warning").length).toBe(2)
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)

  test("an untrusted workspace policy cannot open limits.max_tool_timeout for a trusted task", async () => {
    const sb = sandbox()
    try {
      sb.file(".ccode/policy.yaml", "version: 1\nlimits: { max_tool_timeout: 1h }\n")
      sb.file("t.yaml", "version: 1\nname: slow\npolicy:\n  limits: { tool_timeouts: { shell: 1s } }\nsteps:\n  - id: suite\n    run: sleep 2\n    timeout: 5s\n    retries: 0\n")
      expect((await ccode(sb, ["trust", "t.yaml"])).code).toBe(0)
      const r = await ccode(sb, ["run", "t.yaml", "--json"])
      expect(r.code).toBe(1)
      const w = warnings(r.stdout)
      expect(w.some((m) => m.includes("limits.max_tool_timeout") && m.includes("ignored"))).toBe(true)
      expect(w.some((m) => m.startsWith('step "suite": timeout 5.0s is above limits.tool_timeouts.shell (1.0s); it runs with 1.0s'))).toBe(true)
      expect((events(r.stdout).find((e) => e.type === "step.finished")!.error as { code: string }).code).toBe("TIMEOUT")
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)
})
