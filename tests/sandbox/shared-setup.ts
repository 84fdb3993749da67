// The shared-sandbox tests' setup: a workspace, a run's sandbox with the runner's process table, and
// shell steps through it (tests/sandbox/shared*.test.ts).
import { afterAll } from "bun:test"
import { mkdtempSync, realpathSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { SandboxPolicy } from "../../core/policy/types.ts"
import { joinTools } from "../../core/sandbox/live.ts"
import { runSandbox, type Sandbox } from "../../core/sandbox/session.ts"
import { forget, track } from "../../core/tools/process/kill.ts"
import { bootTicks, isLive, withDescendants } from "../../core/tools/process/table.ts"
import { shell } from "../../core/tools/builtin/shell.ts"
import { executeTool } from "../../core/tools/execute.ts"
import type { ToolResult } from "../../core/tools/types.ts"

export const usable = Boolean(Bun.which("bwrap") && joinTools() && process.platform === "linux")

/** A temp root for one test file (removed, with its sandboxes closed, after the file) and its `setup`. */
export function sharedSetup() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-sbx-shared-")))
  const boxes: Sandbox[] = []
  afterAll(async () => {
    for (const box of boxes) await box.close()
    rmSync(root, { recursive: true, force: true })
  })
  function setup(extra: Partial<SandboxPolicy> = {}) {
    const ws = realpathSync(mkdtempSync(join(root, "ws-")))
    const policy: SandboxPolicy = { mode: "required", network: "none", writable: [], hidden: [], read_only: [], preview: false, ...extra }
    const sandbox = runSandbox({ status: { mode: "required", bwrap: Bun.which("bwrap")!, notes: [] }, policy, protectedGlobs: [], workspace: ws, home: join(root, "home"), runDir: join(ws, ".run"), processes: { track, forget, bootTicks, isLive, withDescendants } })!
    boxes.push(sandbox)
    const run = (command: string, timeoutMs = 20_000, signal?: AbortSignal): Promise<ToolResult> =>
      executeTool(shell, { command }, { cwd: ws, workspace: ws, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, runId: "r", callId: `c-${crypto.randomUUID()}`, confine: true, timeoutMs, idleTimeoutMs: timeoutMs, sandbox, signal })
    /** the step ran joined to the shared sandbox: its pid 1 is the holder, not a bwrap of its own */
    const joined = async () => (await run("tr '\\0' ' ' < /proc/1/cmdline")).text.includes("__sandbox-hold")
    /** run steps until one is joined (the live sandbox starts at the second call with the same layout) */
    const warm = async () => {
      for (let i = 0; i < 40; i++) {
        if (await joined()) return true
        await Bun.sleep(50)
      }
      return false
    }
    return { ws, sandbox, run, joined, warm }
  }
  return { root, setup }
}
