// Round 12: hard links the inode table missed: the workspace's own .env files under another name, and a
// key far down a credential folder of more than 400 entries. Each asks high naming the credential file;
// an ordinary multi-link file (pnpm's store) stays allowed. Real links in a temp folder.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"

describe("hard links to the workspace's own credentials and to far entries of big credential folders", () => {
  let root: string
  let ws: string
  let home: string
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-hardlink12-")))
    ws = join(root, "ws")
    home = join(root, "home")
    for (const d of [join(ws, "cfg"), join(ws, "node_modules"), join(home, ".ssh")]) mkdirSync(d, { recursive: true })
    writeFileSync(join(ws, ".env"), "TOKEN=FAKESECRET-env7\n")
    writeFileSync(join(ws, "cfg", ".env.local"), "DB_PASSWORD=FAKESECRET-env7b\n")
    linkSync(join(ws, ".env"), join(ws, "notes.txt"))
    linkSync(join(ws, "cfg", ".env.local"), join(ws, "readme.md"))
    linkSync(join(ws, "cfg", ".env.local"), join(ws, "cfg.txt"))
    // 1000 entries in ~/.ssh: the key is past the first 400 in any readdir order but a few
    for (let i = 0; i < 1000; i++) writeFileSync(join(home, ".ssh", `known_${i}.pub`), "ssh-ed25519 AAAA\n")
    writeFileSync(join(home, ".ssh", "zz_id_ed25519"), "FAKESECRET-sshkey\n")
    linkSync(join(home, ".ssh", "zz_id_ed25519"), join(ws, "todo.txt"))
    writeFileSync(join(root, "store.js"), "module.exports = 1\n")
    linkSync(join(root, "store.js"), join(ws, "node_modules", "x.js"))
    linkSync(join(root, "store.js"), join(ws, "lib.js"))
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const decideIn = async (command: string) => {
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, home, policy: bundledPolicy("default"), tmpDirs: ["/nonexistent-tmp"], env: { HOME: home, PATH: "/usr/bin:/bin" } })
    return decide(bundledPolicy("default"), call, { grants: [] })
  }

  test("a read of the link asks high and names the credential file", async () => {
    const cases: [string, string][] = [
      ["cat notes.txt", ".env"], ["grep -r FAKE notes.txt", ".env"], ["cat readme.md", ".env.local"], ["head -n1 cfg.txt", ".env.local"],
      ["cat todo.txt", "zz_id_ed25519"], ["tail todo.txt", "zz_id_ed25519"],
    ]
    for (const [command, cred] of cases) {
      const d = await decideIn(command)
      expect({ command, decision: d.decision, named: d.reason.includes(cred) }).toEqual({ command, decision: "ask", named: true })
      expect(["high", "critical"]).toContain(d.risk)
    }
  })

  test("controls: ordinary multi-link files stay allowed", async () => {
    for (const command of ["cat node_modules/x.js", "cat lib.js", "grep -r exports node_modules", "ls -l"]) {
      const d = await decideIn(command)
      expect({ command, decision: d.decision, reason: d.reason }).toEqual({ command, decision: "allow", reason: d.reason })
    }
  })
})
