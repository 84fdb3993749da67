// The README's quick start, as a user runs it: at a terminal (answering the prompts) and in CI.
import { describe, expect, test } from "bun:test"
import { cpSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { atTerminalPressingEnter, ccode, events, sandbox } from "./harness.ts"

const EXAMPLE = join(import.meta.dir, "..", "..", "examples", "quickstart")

function quickstart() {
  const sb = sandbox()
  cpSync(EXAMPLE, join(sb.work, "quickstart"), { recursive: true })
  return sb
}

describe("quickstart", () => {
  test("at a terminal: the person presses Enter at each prompt and the run completes with exit 0", async () => {
    const sb = quickstart()
    // Enter picks the first choice at each prompt (allow once / continue)
    const { code, output } = await atTerminalPressingEnter(sb, "run quickstart/task.yaml")
    expect(output).toContain("Allow this call?")
    expect(output).toContain("Breakpoint before step")
    expect(output).toMatch(/completed/)
    expect(code).toBe(0)
    expect(readFileSync(join(sb.work, "quickstart", ".quickstart", "note.txt"), "utf8")).toBe("written by the ccode quickstart\n")
  }, 60_000)

  test("without a terminal: pauses for the write and the breakpoint, completes after approvals", async () => {
    const sb = quickstart()
    let result = await ccode(sb, ["run", "quickstart/task.yaml", "--json"])
    const runId = String(events(result.stdout)[0]!.run)
    const kinds: string[] = []
    for (let i = 0; i < 5 && result.code === 3; i++) {
      kinds.push(...events(result.stdout).filter((e) => e.type === "request.created").map((e) => String(e.kind)))
      expect((await ccode(sb, ["approve", runId, "--all"])).code).toBe(0)
      result = await ccode(sb, ["resume", runId, "--json"])
    }
    expect(result.code).toBe(0)
    expect(kinds).toEqual(["approval", "breakpoint"])
    const show = JSON.parse((await ccode(sb, ["runs", "show", runId, "--json"])).stdout)
    const states = Object.fromEntries(show.plan.map((p: { id: string; state: string }) => [p.id, p.state]))
    expect(states).toEqual({ "look-around": "done", "read-task": "done", "flaky-check": "done", "write-note": "done", "force-push": "failed", report: "done" })
    const flaky = show.plan.find((p: { id: string }) => p.id === "flaky-check")
    expect(flaky.attempts).toBe(2)
    const push = show.calls.find((c: { step: string }) => c.step === "force-push")
    expect([push.decision, push.status]).toEqual(["deny", "denied"])
  }, 60_000)
})
