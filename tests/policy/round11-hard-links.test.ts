// Round 11: a hard link is the same file under another name. A workspace file that is a hard link to
// ~/.netrc, ~/.kube/config or a key an ssh setting names prints the credential when read by name, by a
// glob or by a recursive search: each asks high naming the credential file. Real links in a temp folder.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"

describe("hard links to credential files", () => {
  let root: string
  let ws: string
  let home: string
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-hardlink-")))
    ws = join(root, "ws")
    home = join(root, "home")
    for (const d of [join(ws, "docs"), join(home, ".kube"), join(home, "keys"), join(home, ".ssh")]) mkdirSync(d, { recursive: true })
    writeFileSync(join(home, ".netrc"), "machine y login u password FAKESECRET-homenetrc\n")
    writeFileSync(join(home, ".kube", "config"), "token: FAKESECRET-kube\n")
    writeFileSync(join(home, "keys", "deploy"), "FAKESECRET-key\n")
    writeFileSync(join(home, ".ssh", "config"), "IdentityFile ~/keys/deploy\n")
    linkSync(join(home, ".netrc"), join(ws, "notes.txt"))
    linkSync(join(home, ".kube", "config"), join(ws, "kc.txt"))
    linkSync(join(home, "keys", "deploy"), join(ws, "docs", "readme.md"))
    // an ordinary hard link (pnpm's store links files the same way) stays a plain file
    writeFileSync(join(root, "store.js"), "module.exports = 1\n")
    mkdirSync(join(ws, "node_modules"))
    linkSync(join(root, "store.js"), join(ws, "node_modules", "x.js"))
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const decideIn = async (command: string) => {
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, home, tmpDirs: ["/nonexistent-tmp"], env: { HOME: home, PATH: "/usr/bin:/bin" } })
    return decide(bundledPolicy("default"), call, { grants: [] })
  }

  test("a read of the link, by name, glob or walk, asks high and names the credential file", async () => {
    const cases: [string, string][] = [
      ["cat notes.txt", ".netrc"], ["cat kc.txt", ".kube/config"], ["cat *.txt", ".netrc"], ["head docs/readme.md", "keys/deploy"],
      ["grep -r FAKE .", ".netrc"], ["rg FAKE docs", "keys/deploy"], ["grep -r password", ".netrc"],
    ]
    for (const [command, cred] of cases) {
      const d = await decideIn(command)
      expect({ command, decision: d.decision, named: d.reason.includes(cred) }).toEqual({ command, decision: "ask", named: true })
      expect(["high", "critical"]).toContain(d.risk)
    }
  })

  test("controls: an ordinary hard link and ordinary files stay allowed", async () => {
    for (const command of ["cat node_modules/x.js", "grep -r exports node_modules", "ls -l"]) {
      const d = await decideIn(command)
      expect({ command, decision: d.decision, reason: d.reason }).toEqual({ command, decision: "allow", reason: d.reason })
    }
  })
})
