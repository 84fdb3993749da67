// core.hooksPath moves the hooks folder (husky: `.husky/_`): a file written there runs at the next
// checkout or commit exactly as one in .git/hooks would, so such writes are critical like .git/hooks's,
// from the repository's config, config.worktree or the user's ~/.gitconfig. Real repositories in a temp folder.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"

describe("the hooks folder core.hooksPath names", () => {
  let root: string, home: string
  const repo = (name: string, config: string) => {
    const ws = join(root, name)
    mkdirSync(join(ws, ".git"), { recursive: true })
    writeFileSync(join(ws, ".git", "config"), config)
    return ws
  }
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-hookspath-")))
    home = join(root, "home")
    mkdirSync(home)
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const decideIn = async (ws: string, tool: string, args: Record<string, unknown>, h = home) => {
    const policy = bundledPolicy("ci")
    const call = await prepareCall(tool, args, { cwd: ws, workspace: ws, home: h, tmpDirs: ["/nonexistent-tmp"], toolRisk: tool === "shell" ? undefined : "medium", policy })
    return decide(policy, call, { grants: [] })
  }

  test("husky's .husky/_ (and the .husky scripts its hooks run): shell and host writes ask critical", async () => {
    const ws = repo("husky", "[core]\n\trepositoryformatversion = 0\n\thooksPath = .husky/_\n")
    for (const command of ["cp post-index-change .husky/_/post-checkout", "echo id > .husky/_/post-checkout", "cp x .husky/_/", "echo id >> .husky/pre-commit", "tar xf y.tar -C .husky/_"]) {
      const d = await decideIn(ws, "shell", { command })
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes("core.hooksPath") }).toEqual({ command, decision: "ask", risk: "critical", named: true })
    }
    const w = await decideIn(ws, "write_file", { path: ".husky/_/post-checkout", content: "#!/bin/sh\nid\n" })
    expect({ decision: w.decision, risk: w.risk, named: w.reason.includes("core.hooksPath") }).toEqual({ decision: "ask", risk: "critical", named: true })
  })

  test("a hooks folder of another name, from config.worktree and from the user's ~/.gitconfig", async () => {
    const ws = repo("own", "[core]\n\tbare = false\n")
    writeFileSync(join(ws, ".git", "config.worktree"), "[core]\n\thooksPath = githooks\n")
    const d = await decideIn(ws, "shell", { command: "echo id > githooks/pre-commit" })
    expect({ decision: d.decision, risk: d.risk }).toEqual({ decision: "ask", risk: "critical" })
    const h2 = join(root, "home2")
    mkdirSync(h2)
    writeFileSync(join(h2, ".gitconfig"), "[core]\n  hooksPath = ~/hooks-all\n")
    const ws2 = repo("plain", "[core]\n\tbare = false\n")
    const g = await decideIn(ws2, "write_file", { path: join(h2, "hooks-all", "pre-commit"), content: "id" }, h2)
    expect({ decision: g.decision, risk: g.risk, named: g.reason.includes("core.hooksPath") }).toEqual({ decision: "ask", risk: "critical", named: true })
  })

  test("core.hooksPath from GIT_CONFIG_KEY_n in the environment git runs with", async () => {
    const ws = repo("envset", "[core]\n\tbare = false\n")
    const policy = bundledPolicy("ci")
    const env = { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "core.hooksPath", GIT_CONFIG_VALUE_0: "tools/hooks" }
    const call = await prepareCall("shell", { command: "echo id > tools/hooks/pre-commit" }, { cwd: ws, workspace: ws, home, env, tmpDirs: ["/nonexistent-tmp"], policy })
    const d = decide(policy, call, { grants: [] })
    expect({ decision: d.decision, risk: d.risk, named: d.reason.includes("core.hooksPath") }).toEqual({ decision: "ask", risk: "critical", named: true })
  })

  test("controls: without core.hooksPath .husky is an ordinary folder; other writes stay medium", async () => {
    const ws = repo("nohooks", "[core]\n\tbare = false\n")
    for (const command of ["echo id > .husky/_/post-checkout", "echo x > src/a.ts"]) {
      const d = await decideIn(ws, "shell", { command })
      expect({ command, decision: d.decision }).toEqual({ command, decision: "allow" })
    }
    const husky = join(root, "husky")
    const d = await decideIn(husky, "shell", { command: "echo x > src/a.ts; cp README.md ." })
    expect(d.decision).toBe("allow")
  })
})
