// The run's shared sandbox (core/sandbox/live.ts, shared.ts), through real bwrap, nsenter and shell
// steps: what one call leaves is gone before the next, a path replaced on the host is never seen
// through a stale mount, and a command cannot take over or stop the sandbox's pid 1.
import { describe, expect, test } from "bun:test"
import { linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { shell } from "../../core/tools/builtin/shell.ts"
import { executeTool } from "../../core/tools/execute.ts"
import { sharedSetup, usable } from "./shared-setup.ts"

const { root, setup } = sharedSetup()

function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, "utf8"))
  } catch {
    return false
  }
}

const nsProcesses = "ls /proc | grep -E '^[0-9]+$' | sort -n | tr '\\n' ' '"

describe.skipIf(!usable)("calls of a run share one live sandbox", () => {
  test("later calls with the same layout join it: one pid namespace, its pid 1 the holder, each call's own exit status", async () => {
    const { run, warm } = setup()
    expect(await warm()).toBe(true)
    const first = await run("readlink /proc/self/ns/pid; exit 3")
    const second = await run("readlink /proc/self/ns/pid; exit 4")
    expect([(first.data as { exit_code: number }).exit_code, (second.data as { exit_code: number }).exit_code]).toEqual([3, 4])
    expect(first.text).toBe(second.text)
    // killed by a signal: reported as bash reports it, 128 + the signal
    expect(((await run("kill -9 $$")).data as { exit_code: number }).exit_code).toBe(137)
  })

  test("a joined call has no capability, no new privileges, and the sandbox's mounts", async () => {
    const { ws, run, warm } = setup()
    expect(await warm()).toBe(true)
    const result = await run("grep -E '^(Cap|NoNewPrivs)' /proc/self/status; touch /etc/ccode-probe 2>&1; echo x > inside.txt; pwd; echo fds $(ls /proc/self/fd)")
    for (const cap of ["CapInh", "CapPrm", "CapEff", "CapAmb"]) expect(result.text).toContain(`${cap}:\t0000000000000000`)
    // uid 0 would regain the bounding set at its next exec; another uid gains nothing from it (no new privileges)
    if (process.getuid?.() === 0) expect(result.text).toContain("CapBnd:\t0000000000000000")
    expect(result.text).toContain("NoNewPrivs:\t1")
    expect(result.text).toContain("Read-only file system")
    expect(result.text).toContain(ws)
    expect(readFileSync(join(ws, "inside.txt"), "utf8")).toBe("x\n")
    // nothing open but its own output and input (and ls's listing): no descriptor of the host's tree to openat() from
    expect(result.text).toContain("fds 0 1 2 3\n")
  })

  test("relative paths resolve inside the sandbox: a read-only path under the call's cwd stays read-only", async () => {
    const { ws, run, warm } = setup()
    mkdirSync(join(ws, ".git", "hooks"), { recursive: true })
    mkdirSync(join(ws, "sub"), { recursive: true })
    expect(await warm()).toBe(true)
    const top = await run("echo evil > .git/hooks/x")
    const deeper = await run("cd sub && echo evil > ../.git/hooks/y")
    expect([top.status, deeper.status]).toEqual(["error", "error"])
    expect(readdirSync(join(ws, ".git", "hooks"))).toEqual([])
    expect((await run("pwd; readlink /proc/self/cwd")).text).toBe(`${ws}\n${ws}\n`)
  })

  test("a call in another folder than the first call's runs there, and the next one back in the workspace", async () => {
    const { ws, sandbox, run, warm } = setup()
    mkdirSync(join(ws, "sub"), { recursive: true })
    expect(await warm()).toBe(true)
    const inSub = (command: string) => executeTool(shell, { command, cwd: "sub" }, { cwd: ws, workspace: ws, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, runId: "r", callId: `c-${crypto.randomUUID()}`, confine: true, timeoutMs: 20_000, idleTimeoutMs: 20_000, sandbox })
    expect((await inSub("pwd; echo a > here.txt")).text).toBe(`${join(ws, "sub")}\n`)
    expect(readFileSync(join(ws, "sub", "here.txt"), "utf8")).toBe("a\n")
    expect((await run("pwd")).text).toBe(`${ws}\n`)
  })

  test("a background sleep, a setsid'd child and an untagged double fork started by one step are gone before the next", async () => {
    const { run, warm } = setup()
    expect(await warm()).toBe(true)
    const started = await run(
      "sleep 300 & echo bg $!; (setsid sleep 301 &); env -i /bin/bash -c 'setsid sleep 302 </dev/null >/dev/null 2>&1 & disown' ; sleep 0.2; echo started",
    )
    expect(started.status).toBe("ok")
    const next = await run(`for p in $(${nsProcesses}); do tr '\\0' ' ' < /proc/$p/cmdline 2>/dev/null; echo; done`)
    // pid 1 (the holder) and this step's own processes: no sleep of the last step
    expect(next.text).toContain("__sandbox-hold")
    expect(next.text).not.toContain("sleep")
  })

  test("a step that timed out leaves nothing in the sandbox, and the next step runs in it", async () => {
    const { run, warm, joined } = setup()
    expect(await warm()).toBe(true)
    const result = await run("sleep 300 & (trap '' TERM; sleep 301) & sleep 302", 600)
    expect(result.error?.code).toBe("TIMEOUT")
    const next = await run("ps -eo comm 2>/dev/null | grep -c sleep || true")
    expect(next.text.trim()).toBe("0")
    expect(await joined()).toBe(true)
  })

  test("a call cancelled while it runs in the sandbox ends as interrupted, leaves nothing, and the next call joins", async () => {
    const { run, warm, joined } = setup()
    expect(await warm()).toBe(true)
    const cancel = new AbortController()
    setTimeout(() => cancel.abort("interrupted"), 400)
    const result = await run("sleep 300 & (trap '' TERM INT; sleep 301) & echo $TMPDIR; sleep 302", 20_000, cancel.signal)
    expect(result.error?.code).toBe("INTERRUPTED")
    expect(result.text).toContain(".run/tmp")
    expect((await run("ps -eo comm 2>/dev/null | grep -c sleep || true")).text.trim()).toBe("0")
    expect(await joined()).toBe(true)
  })

  test("calls at the same time each get a sandbox: one joins, the other starts its own", async () => {
    const { run, warm } = setup()
    expect(await warm()).toBe(true)
    const [a, b] = await Promise.all([run("sleep 0.3; tr '\\0' ' ' < /proc/1/cmdline"), run("sleep 0.3; tr '\\0' ' ' < /proc/1/cmdline")])
    const holders = [a, b].filter((r) => r.text.includes("__sandbox-hold")).length
    expect([a.status, b.status, holders]).toEqual(["ok", "ok", 1])
  })
})

describe.skipIf(!usable)("a path changed on the host is never seen through the live sandbox's old mounts", () => {
  test("a hidden file replaced by a rename, or removed and linked back, still looks empty", async () => {
    const secrets = realpathSync(mkdtempSync(join(root, "secrets-")))
    const secret = join(secrets, "token")
    writeFileSync(secret, "old-secret\n")
    const { run, warm } = setup({ hidden: [secret] })
    expect(await warm()).toBe(true)
    const hiddenText = async () => {
      const text = (await run(`cat ${secret}; echo end`)).text
      expect(text).toEndWith("end\n")
      return text.includes("secret\n")
    }
    expect(await hiddenText()).toBe(false)
    writeFileSync(join(secrets, "token.new"), "new-secret\n")
    renameSync(join(secrets, "token.new"), secret)
    expect(await hiddenText()).toBe(false)
    expect(await warm()).toBe(true)
    // the same inode under a new name: the old mount went with the old name
    const kept = join(secrets, "kept")
    linkSync(secret, kept)
    unlinkSync(secret)
    linkSync(kept, secret)
    unlinkSync(kept)
    expect(await hiddenText()).toBe(false)
  })

  test("a read-only file in the workspace replaced on the host stays read-only", async () => {
    const { ws, run, warm } = setup()
    mkdirSync(join(ws, ".git", "hooks"), { recursive: true })
    writeFileSync(join(ws, ".git", "config"), "[core]\n")
    expect(await warm()).toBe(true)
    writeFileSync(join(ws, ".git", "config.lock"), "[core]\n\tbare = false\n")
    renameSync(join(ws, ".git", "config.lock"), join(ws, ".git", "config"))
    const result = await run("echo '[core] fsmonitor = evil' >> .git/config")
    expect(result.status).toBe("error")
    expect(readFileSync(join(ws, ".git", "config"), "utf8")).toBe("[core]\n\tbare = false\n")
  })

  test.skipIf(process.getuid?.() !== 0)("a file system mounted on the host since is there inside, read-only, as in a bwrap started now", async () => {
    const { run, warm } = setup()
    const mnt = realpathSync(mkdtempSync(join(root, "mnt-")))
    expect(await warm()).toBe(true)
    const mounted = Bun.spawnSync(["mount", "-t", "tmpfs", "ccode-test", mnt])
    if (mounted.exitCode !== 0) return // no mount here (a container without the capability): nothing to propagate
    try {
      const result = await run(`grep -c ' ${mnt} ' /proc/self/mountinfo; touch ${mnt}/planted`)
      expect(result.status).toBe("error")
      expect(result.text).toStartWith("1\n")
      expect(result.text).toContain("Read-only file system")
    } finally {
      Bun.spawnSync(["umount", mnt])
    }
  })

  test("a folder a step created is protected from the next call on (a new layout, a new sandbox)", async () => {
    const { ws, run, warm } = setup()
    expect(await warm()).toBe(true)
    expect((await run("mkdir .claude && echo ok")).status).toBe("ok")
    const result = await run("echo '{}' > .claude/settings.json")
    expect(result.status).toBe("error")
    expect(() => readFileSync(join(ws, ".claude", "settings.json"))).toThrow()
  })
})

describe.skipIf(!usable)("a command cannot take over or stop the sandbox's pid 1", () => {
  test("ptrace, its /proc files and its pipes are refused; SIGKILL and SIGSTOP are ignored; the next step still runs in it", async () => {
    const { run, warm, joined } = setup()
    expect(await warm()).toBe(true)
    const python = Bun.which("python3")
    const ptrace = python ? `python3 -c 'import ctypes,os; libc=ctypes.CDLL(None,use_errno=True); print("ptrace", libc.ptrace(16,1,0,0), os.strerror(ctypes.get_errno()))';` : ""
    const attack = await run(
      `${ptrace} cat /proc/1/environ >/dev/null 2>&1 || echo environ-refused; head -c1 /proc/1/mem >/dev/null 2>&1 || echo mem-refused; ` +
        `echo run > /proc/1/fd/0 2>/dev/null || echo fd0-refused; cat /proc/1/fd/1 </dev/null >/dev/null 2>&1 || echo fd1-refused; ` +
        `kill -KILL 1; kill -STOP 1; kill -TERM 1; kill -INT 1; sleep 0.1; echo still-here`,
    )
    if (python) expect(attack.text).toContain("ptrace -1 Operation not permitted")
    for (const word of ["environ-refused", "mem-refused", "fd0-refused", "fd1-refused", "still-here"]) expect(attack.text).toContain(word)
    expect(await joined()).toBe(true)
  })

  test("a command that crashes the holder ends its own call; the next call runs sandboxed in a new one", async () => {
    const secrets = realpathSync(mkdtempSync(join(root, "secrets-")))
    const secret = join(secrets, "token")
    writeFileSync(secret, "secret\n")
    const { run, warm } = setup({ hidden: [secret] })
    expect(await warm()).toBe(true)
    // bun handles SIGSEGV (its crash report): the one signal that reaches a pid 1 with a handler
    const crash = await run("kill -SEGV 1; sleep 2; echo survived")
    expect(crash.text).not.toContain("survived")
    const next = await run(`cat ${secret}; echo end; touch /etc/ccode-probe 2>&1 | grep -c Read-only`)
    expect(next.text).not.toContain("secret\n")
    expect(next.text).toEndWith("end\n1\n")
    expect(await warm()).toBe(true)
  })

  test("the holder killed from outside mid-call: the call fails, nothing of it runs on, the next call is sandboxed", async () => {
    const { ws, run, warm } = setup()
    expect(await warm()).toBe(true)
    const call = run("readlink /proc/self/ns/pid > ns.txt; sleep 300 & echo $! > bg.txt; sleep 300")
    let holder: number | undefined
    for (let i = 0; i < 200 && !holder; i++) {
      await Bun.sleep(20)
      holder = holderOf(readOr(join(ws, "ns.txt")))
    }
    expect(holder).toBeGreaterThan(0)
    process.kill(holder!, "SIGKILL")
    const result = await call
    expect(result.status).toBe("error")
    const next = await run("touch /etc/ccode-probe 2>&1 | grep -c Read-only")
    expect(next.text.trim()).toBe("1")
  })

  test("closing the run's sandbox ends its holder", async () => {
    const { sandbox, run, warm } = setup()
    expect(await warm()).toBe(true)
    const holder = holderOf((await run("readlink /proc/self/ns/pid")).text.trim())
    expect(holder).toBeGreaterThan(0)
    await sandbox.close()
    for (let i = 0; i < 100 && alive(holder!); i++) await Bun.sleep(10)
    expect(alive(holder!)).toBe(false)
  })
})

/** The live holder (its bwrap a child of this process) whose pid namespace is `ns` (pid:[...]). */
function holderOf(ns: string): number | undefined {
  if (!ns) return undefined
  for (const task of readdirSync(`/proc/${process.pid}/task`)) {
    for (const bwrap of readOr(`/proc/${process.pid}/task/${task}/children`).split(" ").filter(Boolean)) {
      for (const child of readOr(`/proc/${bwrap}/task/${bwrap}/children`).split(" ").filter(Boolean)) {
        if (readOr(`/proc/${child}/cmdline`).includes("__sandbox-hold") && linkOr(`/proc/${child}/ns/pid`) === ns) return Number(child)
      }
    }
  }
  return undefined
}

function linkOr(path: string): string {
  try {
    return readlinkSync(path)
  } catch {
    return ""
  }
}

function readOr(path: string): string {
  try {
    return readFileSync(path, "utf8").trim()
  } catch {
    return ""
  }
}
