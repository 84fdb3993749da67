// A step's output can be read after the run: in the step.finished event, `runs show --json`,
// `runs logs`, summary.md and the end-of-run report; plugin tool results too.
import { describe, expect, test } from "bun:test"
import { readFileSync, rmSync } from "node:fs"
import { ccode, events, sandbox, spawnCcode } from "./harness.ts"

describe("outputs after the run", () => {
  test("step.finished carries the step and its redacted output, head and tail capped with the full byte count", async () => {
    const sb = sandbox()
    try {
      sb.file("t.yaml", [
        "version: 1", "name: outs", "steps:",
        "  - id: hello", "    run: echo hi; echo token=ghp_abcdefghijklmnopqrstuvwxyz0123456789 >&2",
        "  - id: big", "    needs: [hello]", "    run: 'seq 1 20000; echo boom >&2; exit 3'", "    retries: 0", "",
      ].join("\n"))
      const r = await ccode(sb, ["run", "t.yaml", "--json"])
      expect(r.code).toBe(1)
      const finished = events(r.stdout).filter((e) => e.type === "step.finished")
      expect(finished.map((e) => [e.step, e.status, e.exit_code, e.truncated])).toEqual([["hello", "ok", 0, false], ["big", "error", 3, true]])
      const hello = String(finished[0]!.output)
      expect(hello.startsWith("hi\n")).toBe(true)
      expect(hello).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123456789")
      const big = finished[1]!
      const full = Array.from({ length: 20000 }, (_, i) => `${i + 1}\n`).join("") + "boom\n"
      expect(big.bytes).toBe(Buffer.byteLength(full))
      expect(String(big.output).length).toBeLessThan(9 * 1024)
      expect(String(big.output).startsWith("1\n2\n3\n")).toBe(true)
      expect(String(big.output).endsWith("19999\n20000\nboom\n")).toBe(true)
      const runId = String(finished[0]!.run)
      const run = events(r.stdout).find((e) => e.type === "run.finished")!
      expect(run.task).toBe("outs")

      const show = JSON.parse((await ccode(sb, ["runs", "show", runId, "--json"])).stdout) as { calls: { step: string; output: string; bytes: number; truncated: boolean }[] }
      expect(show.calls.map((c) => [c.step, c.bytes, c.truncated])).toEqual([["hello", Number(finished[0]!.bytes), false], ["big", Buffer.byteLength(full), true]])
      expect(show.calls[1]!.output.endsWith("20000\nboom\n")).toBe(true)

      const logs = await ccode(sb, ["runs", "logs", runId])
      expect(logs.code).toBe(0)
      expect(logs.stdout.split("\n")[0]).toBe(`── step hello · shell · ok (exit 0) · ${logs.stdout.match(/ok \(exit 0\) · (\d+)ms/)![1]}ms ──`)
      expect(logs.stdout).toContain("── step big · shell · error (exit 3)")
      expect(logs.stdout.trimEnd().endsWith("20000\nboom")).toBe(true)
      const one = (await ccode(sb, ["runs", "logs", runId, "big", "--json"])).stdout.trim().split("\n").map((l) => JSON.parse(l))
      expect(one.map((e) => [e.step, e.status, e.exit_code])).toEqual([["big", "error", 3]])
      const human = await ccode(sb, ["runs", "show", runId])
      expect(human.stdout).toContain(`── big failed; last lines (ccode runs logs ${runId} big):\n  19997\n  19998\n  19999\n  20000\n  boom`)
      const missing = await ccode(sb, ["runs", "logs", runId, "nope"])
      expect([missing.code, missing.stderr.includes('no step or call "nope"')]).toEqual([2, true])

      const summary = readFileSync(String(run.summary_path), "utf8")
      expect(summary).toContain("## Failed steps: last lines of output")
      expect(summary).toContain("### big (shell, call 2, exit 3)")
      expect(summary).toContain("19999\n20000\nboom\n```")
      expect(summary).not.toContain("\n19980\n")
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)

  test("the end-of-run report shows the last lines of every failed step, also in a --jobs batch", async () => {
    const sb = sandbox()
    try {
      sb.file("a.yaml", "version: 1\nname: alpha\nsteps:\n  - id: compile\n    run: 'echo compiling; echo error: missing semicolon; exit 2'\n    retries: 0\n")
      sb.file("b.yaml", "version: 1\nname: beta\nsteps:\n  - id: test\n    run: 'echo 1 test failed: adds numbers; exit 1'\n    retries: 0\n")
      const r = await ccode(sb, ["run", "a.yaml", "b.yaml", "--jobs", "2", "--quiet"])
      expect(r.code).toBe(1)
      expect(r.stderr).toContain("[alpha] ── compile failed; last lines of its output")
      expect(r.stderr).toContain("[alpha]   error: missing semicolon")
      expect(r.stderr).toContain("[beta] ── test failed; last lines of its output")
      expect(r.stderr).toContain("[beta]   1 test failed: adds numbers")
      expect(r.stdout).toBe("")
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)

  test("a plugin tool's result is in its step.finished event and in runs logs", async () => {
    const sb = sandbox()
    try {
      sb.file("tools/shout.ts", `import { defineTool, z } from "ccode/plugin"
export default defineTool({
  name: "shout", description: "upper-cases text", args: z.object({ text: z.string() }), risk: "safe",
  async run({ text }) { return text === "fail" ? { text: "could not shout", error: { message: "no voice" } } : { text: text.toUpperCase() } },
})
`)
      sb.file("t.yaml", "version: 1\nplugins: [./tools/shout.ts]\nsteps:\n  - id: loud\n    tool: shout\n    with: { text: hello plugin }\n  - id: quiet\n    needs: [loud]\n    tool: shout\n    with: { text: fail }\n    retries: 0\n")
      const r = await ccode(sb, ["run", "t.yaml", "--json", "--trust"])
      expect(r.code).toBe(1)
      const finished = events(r.stdout).filter((e) => e.type === "step.finished")
      expect(finished.map((e) => [e.step, e.status, e.output])).toEqual([["loud", "ok", "HELLO PLUGIN"], ["quiet", "error", "could not shout"]])
      const logs = await ccode(sb, ["runs", "logs", String(finished[0]!.run)])
      expect(logs.stdout).toContain("── step loud · shout · ok")
      expect(logs.stdout).toContain("HELLO PLUGIN\n── step quiet · shout · error")
      expect(logs.stdout).toContain("could not shout")
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)

  test("runs logs --follow prints each step as it finishes and ends with the run", async () => {
    const sb = sandbox()
    try {
      sb.file("t.yaml", "version: 1\nname: slow\nsteps:\n  - id: one\n    run: echo first\n  - id: wait\n    needs: [one]\n    run: sleep 1.5; echo second\n")
      const run = await spawnCcode(sb, ["run", "t.yaml", "--json"])
      const reader = run.stdout.getReader()
      let seen = ""
      while (!seen.includes('"run.started"')) seen += new TextDecoder().decode((await reader.read()).value)
      const runId = String(JSON.parse(seen.split("\n")[0]!).run)
      const follow = await ccode(sb, ["runs", "logs", runId, "--follow"])
      expect(await run.exited).toBe(0)
      expect(follow.code).toBe(0)
      expect(follow.stdout).toMatch(/── step one · shell · ok \(exit 0\) · \d+ms ──\nfirst\n── step wait · shell · ok \(exit 0\) · \d+ms ──\nsecond\n$/)
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)
})
