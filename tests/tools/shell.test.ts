import { describe, expect, test } from "bun:test"
import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { shell } from "../../core/tools/builtin/shell.ts"
import { editFileTool, readFileTool, writeFileTool } from "../../core/tools/builtin/files.ts"
import { executeTool, type ExecuteOptions } from "../../core/tools/execute.ts"

function options(workspace: string, overrides: Partial<ExecuteOptions> = {}): ExecuteOptions {
  return { cwd: workspace, workspace, env: { PATH: process.env.PATH ?? "" }, runId: "r", callId: "c", confine: true, timeoutMs: 10_000, idleTimeoutMs: 10_000, ...overrides }
}

function processGone(pid: number): boolean {
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"))
  } catch {
    return true
  }
}

describe("shell tool", () => {
  test("returns combined output and the exit code in the envelope", async () => {
    const ws = mkdtempSync(join(tmpdir(), "ccode-sh-"))
    const ok = await executeTool(shell, { command: "echo out; echo err >&2" }, options(ws))
    expect(ok.status).toBe("ok")
    expect(ok.text.split("\n").sort()).toEqual(["", "err", "out"])
    const bad = await executeTool(shell, { command: "exit 7" }, options(ws))
    expect([bad.status, bad.error?.code, (bad.data as { exit_code: number }).exit_code]).toEqual(["error", "EXIT_CODE", 7])
  })

  test("a timeout kills the whole process group, background children included", async () => {
    const ws = mkdtempSync(join(tmpdir(), "ccode-sh-"))
    const result = await executeTool(shell, { command: "sleep 1000 & echo $! > child.pid; wait" }, options(ws, { timeoutMs: 800 }))
    expect(result.error?.code).toBe("TIMEOUT")
    const child = Number(readFileSync(join(ws, "child.pid"), "utf8"))
    await Bun.sleep(500)
    expect(processGone(child)).toBe(true)
  })

  test("an idle command is killed by the idle timeout", async () => {
    const ws = mkdtempSync(join(tmpdir(), "ccode-sh-"))
    const result = await executeTool(shell, { command: "echo start; sleep 30" }, options(ws, { idleTimeoutMs: 600 }))
    expect(result.error?.code).toBe("IDLE_TIMEOUT")
    expect(result.text).toContain("start")
  })

  test("invalid arguments are a param error, never a crash", async () => {
    const result = await executeTool(shell, { cmd: "ls" }, options(tmpdir()))
    expect([result.status, result.error?.type, result.error?.code]).toEqual(["error", "param", "INVALID_PARAM"])
  })

  test("large output is capped to head and tail with a marker", async () => {
    const ws = mkdtempSync(join(tmpdir(), "ccode-sh-"))
    const result = await executeTool(shell, { command: "seq 1 100000" }, options(ws))
    expect(result.text.length).toBeLessThan(70_000)
    expect(result.text.startsWith("1\n2\n")).toBe(true)
    expect(result.text.trimEnd().endsWith("100000")).toBe(true)
    expect(result.text).toContain("characters omitted")
    expect(result.stats.bytes).toBeGreaterThan(500_000)
  })
})

describe("file tools stay inside the workspace", () => {
  test("../ escapes and symlinks pointing outside are refused with a clear error", async () => {
    const ws = mkdtempSync(join(tmpdir(), "ccode-ws-"))
    symlinkSync("/etc", join(ws, "etc-link"))
    const up = await executeTool(readFileTool, { path: "../../../../etc/passwd" }, options(ws))
    expect(up.error?.code).toBe("OUTSIDE_WORKSPACE")
    expect(up.error?.message).toContain("outside the workspace")
    const viaLink = await executeTool(readFileTool, { path: "etc-link/passwd" }, options(ws))
    expect(viaLink.error?.code).toBe("OUTSIDE_WORKSPACE")
    expect(viaLink.error?.message).toContain("resolves to /etc/passwd")
    const write = await executeTool(writeFileTool, { path: "etc-link/evil", content: "x" }, options(ws))
    expect(write.error?.code).toBe("OUTSIDE_WORKSPACE")
    expect(existsSync("/etc/evil")).toBe(false)
  })

  test("write creates folders; edit needs an exact, unique match", async () => {
    const ws = mkdtempSync(join(tmpdir(), "ccode-ws-"))
    expect((await executeTool(writeFileTool, { path: "a/b/c.txt", content: "x = 1\nx = 1\n" }, options(ws))).status).toBe("ok")
    const ambiguous = await executeTool(editFileTool, { path: "a/b/c.txt", old_string: "x = 1", new_string: "x = 2" }, options(ws))
    expect(ambiguous.error?.code).toBe("AMBIGUOUS_MATCH")
    const missing = await executeTool(editFileTool, { path: "a/b/c.txt", old_string: "y", new_string: "z" }, options(ws))
    expect(missing.error?.code).toBe("NO_MATCH")
    const all = await executeTool(editFileTool, { path: "a/b/c.txt", old_string: "x = 1", new_string: "x = $&2", replace_all: true }, options(ws))
    expect(all.status).toBe("ok")
    expect(readFileSync(join(ws, "a/b/c.txt"), "utf8")).toBe("x = $&2\nx = $&2\n")
  })

  test("read_file honours offset and limit", async () => {
    const ws = mkdtempSync(join(tmpdir(), "ccode-ws-"))
    writeFileSync(join(ws, "f.txt"), "one\ntwo\nthree\nfour\n")
    const result = await executeTool(readFileTool, { path: "f.txt", offset: 2, limit: 2 }, options(ws))
    expect(result.text).toBe("two\nthree\n")
  })
})
