// examples/makefile: the task that replaces a small Makefile builds, tests and packages, and
// explains a failure with its `if: failure()` step.
import { describe, expect, test } from "bun:test"
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { ccode, events, sandbox } from "./harness.ts"

const EXAMPLE = join(import.meta.dir, "..", "..", "examples", "makefile")

describe("examples/makefile", () => {
  test("builds, tests and packages with an input, then a broken source runs only the failure step", async () => {
    const sb = sandbox()
    try {
      cpSync(EXAMPLE, sb.work, { recursive: true })
      const r = await ccode(sb, ["run", "task.yaml", "--var", "version=2.0.0", "--json", "--non-interactive"])
      expect(r.code).toBe(0)
      const done = events(r.stdout).filter((e) => e.type === "step.finished").map((e) => [e.step, e.status])
      expect(done).toEqual([["build", "ok"], ["test", "ok"], ["package", "ok"], ["report", "ok"]])
      expect(events(r.stdout).filter((e) => e.type === "step.skipped").map((e) => e.step)).toEqual(["clean", "explain-failure"])
      const report = events(r.stdout).filter((e) => e.type === "step.finished").at(-1)!
      expect(report.output).toBe("packed dist/app-2.0.0.tar.gz from 3 lines\n")
      expect(existsSync(join(sb.work, "dist", "app-2.0.0.tar.gz"))).toBe(true)

      writeFileSync(join(sb.work, "src", "20-main.sh"), 'greet "someone else"\n')
      const broken = await ccode(sb, ["run", "task.yaml", "--json", "--non-interactive"])
      expect(broken.code).toBe(1)
      const ran = events(broken.stdout).filter((e) => e.type === "step.finished").map((e) => [e.step, e.status])
      expect(ran.filter(([step]) => step !== "test")).toEqual([["build", "ok"], ["explain-failure", "ok"]])
      const explained = events(broken.stdout).filter((e) => e.type === "step.finished" && e.step === "explain-failure")[0]!
      expect(explained.output).toBe("build failed, test outcome failure; see ccode runs logs\n")
      expect(existsSync(join(sb.work, "dist", "app-0.1.0.tar.gz"))).toBe(false)
      expect(readFileSync(join(sb.work, "dist", "app"), "utf8")).toContain("someone else")
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 120_000)
})
