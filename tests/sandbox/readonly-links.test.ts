// A read-only path that is a symlink (.claude -> .github/claude, ~/.bashrc -> dotfiles/bashrc,
// .git/hooks -> ../.githooks): the step must not be able to put its own folder or file at the link's
// name. Real bwrap processes; the call's result goes through the sandbox's explain as the runner does.
import { afterAll, describe, expect, test } from "bun:test"
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runSandbox, sandboxed } from "../../core/sandbox/session.ts"
import type { SandboxPolicy } from "../../core/policy/types.ts"
import type { ToolResult } from "../../core/tools/types.ts"

const root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-sbx-rolinks-")))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const policy = (writable: string[] = []): SandboxPolicy => ({ mode: "auto", network: "none", writable, hidden: [], read_only: [], preview: false })
const ok: ToolResult = { status: "ok", text: "", stats: { duration_ms: 1, bytes: 0 } }

function setup(name: string, opts: { home?: "workspace"; writable?: string[] } = {}) {
  const ws = join(root, name, "ws")
  mkdirSync(ws, { recursive: true })
  const home = opts.home === "workspace" ? ws : join(root, name, "home")
  mkdirSync(home, { recursive: true })
  const box = runSandbox({ status: { mode: "auto", bwrap: "/usr/bin/bwrap", notes: [] }, policy: policy(opts.writable), protectedGlobs: [".git/**"], workspace: ws, home, runDir: join(root, name, "run") })!
  const step = (script: string) => {
    const { argv, env } = sandboxed(box, ["sh", "-c", script], { cwd: ws, env: { PATH: "/usr/bin:/bin" } })
    const code = Bun.spawnSync(argv, { cwd: ws, env, stderr: "pipe" }).exitCode
    return box.explain(code === 0 ? ok : { ...ok, status: "error", error: { code: "EXIT_CODE", type: "execution", message: `command exited with code ${code}` } }, ws)
  }
  return { ws, step }
}

describe("read-only links in the workspace", () => {
  test(".claude -> .github/claude replaced by a real folder with hooks: blocked, link put back, the folder moved aside", () => {
    const { ws, step } = setup("claude")
    mkdirSync(join(ws, ".github", "claude"), { recursive: true })
    writeFileSync(join(ws, ".github", "claude", "settings.json"), "{}\n")
    symlinkSync(".github/claude", join(ws, ".claude"))
    const result = step(`rm .claude && mkdir .claude && echo '{"hooks":{}}' > .claude/settings.json`)
    expect(result.error?.code).toBe("SANDBOX_BLOCKED")
    expect(result.error?.message).toContain("replaced the read-only link .claude")
    expect(lstatSync(join(ws, ".claude")).isSymbolicLink()).toBe(true)
    expect(readlinkSync(join(ws, ".claude"))).toBe(".github/claude")
    expect(readFileSync(join(ws, ".claude", "settings.json"), "utf8")).toBe("{}\n")
    const aside = readdirSync(ws).find((n) => n.startsWith(".claude.blocked-"))!
    expect(readFileSync(join(ws, aside, "settings.json"), "utf8")).toContain("hooks")
    // an unguessable name: a step cannot pre-create it to make the move fail and keep its folder in place
    expect(aside).toMatch(/^\.claude\.blocked-\d+-[0-9a-f]{12}$/)
    expect(result.error?.message).toContain(aside)
    // the target stayed read-only throughout
    expect(step("echo x > .github/claude/settings.json").status).toBe("error")
  })

  test("home = workspace, ~/.bashrc a dotfiles link: replaced by a file, the link is put back", () => {
    const { ws, step } = setup("home", { home: "workspace" })
    mkdirSync(join(ws, "dotfiles"))
    writeFileSync(join(ws, "dotfiles", "bashrc"), "# mine\n")
    symlinkSync("dotfiles/bashrc", join(ws, ".bashrc"))
    const result = step(`rm -f .bashrc && echo 'touch /tmp/planted' > .bashrc`)
    expect(result.error?.code).toBe("SANDBOX_BLOCKED")
    expect(readlinkSync(join(ws, ".bashrc"))).toBe("dotfiles/bashrc")
    expect(readFileSync(join(ws, ".bashrc"), "utf8")).toBe("# mine\n")
  })

  test(".git/hooks -> ../.githooks under writable: [.git]: the link cannot be swapped for a folder of hooks", () => {
    const { ws, step } = setup("hooks", { writable: [".git"] })
    mkdirSync(join(ws, ".git"))
    mkdirSync(join(ws, ".githooks"))
    symlinkSync("../.githooks", join(ws, ".git", "hooks"))
    const result = step("rm .git/hooks && mkdir .git/hooks && printf '#!/bin/sh\\n' > .git/hooks/pre-commit")
    expect(result.error?.code).toBe("SANDBOX_BLOCKED")
    expect(readlinkSync(join(ws, ".git", "hooks"))).toBe("../.githooks")
  })

  test("a step that leaves the links alone is not blocked, and a link removed alone is made again", () => {
    const { ws, step } = setup("quiet")
    mkdirSync(join(ws, "cfg"))
    symlinkSync("cfg", join(ws, ".vscode"))
    expect(step("echo hi > notes.txt")).toEqual(ok)
    const removed = step("rm .vscode")
    expect(removed.error?.message).toContain(".vscode (removed)")
    expect(readlinkSync(join(ws, ".vscode"))).toBe("cfg")
  })
})
