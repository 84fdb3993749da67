// A workspace whose .git is a file (`git init --separate-git-dir=./gitdata`, a linked worktree): the git
// directory it points to holds the hooks and config git obeys, so writes there are protected as .git's
// are (critical under every bundled policy), also through its commondir; its config is read for
// credentials as .git/config is (and `.git/config` is read through the .git file, not as a folder).
// Ordinary writes stay as before.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"

describe("a git directory by another name inside the workspace", () => {
  let root: string
  let ws: string
  let home: string
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-gitdata-")))
    ws = join(root, "ws")
    home = join(root, "home")
    mkdirSync(join(ws, "gitdata", "hooks"), { recursive: true })
    mkdirSync(join(ws, "wtdata"), { recursive: true })
    mkdirSync(home)
    writeFileSync(join(ws, "gitdata", "config"), "[core]\n\tbare = false\n")
    writeFileSync(join(ws, ".git"), `gitdir: ${join(ws, "gitdata")}\n`)
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const decideIn = async (policy: "default" | "ci", tool: string, args: Record<string, unknown>) => {
    const call = await prepareCall(tool, args, { cwd: ws, workspace: ws, home, tmpDirs: ["/tmp"], toolRisk: tool === "shell" ? undefined : "safe" })
    return decide(bundledPolicy(policy), call, { grants: [] })
  }

  test("writes to its hooks and config are critical, naming the git directory", async () => {
    for (const policy of ["default", "ci"] as const) {
      for (const command of ["printf '#!/bin/sh\\ntouch /tmp/x\\n' > gitdata/hooks/post-index-change", "echo x > gitdata/hooks/pre-commit", "echo x >> gitdata/config", "cp a.sh ./gitdata/hooks/pre-commit", "sed -i s/a/b/ gitdata/config"]) {
        const d = await decideIn(policy, "shell", { command })
        expect({ policy, command, decision: d.decision, risk: d.risk }).toEqual({ policy, command, decision: "ask", risk: "critical" })
        expect(d.reason).toContain("the workspace's git directory")
      }
      const w = await decideIn(policy, "write_file", { path: join(ws, "gitdata", "hooks", "pre-commit"), content: "x" })
      expect([policy, w.decision, w.risk]).toEqual([policy, "ask", "critical"])
    }
  })

  test("a relative gitdir line and a commondir are followed", async () => {
    writeFileSync(join(ws, ".git"), "gitdir: wtdata\n")
    writeFileSync(join(ws, "wtdata", "commondir"), "../gitdata\n")
    for (const command of ["echo x > wtdata/HEAD", "echo x > gitdata/hooks/pre-push"]) {
      const d = await decideIn("ci", "shell", { command })
      expect({ command, decision: d.decision, risk: d.risk }).toEqual({ command, decision: "ask", risk: "critical" })
    }
    writeFileSync(join(ws, ".git"), `gitdir: ${join(ws, "gitdata")}\n`)
  })

  test("its config is the repository's: a credential there is seen (and .git/config read through the .git file)", async () => {
    writeFileSync(join(ws, "gitdata", "config"), '[remote "o"]\n\turl = https://u:FAKESECRET@h/r\n')
    for (const command of ["git remote -v", "git config -l", "cat gitdata/config", "cat .git/config"]) {
      const d = await decideIn("default", "shell", { command })
      expect({ command, decision: d.decision, risk: d.risk }).toEqual({ command, decision: "ask", risk: "high" })
      expect(d.reason).toContain("gitdata/config, which holds a credential")
      expect(d.reason).not.toContain("FAKESECRET")
    }
    writeFileSync(join(ws, "gitdata", "config"), "[core]\n\tbare = false\n")
    expect((await decideIn("default", "shell", { command: "cat gitdata/config" })).decision).toBe("allow")
  })

  test("controls: ordinary workspace writes and reads stay as they were", async () => {
    const ok = await decideIn("ci", "shell", { command: "echo x > notes.txt" })
    expect([ok.decision, ok.risk]).toEqual(["allow", "medium"])
    const read = await decideIn("default", "shell", { command: "cat gitdata/HEAD" })
    expect(read.decision).toBe("allow")
  })
})
