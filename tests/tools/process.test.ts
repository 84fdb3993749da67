import { afterEach, describe, expect, test } from "bun:test"
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runSandbox } from "../../core/sandbox/session.ts"
import { shell } from "../../core/tools/builtin/shell.ts"
import { executeTool, type ExecuteOptions } from "../../core/tools/execute.ts"
import { OutputWindow } from "../../core/tools/process/capture.ts"
import { taggedProcesses } from "../../core/tools/process/table.ts"

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function workspace(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "ccode-proc-")))
  dirs.push(dir)
  return dir
}

function options(ws: string, overrides: Partial<ExecuteOptions> = {}): ExecuteOptions {
  return { cwd: ws, workspace: ws, env: { PATH: process.env.PATH ?? "" }, runId: "r", callId: `c-${crypto.randomUUID()}`, confine: true, timeoutMs: 20_000, idleTimeoutMs: 20_000, ...overrides }
}

function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, "utf8"))
  } catch {
    return false
  }
}

describe("a step's processes end with the step", () => {
  test("a background child holding stdout does not hold the step: the real exit status is kept", async () => {
    const ws = workspace()
    const started = performance.now()
    const result = await executeTool(shell, { command: "sleep 5 & echo $! > bg.pid; echo done" }, options(ws))
    expect(performance.now() - started).toBeLessThan(3000)
    expect([result.status, (result.data as { exit_code: number }).exit_code]).toEqual(["ok", 0])
    expect(result.text).toContain("done")
    expect(alive(Number(readFileSync(join(ws, "bg.pid"), "utf8")))).toBe(false)
  })

  test("a setsid escape is found and killed at step end, without waiting for the timeout", async () => {
    const ws = workspace()
    const opts = options(ws)
    const started = performance.now()
    const result = await executeTool(shell, { command: `(setsid bash -c 'echo $$ > esc.pid; exec sleep 100' &) ; sleep 0.3; echo ok` }, opts)
    expect(performance.now() - started).toBeLessThan(5000)
    expect(result.status).toBe("ok")
    const pid = Number(readFileSync(join(ws, "esc.pid"), "utf8"))
    expect(alive(pid)).toBe(false)
    expect(taggedProcesses(opts.callId)).toEqual([])
  })

  test("a double-forked setsid escape that closed its output is killed too", async () => {
    const ws = workspace()
    const opts = options(ws)
    const result = await executeTool(shell, { command: `setsid bash -c 'sleep 100 </dev/null >/dev/null 2>&1 & echo $! > esc.pid' ; sleep 0.3` }, opts)
    expect(result.status).toBe("ok")
    expect(alive(Number(readFileSync(join(ws, "esc.pid"), "utf8")))).toBe(false)
    expect(taggedProcesses(opts.callId)).toEqual([])
  })

  test("an escape that drops its CCODE_CALL_ID tag is still found (ccode inherited it) and killed", async () => {
    const ws = workspace()
    const result = await executeTool(shell, { command: `(env -u CCODE_CALL_ID setsid bash -c 'echo $$ > esc.pid; exec sleep 100' &) ; sleep 0.3; echo ok` }, options(ws))
    expect(result.status).toBe("ok")
    await Bun.sleep(50)
    expect(alive(Number(readFileSync(join(ws, "esc.pid"), "utf8")))).toBe(false)
  })

  test("on timeout a TERM-ignoring child and a setsid escape are both killed", async () => {
    const ws = workspace()
    const opts = options(ws, { timeoutMs: 700 })
    const result = await executeTool(shell, { command: `(setsid sleep 100 &); bash -c 'trap "" TERM; echo $$ > stubborn.pid; while :; do sleep 0.1; done'` }, opts)
    expect(result.error?.code).toBe("TIMEOUT")
    await Bun.sleep(100)
    expect(alive(Number(readFileSync(join(ws, "stubborn.pid"), "utf8")))).toBe(false)
    expect(taggedProcesses(opts.callId)).toEqual([])
  })

  test("the main process's exit status and group id are reported as they happen", async () => {
    const ws = workspace()
    const seen: string[] = []
    const result = await executeTool(shell, { command: "exit 3" }, options(ws, { onProcess: ({ pgid }) => seen.push(`pgid ${pgid > 1}`), onExit: (code) => seen.push(`exit ${code}`) }))
    expect(seen).toEqual(["pgid true", "exit 3"])
    expect(result.error?.code).toBe("EXIT_CODE")
  })

  test("a cancel that arrives after the command exited keeps the command's real result", async () => {
    const ws = workspace()
    const cancel = new AbortController()
    const result = await executeTool(shell, { command: "sleep 5 & echo finished" }, options(ws, { signal: cancel.signal, onExit: () => cancel.abort("interrupted") }))
    expect([result.status, (result.data as { exit_code: number }).exit_code]).toEqual(["ok", 0])
  })

  test("a cancel while the command runs ends it as interrupted", async () => {
    const ws = workspace()
    const cancel = new AbortController()
    setTimeout(() => cancel.abort("interrupted"), 300)
    const result = await executeTool(shell, { command: "sleep 30" }, options(ws, { signal: cancel.signal }))
    expect(result.error?.code).toBe("INTERRUPTED")
  })
})

/** Processes started with CCODE_CALL_ID=<tag> that can still run code (not gone, not a zombie, not being ended by the kernel). */
function runningWithTag(tag: string): number[] {
  const out: number[] = []
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const env = `\0${readFileSync(`/proc/${entry}/environ`, "latin1")}`
      if (!env.includes(`\0CCODE_CALL_ID=${tag}\0`)) continue
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ")
      if (fields[0] !== "Z" && fields[0] !== "X" && (Number(fields[6]) & 0x4) === 0) out.push(Number(entry))
    } catch {
      // gone
    }
  }
  return out
}

/**
 * This process's zombie children named `name` once it has no child of that name left at all, or when
 * 2 s have passed: a sandbox's init still dropping its namespaces when its step ended is reaped when it
 * becomes a zombie, a moment later (and a zombie reaped stays gone, so no later look can find it).
 */
async function zombiesGone(name: string): Promise<number[]> {
  for (let i = 0; i < 100 && childrenNamed(name).length; i++) await Bun.sleep(20)
  return childrenNamed(name).filter((c) => c.state === "Z").map((c) => c.pid)
}

/** This process's children named `name`, with their state (Z: a zombie, what a step left for ccode to reap). */
function childrenNamed(name: string): { pid: number; state: string }[] {
  const out: { pid: number; state: string }[] = []
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8")
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      if (Number(ppid) === process.pid && stat.includes(`(${name})`)) out.push({ pid: Number(entry), state: state! })
    } catch {
      // gone
    }
  }
  return out
}

describe.skipIf(!Bun.which("bwrap"))("a sandboxed step's processes are reaped when it ends", () => {
  function sandboxOf(ws: string) {
    const policy = { mode: "required" as const, network: "none" as const, writable: [], hidden: [], read_only: [], preview: false }
    return runSandbox({ status: { mode: "required", bwrap: Bun.which("bwrap")!, notes: [] }, policy, protectedGlobs: [], workspace: ws, home: join(ws, ".home"), runDir: join(ws, ".run") })
  }

  test("bwrap's pid 1, which its outer process leaves to ccode, is not left a zombie: ten steps, none left", async () => {
    const ws = workspace()
    const sandbox = sandboxOf(ws)
    const codes: number[] = []
    for (let i = 0; i < 10; i++) {
      const result = await executeTool(shell, { command: `exit ${i % 3}` }, options(ws, { sandbox }))
      codes.push((result.data as { exit_code: number }).exit_code)
    }
    // each step's own exit status, read once, by the step
    expect(codes).toEqual([0, 1, 2, 0, 1, 2, 0, 1, 2, 0])
    expect(await zombiesGone("bwrap")).toEqual([])
  })

  test("a sandboxed step's background processes are dead when it returns: nothing with its tag runs code", async () => {
    const ws = workspace()
    const opts = options(ws, { sandbox: sandboxOf(ws) })
    const result = await executeTool(shell, { command: "sleep 30 & (trap '' TERM; sleep 30) & echo started" }, opts)
    expect(result.status).toBe("ok")
    expect(result.text).toContain("started")
    // read here from /proc, not through the code under test: a process that is gone, a zombie, or one
    // the kernel is ending (PF_EXITING) runs nothing of the step any more
    expect(runningWithTag(opts.callId)).toEqual([])
    expect(await zombiesGone("bwrap")).toEqual([])
  })

  test("a step timed out inside the sandbox leaves nothing running and no zombie", async () => {
    const ws = workspace()
    const opts = options(ws, { sandbox: sandboxOf(ws), timeoutMs: 700 })
    const result = await executeTool(shell, { command: "sleep 30 & echo started; sleep 30" }, opts)
    expect(result.error?.code).toBe("TIMEOUT")
    expect(taggedProcesses(opts.callId)).toEqual([])
    expect(await zombiesGone("bwrap")).toEqual([])
  })
})

describe("output window", () => {
  test("keeps the head and the tail, counts the rest, and never grows past its cap", () => {
    const window = new OutputWindow(1000)
    for (let i = 0; i < 100_000; i++) window.push(`line ${i}\n`, 8)
    const text = window.text()
    expect(text.length).toBeLessThanOrEqual(1000)
    expect(text.startsWith("line 0\nline 1\n")).toBe(true)
    expect(text.endsWith("line 99999\n")).toBe(true)
    expect(text).toMatch(/\[\.\.\. \d+ characters omitted \.\.\.\]/)
    expect(window.bytes).toBe(800_000)
  })

  test("a short output is kept whole", () => {
    const window = new OutputWindow(1000)
    window.push("a", 1)
    window.push("b\n", 2)
    expect(window.text()).toBe("ab\n")
  })
})

describe("reaping a step's group", () => {
  test("a group with a live member is counted; a group that is gone counts nothing", async () => {
    const { reapGroupZombies } = await import("../../core/tools/process/subreaper.ts")
    // a group leader (Bun's own child, never counted) with one more member, its background sleep
    const leader = Bun.spawn(["bash", "-c", "sleep 30 & echo started; wait"], { detached: true, stdout: "pipe" })
    try {
      await leader.stdout.getReader().read()
      expect(reapGroupZombies(leader.pid)).toBe(1)
    } finally {
      process.kill(-leader.pid, "SIGKILL")
      await leader.exited
    }
    for (let i = 0; i < 40 && reapGroupZombies(leader.pid) > 0; i++) await Bun.sleep(25)
    expect(reapGroupZombies(leader.pid)).toBe(0)
  })
})
