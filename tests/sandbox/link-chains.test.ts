// Links further down a read-only or hidden path's chain, hidden credential folders a step makes, and
// sockets a task's environment points elsewhere. Real bwrap processes; the call's result goes through
// the sandbox's explain as the runner does.
import { afterAll, describe, expect, test } from "bun:test"
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runSandbox, sandboxed } from "../../core/sandbox/session.ts"
import { sandboxLayout } from "../../core/sandbox/layout.ts"
import type { SandboxPolicy } from "../../core/policy/types.ts"
import type { ToolResult } from "../../core/tools/types.ts"

const HAS_BWRAP = Boolean(Bun.which("bwrap"))
const root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-sbx-chains-")))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const policy = (): SandboxPolicy => ({ mode: "auto", network: "none", writable: [], hidden: [], read_only: [], preview: false })
const ok: ToolResult = { status: "ok", text: "", stats: { duration_ms: 1, bytes: 0 } }

function setup(name: string, opts: { home?: "workspace" | string } = {}) {
  const ws = join(root, name, "ws")
  mkdirSync(ws, { recursive: true })
  const home = opts.home === "workspace" ? ws : (opts.home ?? join(root, name, "home"))
  mkdirSync(home, { recursive: true })
  const box = runSandbox({ status: { mode: "auto", bwrap: "/usr/bin/bwrap", notes: [] }, policy: policy(), protectedGlobs: [".git/**"], workspace: ws, home, runDir: join(root, name, "run") })!
  const step = (script: string, env: Record<string, string> = {}) => {
    const { argv, env: spawnEnv } = sandboxed(box, ["sh", "-c", script], { cwd: ws, env: { PATH: "/usr/bin:/bin", ...env } })
    const run = Bun.spawnSync(argv, { cwd: ws, env: spawnEnv, stderr: "pipe" })
    const result = box.explain(run.exitCode === 0 ? ok : { ...ok, status: "error", error: { code: "EXIT_CODE", type: "execution", message: `command exited with code ${run.exitCode}` } }, ws)
    return { result, stdout: run.stdout.toString() }
  }
  return { ws, home, step }
}

describe.skipIf(!HAS_BWRAP)("every link of a read-only path's chain is watched", () => {
  test(".git/hooks -> ../.githooks -> tools/hooks: retargeting the second link is blocked and put back", () => {
    const { ws, step } = setup("githooks")
    mkdirSync(join(ws, ".git"))
    mkdirSync(join(ws, "tools", "hooks"), { recursive: true })
    writeFileSync(join(ws, "tools", "hooks", "pre-commit"), "#!/bin/sh\necho legit\n")
    symlinkSync("../.githooks", join(ws, ".git", "hooks"))
    symlinkSync("tools/hooks", join(ws, ".githooks"))
    const { result } = step("mkdir evilhooks && printf '#!/bin/sh\\necho evil\\n' > evilhooks/pre-commit && rm .githooks && ln -s evilhooks .githooks")
    expect(result.error?.code).toBe("SANDBOX_BLOCKED")
    expect(result.error?.message).toContain(".githooks")
    expect(readlinkSync(join(ws, ".githooks"))).toBe("tools/hooks")
    expect(readFileSync(join(ws, ".git", "hooks", "pre-commit"), "utf8")).toContain("legit")
  })

  test(".claude -> cfg/claude with cfg -> realcfg: replacing cfg is blocked and put back", () => {
    const { ws, step } = setup("claude")
    mkdirSync(join(ws, "realcfg", "claude"), { recursive: true })
    writeFileSync(join(ws, "realcfg", "claude", "settings.json"), "{}\n")
    symlinkSync("realcfg", join(ws, "cfg"))
    symlinkSync("cfg/claude", join(ws, ".claude"))
    const { result } = step(`mkdir -p evil/claude && echo '{"hooks":1}' > evil/claude/settings.json && rm cfg && ln -s evil cfg`)
    expect(result.error?.code).toBe("SANDBOX_BLOCKED")
    expect(readlinkSync(join(ws, "cfg"))).toBe("realcfg")
    expect(readFileSync(join(ws, ".claude", "settings.json"), "utf8")).toBe("{}\n")
  })

  test("~/.bashrc -> dotfiles/bashrc outside the workspace, the workspace's bashrc a link: retargeting it is blocked", () => {
    const base = join(root, "dotrepo")
    const home = join(base, "home")
    mkdirSync(join(home, "dotfiles", "shell"), { recursive: true })
    writeFileSync(join(home, "dotfiles", "shell", "bashrc"), "# mine\n")
    symlinkSync("dotfiles/bashrc", join(home, ".bashrc"))
    // the workspace is ~/dotfiles itself: the first link (~/.bashrc) is outside every writable root
    const box = runSandbox({ status: { mode: "auto", bwrap: "/usr/bin/bwrap", notes: [] }, policy: policy(), protectedGlobs: [], workspace: join(home, "dotfiles"), home, runDir: join(base, "run") })!
    const ws = join(home, "dotfiles")
    symlinkSync("shell/bashrc", join(ws, "bashrc"))
    const { argv, env } = sandboxed(box, ["sh", "-c", "echo 'echo EVIL' > evilrc && rm bashrc && ln -s evilrc bashrc"], { cwd: ws, env: { PATH: "/usr/bin:/bin" } })
    expect(Bun.spawnSync(argv, { cwd: ws, env }).exitCode).toBe(0)
    const result = box.explain(ok, ws)
    expect(result.error?.code).toBe("SANDBOX_BLOCKED")
    expect(readlinkSync(join(ws, "bashrc"))).toBe("shell/bashrc")
    expect(readFileSync(join(home, ".bashrc"), "utf8")).toBe("# mine\n")
  })
})

describe.skipIf(!HAS_BWRAP)("hidden credential folders in a home that is the workspace", () => {
  test("~/.kube -> dotfiles/kube replaced by a folder of the step's: blocked, the link put back", () => {
    const { ws, step } = setup("kube-link", { home: "workspace" })
    mkdirSync(join(ws, "dotfiles", "kube"), { recursive: true })
    writeFileSync(join(ws, "dotfiles", "kube", "config"), "FAKESECRET-kube\n")
    symlinkSync("dotfiles/kube", join(ws, ".kube"))
    const read = step("cat .kube/config || true")
    expect(read.stdout).not.toContain("FAKESECRET-kube")
    const { result } = step("rm .kube && mkdir .kube && echo 'users: [{user: {exec: {command: sh}}}]' > .kube/config")
    expect(result.error?.code).toBe("SANDBOX_BLOCKED")
    expect(readlinkSync(join(ws, ".kube"))).toBe("dotfiles/kube")
    expect(readFileSync(join(ws, ".kube", "config"), "utf8")).toBe("FAKESECRET-kube\n")
  })

  test("a missing ~/.kube or ~/.aws the step creates is moved aside and the step blocked", () => {
    const { ws, step } = setup("kube-missing", { home: "workspace" })
    const { result } = step("mkdir -p .kube .aws && echo 'exec' > .kube/config && echo '[default]' > .aws/config")
    expect(result.error?.code).toBe("SANDBOX_BLOCKED")
    expect(existsSync(join(ws, ".kube"))).toBe(false)
    expect(existsSync(join(ws, ".aws"))).toBe(false)
    expect(readdirSync(ws).filter((n) => /^\.(kube|aws)\.blocked-/.test(n))).toHaveLength(2)
  })

  test("a dangling ~/.kube -> dotfiles/kube whose target the step makes: blocked, the link moved aside", () => {
    const { ws, step } = setup("kube-dangling", { home: "workspace" })
    symlinkSync("dotfiles/kube", join(ws, ".kube"))
    const { result } = step("mkdir -p dotfiles/kube && echo 'users: [{user: {exec: {command: sh}}}]' > dotfiles/kube/config")
    expect(result.error?.code).toBe("SANDBOX_BLOCKED")
    expect(existsSync(join(ws, ".kube"))).toBe(false)
    expect(readdirSync(ws).some((n) => n.startsWith(".kube.blocked-"))).toBe(true)
  })

  test("a step that leaves them alone is not blocked", () => {
    const { ws, step } = setup("kube-quiet", { home: "workspace" })
    mkdirSync(join(ws, "dotfiles", "kube"), { recursive: true })
    symlinkSync("dotfiles/kube", join(ws, ".kube"))
    symlinkSync("nowhere/aws", join(ws, ".aws"))
    expect(step("echo hi > notes.txt").result).toEqual(ok)
    expect(step("echo hi > notes2.txt").result).toEqual(ok)
    expect(readlinkSync(join(ws, ".aws"))).toBe("nowhere/aws")
    expect(lstatSync(join(ws, ".kube")).isSymbolicLink()).toBe(true)
  })
})

describe("sockets named by ccode's own environment stay hidden whatever the step's says", () => {
  const ws = join(root, "sock", "ws")
  const tmp = join(root, "sock", "tmp")
  mkdirSync(ws, { recursive: true })
  mkdirSync(tmp, { recursive: true })
  const agent = join(root, "sock", "agent.sock")
  const runtime = join(root, "sock", "runtime")
  const bus = join(root, "sock", "bus")
  const gpg = join(root, "sock", "gpg")
  mkdirSync(runtime)
  for (const f of [agent, bus, gpg]) writeFileSync(f, "")
  const hostEnv = { SSH_AUTH_SOCK: agent, XDG_RUNTIME_DIR: runtime, DBUS_SESSION_BUS_ADDRESS: `unix:path=${bus},guid=1`, GPG_AGENT_INFO: `${gpg}:0:1` }
  const elsewhere = { SSH_AUTH_SOCK: join(ws, "none"), XDG_RUNTIME_DIR: "/nonexistent", DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent", GPG_AGENT_INFO: "/nonexistent:0:1" }

  test("a task's env: pointing SSH_AUTH_SOCK, XDG_RUNTIME_DIR, DBUS and GPG elsewhere un-hides none of the real ones", () => {
    const l = sandboxLayout({ bwrap: "/usr/bin/bwrap", policy: policy(), protectedGlobs: [], workspace: ws, tmpDir: tmp, cwd: ws, home: join(root, "sock"), env: elsewhere, hostEnv })
    const hidden = l.hidden.map((h) => h.path)
    for (const p of [agent, runtime, bus, gpg]) expect(hidden).toContain(p)
  })

  test("the step's own sockets are hidden too", () => {
    const l = sandboxLayout({ bwrap: "/usr/bin/bwrap", policy: policy(), protectedGlobs: [], workspace: ws, tmpDir: tmp, cwd: ws, home: join(root, "sock"), env: hostEnv, hostEnv: {} })
    const hidden = l.hidden.map((h) => h.path)
    for (const p of [agent, runtime, bus, gpg]) expect(hidden).toContain(p)
  })
})
