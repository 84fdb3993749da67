// Round 11: a recursive search of a folder holding a file an ssh or git setting names as a credential (an
// IdentityFile, credential-store's --file) or a credential variable names (KUBECONFIG) reads it as `cat` of
// it would: `grep -r x ~/k2`, `rg x ~/k2` ask high and name the setting or variable. Real configs in a temp
// home, decided under the bundled default policy.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"

describe("walks that meet a file a setting or variable names", () => {
  let root: string
  let ws: string
  let home: string
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-namedwalk-")))
    ws = join(root, "ws")
    home = join(root, "home")
    for (const d of [ws, join(home, ".ssh"), join(home, "k2"), join(home, "k3"), join(root, "cred2"), join(home, "plain")]) mkdirSync(d, { recursive: true })
    writeFileSync(join(home, "k2", "plain2"), "FAKESECRET-k2plain\n")
    writeFileSync(join(home, "k3", "gitstore"), "https://u:FAKESECRET-store@example.com\n")
    writeFileSync(join(root, "cred2", "kc"), "token: FAKESECRET-kc\n")
    writeFileSync(join(home, "plain", "notes.txt"), "FAKE notes\n")
    writeFileSync(join(home, ".ssh", "config"), "IdentityFile ~/k2/plain2\n")
    writeFileSync(join(home, ".gitconfig"), `[credential]\n\thelper = store --file=${home}/k3/gitstore\n`)
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const decideIn = async (command: string, env: Record<string, string> = {}) => {
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, home, tmpDirs: ["/nonexistent-tmp"], env: { HOME: home, PATH: "/usr/bin:/bin", ...env } })
    return decide(bundledPolicy("default"), call, { grants: [] })
  }

  test("grep -r and rg of the folder ask high naming the setting or variable", async () => {
    const cases: [string, string, Record<string, string>?][] = [
      ["grep -r FAKE ~/k2", "IdentityFile"],
      ["rg FAKE ~/k2", "IdentityFile"],
      [`grep -r FAKE ${home}/k2/../k2`, "IdentityFile"],
      ["grep -r example ~/k3", "credential-store"],
      [`grep -r token ${root}/cred2`, "KUBECONFIG", { KUBECONFIG: `${root}/cred2/kc` }],
      [`rg token ${root}/cred2`, "KUBECONFIG", { KUBECONFIG: `${root}/cred2/kc` }],
    ]
    for (const [command, why, env] of cases) {
      const d = await decideIn(command, env)
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes(why) }).toEqual({ command, decision: "ask", risk: "high", named: true })
    }
  })

  test("controls: a walk of a folder without one stays allowed", async () => {
    for (const [command, env] of [["grep -r FAKE ~/plain", {}], ["rg FAKE ~/plain", {}], [`grep -r token ${root}/cred2`, {}], ["ls ~/k2", {}]] as const) {
      const d = await decideIn(command, env)
      expect({ command, decision: d.decision, reason: d.reason }).toEqual({ command, decision: "allow", reason: d.reason })
    }
  })
})
