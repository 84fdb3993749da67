import { afterAll, describe, expect, test } from "bun:test"
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"
import { runSandbox, sandboxed, sandboxStatus } from "../../core/sandbox/session.ts"
import type { SandboxPolicy } from "../../core/policy/types.ts"
import type { ToolResult } from "../../core/tools/types.ts"

const root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-sbx-session-")))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const ws = join(root, "ws")
mkdirSync(join(ws, "bin"), { recursive: true })
const policy = (mode: SandboxPolicy["mode"]): SandboxPolicy => ({ mode, network: "none", writable: [], hidden: [], read_only: [], preview: false })

describe("whether a run is sandboxed", () => {
  test("off never looks for bwrap", async () => {
    expect(await sandboxStatus(policy("off"), "/nonexistent", ws)).toEqual({ mode: "off", reason: "sandbox.mode is off", notes: [] })
  })

  test("required without bwrap on PATH is a configuration error (exit 2) that says how to install it", async () => {
    const error = await sandboxStatus(policy("required"), join(root, "empty-path"), ws).catch((e) => e)
    expect(error.exitCode).toBe(2)
    expect(error.message).toContain("bwrap (bubblewrap) is not on PATH")
    expect(error.message).toContain("apt-get install -y bubblewrap")
  })

  test("auto without bwrap runs unsandboxed, with the reason", async () => {
    const status = await sandboxStatus(policy("auto"), join(root, "empty-path"), ws)
    expect(status.bwrap).toBeUndefined()
    expect(status.reason).toContain("not on PATH")
  })

  test("a bwrap that lives in the workspace is never trusted to be the sandbox", async () => {
    const fake = join(ws, "bin", "bwrap")
    writeFileSync(fake, "#!/bin/sh\nexit 0\n")
    chmodSync(fake, 0o755)
    const status = await sandboxStatus(policy("auto"), join(ws, "bin"), ws)
    expect(status.bwrap).toBeUndefined()
    expect(status.reason).toContain("inside the workspace")
  })

  test("a bwrap that does not work is reported with its own words", async () => {
    const dir = join(root, "broken")
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, "bwrap"), "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
    chmodSync(join(dir, "bwrap"), 0o755)
    const status = await sandboxStatus(policy("auto"), dir, ws)
    expect(status.reason).toContain("No permissions to create new namespace")
  })
})

describe("the run's sandbox around a spawn", () => {
  const box = runSandbox({ status: { mode: "auto", bwrap: "/usr/bin/bwrap", notes: [] }, policy: policy("auto"), protectedGlobs: [], workspace: ws, home: join(root, "home"), runDir: join(root, "run") })!
  const failed = (code: string, text: string): ToolResult => ({ status: "error", text, error: { code, type: "execution", message: "command exited with code 1" }, stats: { duration_ms: 1, bytes: 1 } })

  test("the command runs under bwrap with TMPDIR in the run's own temp dir", () => {
    const { argv, env } = sandboxed(box, ["bash", "-c", "true"], { cwd: ws, env: { A: "1" } })
    // bwrap, given the set-id filter on a descriptor a shell opens for it
    expect(argv.slice(0, 3)).toEqual(["/bin/sh", "-p", "-c"])
    expect(argv[5]).toBe("/usr/bin/bwrap")
    expect(argv.slice(argv.indexOf("--seccomp"), argv.indexOf("--seccomp") + 2)).toEqual(["--seccomp", "9"])
    expect(argv.slice(-3)).toEqual(["bash", "-c", "true"])
    expect(env).toEqual({ A: "1", TMPDIR: join(root, "run", "tmp") })
    expect(sandboxed(undefined, ["true"], { cwd: ws, env: { A: "1" } })).toEqual({ argv: ["true"], env: { A: "1" } })
  })

  test("only a command that ran and failed is blamed on the sandbox; an interrupt stays an interrupt", () => {
    const text = "bash: /etc/passwd: Read-only file system"
    expect(box.explain(failed("EXIT_CODE", text), ws).error?.code).toBe("SANDBOX_BLOCKED")
    expect(box.explain(failed("INTERRUPTED", text), ws).error?.code).toBe("INTERRUPTED")
    expect(box.explain(failed("CANCELLED", text), ws).error?.code).toBe("CANCELLED")
  })
})

describe("a workspace whose .git is a file (a worktree or a submodule)", () => {
  test("a sandboxed command cannot point it at a repository of its own (whose config would run code on the next git command)", () => {
    const wt = join(root, "worktree")
    mkdirSync(wt, { recursive: true })
    writeFileSync(join(wt, ".git"), `gitdir: ${join(root, "real.git")}\n`)
    const box = runSandbox({ status: { mode: "auto", bwrap: "/usr/bin/bwrap", notes: [] }, policy: policy("auto"), protectedGlobs: [], workspace: wt, home: join(root, "home"), runDir: join(root, "run-wt") })!
    const script = "mkdir -p evil && echo '[core]' > evil/config && echo 'gitdir: evil' > .git; rm -f .git; mv .git moved; echo 'gitdir: evil' > .git"
    const { argv, env } = sandboxed(box, ["bash", "-c", script], { cwd: wt, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } })
    const done = Bun.spawnSync(argv, { cwd: wt, env })
    expect(done.stderr.toString()).toContain(".git")
    expect(readFileSync(join(wt, ".git"), "utf8")).toBe(`gitdir: ${join(root, "real.git")}\n`)
    expect(readFileSync(join(wt, "evil", "config"), "utf8")).toBe("[core]\n")
  })
})

describe("a run whose sandbox lists hosts", () => {
  const hosts = { ...policy("auto"), network: ["example.com", "127.0.0.1:8080"] }
  const netDir = join(root, "net")
  const box = runSandbox({ status: { mode: "auto", bwrap: "/usr/bin/bwrap", notes: [] }, policy: hosts, protectedGlobs: [], workspace: ws, home: join(root, "home"), runDir: join(root, "run2"), netDir })!
  const ok: ToolResult = { status: "ok", text: "", stats: { duration_ms: 1, bytes: 0 } }

  test("each call gets its own proxy socket, the proxy variables, and the bridge before its command; the call's end closes it", () => {
    const first = sandboxed(box, ["bash", "-c", "curl x"], { cwd: ws, env: { CCODE_CALL_ID: "c1", HTTPS_PROXY: "http://attacker:1" } })
    const second = sandboxed(box, ["true"], { cwd: ws, env: { CCODE_CALL_ID: "c2" } })
    const socketOf = (argv: string[]) => argv[argv.indexOf("__sandbox-bridge") + 1]!
    expect(socketOf(first.argv)).not.toBe(socketOf(second.argv))
    expect(socketOf(first.argv).startsWith(realpathSync(netDir) + "/")).toBe(true)
    expect(first.argv).toContain("--unshare-net")
    expect(first.argv.slice(first.argv.indexOf("__sandbox-bridge") + 2)).toEqual(["3128", "--", "bash", "-c", "curl x"])
    // a step's own env cannot point the command elsewhere: the proxy variables are ccode's
    expect(first.env.HTTPS_PROXY).toBe("http://127.0.0.1:3128")
    expect(first.env.NO_PROXY).toBe("") // the list names 127.0.0.1: the host's loopback goes through the proxy
    expect(readdirSync(netDir).length).toBe(2)
    box.explain(ok, ws, "c1")
    expect(readdirSync(netDir)).toEqual([basename(socketOf(second.argv))])
    box.explain(ok, ws)
    expect(readdirSync(netDir)).toEqual([])
  })

  test("a list without loopback leaves the sandbox's own loopback out of the proxy", () => {
    const web = runSandbox({ status: { mode: "auto", bwrap: "/usr/bin/bwrap", notes: [] }, policy: { ...hosts, network: ["*.example.com"] }, protectedGlobs: [], workspace: ws, home: join(root, "home"), runDir: join(root, "run3"), netDir })!
    const { env } = sandboxed(web, ["true"], { cwd: ws, env: { CCODE_CALL_ID: "c3" } })
    expect(env.no_proxy).toBe("localhost,127.0.0.1,::1")
    web.explain(ok, ws, "c3")
  })
})

test("every sandbox, even with no network, hides the folder of the runs' proxy sockets, made before any run needs it", () => {
  const netDir = join(root, "net-none")
  const none = runSandbox({ status: { mode: "auto", bwrap: "/usr/bin/bwrap", notes: [] }, policy: policy("auto"), protectedGlobs: [], workspace: ws, home: join(root, "home"), runDir: join(root, "run4"), netDir })!
  const { argv } = sandboxed(none, ["true"], { cwd: ws, env: {} })
  const at = argv.indexOf(realpathSync(netDir))
  expect(argv.slice(at - 1, at + 3)).toEqual(["--tmpfs", realpathSync(netDir), "--remount-ro", realpathSync(netDir)])
  expect(argv).not.toContain("__sandbox-bridge")
})
