// HOME reached through a symbolic link (Fedora Atomic's /home -> var/home, automounted homes): the paths
// of a call are real paths, so every `~/…` rule (credential stores, risk.paths, protected paths, rc
// files) is matched below the home's real path too. Real files and a real link in a temp folder.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"

describe("a home directory reached through a link", () => {
  let root: string, real: string, link: string, ws: string
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-homelink-")))
    real = join(root, "home")
    link = join(root, "homelink")
    ws = join(root, "ws")
    for (const d of [".ssh", ".kube", ".config/gh", ".docker"]) mkdirSync(join(real, d), { recursive: true })
    mkdirSync(ws)
    symlinkSync(real, link)
    for (const f of [".ssh/config", ".kube/config", ".config/gh/hosts.yml", ".docker/config.json", ".pgpass", ".bash_history", ".bashrc"]) writeFileSync(join(real, f), "FAKESECRET\n")
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const decideAt = async (policy: "default" | "ci", tool: string, args: Record<string, unknown>, cwd = ws, workspace = ws) => {
    const call = await prepareCall(tool, args, { cwd, workspace, home: link, tmpDirs: ["/nonexistent-tmp"], toolRisk: tool === "shell" ? undefined : "safe", policy: bundledPolicy(policy) })
    return decide(bundledPolicy(policy), call, { grants: [] })
  }

  test("reads of the home's credential stores ask, however the path is written", async () => {
    for (const command of ["cat ~/.ssh/config", "cat ~/.kube/config", "cat ~/.config/gh/hosts.yml", "cat ~/.docker/config.json", "cat ~/.pgpass", "cat ~/.bash_history", `cat ${real}/.pgpass`, `cat ${link}/.pgpass`]) {
      const d = await decideAt("ci", "shell", { command })
      expect({ command, decision: d.decision }).toEqual({ command, decision: "ask" })
    }
    const read = await decideAt("default", "read_file", { path: join(link, ".kube", "config") })
    expect(read.decision).toBe("ask")
  })

  test("with the linked home as the workspace, rc files and ~/.ssh are critical writes", async () => {
    for (const command of ["echo x >> .bashrc", "echo x >> .profile", "echo x >> ./.zshrc", "cp a .bash_profile", "echo k >> .ssh/authorized_keys", "echo k >> ~/.ssh/authorized_keys"]) {
      const d = await decideAt("ci", "shell", { command }, real, real)
      expect({ command, decision: d.decision, risk: d.risk }).toEqual({ command, decision: "ask", risk: "critical" })
    }
  })

  test("controls: ordinary work in a workspace below the linked home", async () => {
    const proj = join(real, "proj")
    mkdirSync(proj, { recursive: true })
    for (const command of ["echo x > notes.txt", "cat README.md", "ls -la"]) {
      const d = await decideAt("ci", "shell", { command }, proj, proj)
      expect({ command, decision: d.decision }).toEqual({ command, decision: "allow" })
    }
  })
})
