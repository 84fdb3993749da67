// `ccode hook --warm` fails closed: whatever goes wrong on the way to the warm server (no server, a
// socket folder or socket that is not the user's own, a symlink, silence, a truncated, malformed or
// forged-looking answer, a server that hangs up), the call is decided in-process. A server that would
// allow a force push is never listened to unless it is in the user's private folder. Servers stop when
// idle and when their binary changes.
import { describe, expect, test } from "bun:test"
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { binary, ccode, waitFor, type Sandbox } from "./harness.ts"
import { socketOf, startWarm, stopWarm, warmProcesses, warmSandboxes } from "./warm.ts"

const warmSandbox = warmSandboxes({ CCODE_HOOK_WARM_TIMEOUT_MS: "1500" })

const forcePush = (sb: Sandbox) => JSON.stringify({ session_id: "s", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git push --force origin main" }, cwd: sb.work })
// what a hostile or broken server would like the host to read: a silent allow
const SILENT_ALLOW = `${JSON.stringify({ v: 1, code: 0, stdout: "", stderr: "" })}\n`

/** A fake server on `path` answering each request with `reply` (undefined: never answers). */
function fakeServer(path: string, reply: ((request: string) => string | "hang up") | undefined) {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  let asked = 0
  const listener = Bun.listen<{ text: string }>({
    unix: path,
    socket: {
      open(s) {
        s.data = { text: "" }
      },
      data(s, data) {
        s.data.text += data.toString()
        if (!s.data.text.endsWith("\n")) return
        asked++
        if (!reply) return
        const answer = reply(s.data.text)
        if (answer === "hang up") s.terminate()
        else s.end(answer)
      },
    },
  })
  return { stop: () => listener.stop(true), asked: () => asked }
}

/** `fn` with a fake server on `path`, stopped afterwards whatever happens. */
async function withFake(path: string, reply: Parameters<typeof fakeServer>[1], fn: (fake: ReturnType<typeof fakeServer>) => Promise<void>): Promise<void> {
  const fake = fakeServer(path, reply)
  try {
    await fn(fake)
  } finally {
    fake.stop()
  }
}

async function expectDecidedInProcess(sb: Sandbox): Promise<void> {
  const r = await ccode(sb, ["hook", "claude", "--warm"], { stdin: forcePush(sb) })
  expect(r.code).toBe(0)
  expect(JSON.parse(r.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: "deny" })
  expect(r.stderr).toBe("")
}

describe("the client decides in-process when the warm path cannot be trusted", () => {
  test("no server: decided in-process, and a server is started (detached, its own session)", async () => {
    const sb = warmSandbox()
    const path = await socketOf(sb)
    await expectDecidedInProcess(sb)
    await waitFor(() => existsSync(path), 15_000)
    const server = warmProcesses(sb.root).find((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("__hook-server"))
    const stat = (await Bun.file(`/proc/${server}/stat`).text()).split(") ")[1]!.split(" ")
    // fields after the name: state ppid pgrp session; the server leads its own session
    expect(Number(stat[3])).toBe(server!)
    await stopWarm(sb.root)
  })

  test("answers that are not whole and well formed are no answer", async () => {
    const sb = warmSandbox()
    const path = await socketOf(sb)
    const bad: ((req: string) => string | "hang up")[] = [
      () => "hang up", // the server dies mid-request
      () => SILENT_ALLOW.slice(0, 20), // truncated
      () => SILENT_ALLOW.slice(0, -1), // no end of line
      () => "not json\n",
      () => `${JSON.stringify({ v: 1, code: 1, stdout: "", stderr: "" })}\n`, // a crash's code
      () => `${JSON.stringify({ v: 1, code: 2, stdout: "", stderr: "" })}\n`, // a block without a reason
      () => `${JSON.stringify({ v: 2, code: 0, stdout: "", stderr: "" })}\n`,
      () => `${JSON.stringify({ v: 1, code: 0, stdout: "not base64!", stderr: "" })}\n`,
      () => SILENT_ALLOW + SILENT_ALLOW, // two answers
    ]
    for (const reply of bad) {
      await withFake(path, reply, async (fake) => {
        await expectDecidedInProcess(sb)
        expect(fake.asked()).toBe(1)
      })
    }
  })

  test("a worker killed before or while it decides gives no answer: the call is still decided (never left open)", async () => {
    const sb = warmSandbox()
    await startWarm(sb, forcePush(sb))
    await expectDecidedInProcess(sb) // served; the server starts a spare with this environment
    const workers = () => warmProcesses(sb.root).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("__hook-worker"))
    for (let i = 0; i < 3; i++) {
      await waitFor(() => workers().length > 0, 15_000)
      for (const pid of workers()) process.kill(pid, "SIGKILL")
      await expectDecidedInProcess(sb)
    }
  }, 60_000)

  test("a server that does not answer within the timeout: decided in-process", async () => {
    const sb = warmSandbox()
    await withFake(await socketOf(sb), undefined, async (fake) => {
      const started = Date.now()
      await expectDecidedInProcess(sb)
      expect(fake.asked()).toBe(1)
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_400)
    })
  })

  test("a socket folder open to others, owned by another user, in a parent others may change, or a socket of another user is never connected to", async () => {
    const sb = warmSandbox()
    const path = await socketOf(sb)
    const dir = dirname(path)
    await withFake(path, () => SILENT_ALLOW, async (fake) => {
      // sanity: in the private folder the fake is listened to (same user: trusted like ccode itself)
      const trusted = await ccode(sb, ["hook", "claude", "--warm"], { stdin: forcePush(sb) })
      expect([trusted.code, trusted.stdout, fake.asked()]).toEqual([0, "", 1])
      chmodSync(dir, 0o755)
      await expectDecidedInProcess(sb)
      chmodSync(dir, 0o701)
      await expectDecidedInProcess(sb)
      chmodSync(dir, 0o700)
      chownSync(dir, 65534, 65534)
      await expectDecidedInProcess(sb)
      chownSync(dir, process.getuid!(), process.getgid!())
      chownSync(path, 65534, 65534) // the socket itself another user's
      await expectDecidedInProcess(sb)
      chownSync(path, process.getuid!(), process.getgid!())
      // a parent others may write to: the private folder could be swapped between the check and connect()
      chmodSync(dirname(dir), 0o777)
      await expectDecidedInProcess(sb)
      chmodSync(dirname(dir), 0o755)
      const again = await ccode(sb, ["hook", "claude", "--warm"], { stdin: forcePush(sb) })
      expect([again.code, again.stdout, fake.asked()]).toEqual([0, "", 2])
    })
  })

  test("a socket folder that is a symlink to a private folder, or a socket path that is a file: decided in-process", async () => {
    const sb = warmSandbox()
    const path = await socketOf(sb)
    const dir = dirname(path)
    const elsewhere = join(sb.root, "elsewhere")
    await withFake(join(elsewhere, "x.sock"), () => SILENT_ALLOW, async (fake) => {
      chmodSync(elsewhere, 0o700)
      symlinkSync(join(elsewhere, "x.sock"), join(elsewhere, path.slice(dir.length + 1)))
      mkdirSync(dirname(dir), { recursive: true })
      symlinkSync(elsewhere, dir)
      await expectDecidedInProcess(sb)
      rmSync(dir)
      mkdirSync(dir, { mode: 0o700 })
      symlinkSync(join(elsewhere, "x.sock"), path) // the socket a symlink in the right folder
      await expectDecidedInProcess(sb)
      rmSync(path)
      writeFileSync(path, SILENT_ALLOW)
      await expectDecidedInProcess(sb)
      expect(fake.asked()).toBe(0)
    })
  })
})

describe("server lifetime", () => {
  test("an idle server exits and removes its socket", async () => {
    const sb = warmSandbox(800)
    const path = await startWarm(sb, forcePush(sb))
    await waitFor(() => !existsSync(path) && warmProcesses(sb.root).length === 0, 15_000)
  })

  test("a server exits when its binary's file changes; the changed binary gets a server of its own", async () => {
    const sb = warmSandbox()
    const copy = join(sb.root, "bin", "ccode")
    mkdirSync(dirname(copy))
    copyFileSync(await binary(), copy)
    chmodSync(copy, 0o755)
    const call = () => Bun.spawnSync([copy, "hook", "claude", "--warm"], { cwd: sb.work, env: sb.env, stdin: Buffer.from(forcePush(sb)) })
    const { binaryIdentity, socketPath } = await import("../../cli/warm/where.ts")
    const first = socketPath(sb.env, undefined, binaryIdentity(copy), process.getuid!())!
    call()
    await waitFor(() => existsSync(first), 15_000)
    const later = new Date(Date.now() + 60_000)
    utimesSync(copy, later, later)
    await waitFor(() => !existsSync(first), 15_000)
    const second = socketPath(sb.env, undefined, binaryIdentity(copy), process.getuid!())!
    expect(second).not.toBe(first)
    expect(JSON.parse(call().stdout.toString()).hookSpecificOutput.permissionDecision).toBe("deny")
    await waitFor(() => existsSync(second), 15_000)
    await stopWarm(sb.root)
  })
})

describe.skipIf(Bun.which("bwrap") === null)("the OS sandbox of `ccode run`", () => {
  test("a sandboxed step finds no warm hook socket to connect to; unsandboxed, the same step would", async () => {
    const sb = warmSandbox()
    const path = await startWarm(sb, forcePush(sb))
    sb.file("probe.sh", `ls -A "${dirname(path)}" | wc -l\nif [ -S "${path}" ]; then echo REACHABLE; else echo HIDDEN; fi\n`)
    sb.file("task.yaml", ["version: 1", "steps:", "  - id: probe", "    run: bash probe.sh"].join("\n"))
    const outputOf = async (extra: string[]) => {
      const r = await ccode(sb, ["run", "task.yaml", "--yes", "--json", ...extra])
      const finished = r.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.type === "step.finished")
      return JSON.stringify(finished)
    }
    const boxed = await outputOf([])
    expect(boxed).toContain("HIDDEN")
    expect(boxed).not.toContain("REACHABLE")
    const open = await outputOf(["--sandbox", "off"])
    expect(open).toContain("REACHABLE")
    await stopWarm(sb.root)
  }, 120_000)

  test("with a runtime folder (XDG_RUNTIME_DIR) the socket lives in it, and a sandboxed step does not see it", async () => {
    const sb = warmSandbox()
    const runtime = join(sb.root, "runtime")
    mkdirSync(runtime, { mode: 0o700 })
    sb.env.XDG_RUNTIME_DIR = runtime
    const path = await startWarm(sb, forcePush(sb))
    expect(dirname(path)).toBe(join(runtime, "ccode"))
    const served = await ccode(sb, ["hook", "claude", "--warm"], { stdin: forcePush(sb), env: { CCODE_TRACE_STARTUP: "1" } })
    expect(served.stderr).toContain("startup warm answer")
    expect(JSON.parse(served.stdout).hookSpecificOutput.permissionDecision).toBe("deny")
    sb.file("probe.sh", `if [ -S "${path}" ]; then echo REACHABLE; else echo HIDDEN; fi\n`)
    sb.file("task.yaml", ["version: 1", "steps:", "  - id: probe", "    run: bash probe.sh"].join("\n"))
    const r = await ccode(sb, ["run", "task.yaml", "--yes", "--json"])
    const finished = JSON.stringify(r.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.type === "step.finished"))
    expect(finished).toContain("HIDDEN")
    await stopWarm(sb.root)
  }, 120_000)
})
