// A thread's environment is its process's: /proc/PID/task/TID/environ, /proc/thread-self/environ and
// /dev/fd/../task/*/environ (/dev/fd is /proc/self/fd) print the same secrets as /proc/PID/environ.
// A Claude Read of them, and a shell command reading them, ask under the bundled policies.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { rmSync } from "node:fs"
import { policyCheck, ccode, sandbox, type Sandbox } from "./harness.ts"

describe("round 3 /proc environ spellings", () => {
  let sb: Sandbox
  beforeAll(() => {
    sb = sandbox()
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  const read = async (path: string) => {
    const stdin = JSON.stringify({ session_id: "s1", hook_event_name: "PreToolUse", tool_name: "Read", tool_input: { file_path: path }, cwd: sb.work })
    const r = await ccode(sb, ["hook", "claude"], { stdin })
    expect(r.code).toBe(0)
    return JSON.parse(r.stdout).hookSpecificOutput as { permissionDecision: string; permissionDecisionReason: string }
  }
  const check = (command: string) => policyCheck(sb, command)

  test("the spellings are real: a thread's environ holds the process's environment", () => {
    const env = { ...sb.env, R3_PROBE: "thread-env-probe" }
    // bash expands the glob in its own process, then exec makes cat that process (/dev/fd/.. is /proc/PID)
    for (const script of ["cat /proc/thread-self/environ", "exec cat /dev/fd/../task/*/environ", "cat /proc/$$/task/$$/environ"]) {
      expect(Bun.spawnSync(["bash", "-c", script], { env }).stdout.toString()).toContain("thread-env-probe")
    }
  })

  test.each(["/proc/thread-self/environ", "/proc/1/task/1/environ", "/proc/self/task/123/environ"])("a Claude Read of %s asks", async (path) => {
    const out = await read(path)
    expect(out.permissionDecision).toBe("ask")
    expect(out.permissionDecisionReason).toContain("environ")
  })

  test.each([
    "cat /proc/*/task/*/environ",
    "cat /proc/1/task/1/environ",
    "grep -a KEY /proc/*/task/*/environ",
    'tr "\\0" "\\n" < /proc/thread-self/environ',
    "cat /dev/fd/../task/*/environ",
    "cat /dev/fd/../environ",
  ])("%s asks, high", async (command) => {
    const d = await check(command)
    expect([d.decision, d.risk]).toEqual(["ask", "high"])
    expect(d.reason).toContain("environ")
  })

  test("a workspace asking for strict keeps them high", async () => {
    sb.file(".ccode/policy.yaml", "extends: strict\n")
    try {
      const out = await read("/proc/1/task/1/environ")
      expect(out.permissionDecision).toBe("ask")
      const d = await check("cat /proc/*/task/*/environ")
      expect([d.decision, d.risk]).toEqual(["ask", "high"])
    } finally {
      rmSync(`${sb.work}/.ccode/policy.yaml`)
    }
  })
})
