import { describe, expect, test } from "bun:test"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadTask } from "../../core/task/load.ts"
import { ConfigError } from "../../core/base/yaml.ts"

function taskFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "ccode-task-"))
  const file = join(dir, "task.yaml")
  writeFileSync(file, text)
  return file
}

function problem(text: string): ConfigError {
  try {
    loadTask(taskFile(text))
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw error
  }
  throw new Error("expected a ConfigError")
}

describe("task loading", () => {
  test("steps become plan items with defaults", () => {
    const task = loadTask(taskFile("version: 1\nsteps:\n  - run: echo hi\n  - id: b\n    tool: read_file\n    with: { path: x }\n    needs: [step-1]\n"))
    expect(task.name).toBe("task")
    expect(task.steps.map((s) => [s.id, s.tool, s.needs])).toEqual([["step-1", "shell", []], ["b", "read_file", ["step-1"]]])
    expect(task.steps[0]!.args).toEqual({ command: "echo hi" })
  })

  test("an unknown key names its line and column", () => {
    const e = problem("version: 1\nsteps:\n  - id: a\n    run: echo\n    retires: 2\n")
    expect([e.line, e.col]).toEqual([5, 5])
    expect(e.message).toContain('unknown key "retires"')
  })

  test("a wrong type says what was expected", () => {
    const e = problem("steps:\n  - id: a\n    run: echo\n    retries: lots\n")
    expect(e.line).toBe(4)
    expect(e.message).toContain("steps.0.retries")
  })

  test("a duplicate step id points at the second one", () => {
    const e = problem("steps:\n  - id: a\n    run: echo 1\n  - id: a\n    run: echo 2\n")
    expect(e.line).toBe(4)
    expect(e.message).toContain('duplicate step id "a"')
  })

  test("a dependency cycle is shown as a path", () => {
    const e = problem("steps:\n  - id: a\n    run: x\n    needs: [b]\n  - id: b\n    run: y\n    needs: [a]\n")
    expect(e.message).toMatch(/dependency cycle: a -> b -> a/)
  })

  test("an unknown dependency is named", () => {
    const e = problem("steps:\n  - id: a\n    run: x\n    needs: [nope]\n")
    expect([e.line, e.message.includes('unknown step "nope"')]).toEqual([4, true])
  })

  test("invalid YAML and a missing file are config errors", () => {
    expect(problem("steps: [\n").message).toContain("invalid YAML")
    expect(() => loadTask("/nonexistent/task.yaml")).toThrow("task file not found")
  })

  test("a step needs exactly one of run or tool, a task exactly one of steps or agent", () => {
    expect(problem("steps:\n  - id: a\n").message).toContain("exactly one of `run` or `tool`")
    expect(problem("name: x\n").message).toContain("exactly one of `steps` or `agent`")
  })
})
