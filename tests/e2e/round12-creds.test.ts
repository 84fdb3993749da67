// Attack review 12A (hard links to the workspace's own .env and to far entries of a big ~/.ssh, a never-
// committed .env stored as a git note and an index entry, missing credential stores) against the compiled
// binary. Each attack is first run with bash in the sandbox (a fake secret in its HOME or workspace), then
// `policy check` must ask and name the cause; the nearby everyday forms stay allowed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { linkSync, mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { bashIn, gitIn, policyCheck, sandbox, type Sandbox } from "./harness.ts"

describe("round 12: hard links, re-homed on-disk blobs, credential stores", () => {
  let sb: Sandbox
  beforeAll(() => {
    sb = sandbox()
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  test("hard links to the workspace's .env and to a key past the 400th entry of ~/.ssh ask high naming them", async () => {
    const ws = join(sb.root, "links")
    mkdirSync(join(ws, "cfg"), { recursive: true })
    writeFileSync(join(ws, ".env"), "TOKEN=FAKESECRET-env7\n")
    writeFileSync(join(ws, "cfg", ".env.local"), "DB_PASSWORD=FAKESECRET-env7b\n")
    linkSync(join(ws, ".env"), join(ws, "notes.txt"))
    linkSync(join(ws, "cfg", ".env.local"), join(ws, "readme.md"))
    mkdirSync(join(sb.home, ".ssh"), { recursive: true })
    for (let i = 0; i < 1000; i++) writeFileSync(join(sb.home, ".ssh", `k${i}.pub`), "ssh-ed25519 AAAA\n")
    writeFileSync(join(sb.home, ".ssh", "zz_id_ed25519"), "FAKESECRET-sshkey\n")
    linkSync(join(sb.home, ".ssh", "zz_id_ed25519"), join(ws, "todo.txt"))
    writeFileSync(join(sb.root, "store.js"), "module.exports = 1\n")
    linkSync(join(sb.root, "store.js"), join(ws, "lib.js"))
    for (const [cmd, secret, cred] of [["cat notes.txt", "FAKESECRET-env7", ".env"], ["cat readme.md", "FAKESECRET-env7b", ".env.local"], ["cat todo.txt", "FAKESECRET-sshkey", "zz_id_ed25519"]] as const) {
      expect({ cmd, out: bashIn(sb, cmd, ws) }).toEqual({ cmd, out: expect.stringContaining(secret) })
      const d = await policyCheck(sb, cmd, { cwd: ws })
      expect({ cmd, decision: d.decision, high: ["high", "critical"].includes(d.risk), named: d.reason.includes(cred) }).toEqual({ cmd, decision: "ask", high: true, named: true })
    }
    expect((await policyCheck(sb, "cat lib.js", { cwd: ws })).decision).toBe("allow")
    rmSync(join(sb.home, ".ssh"), { recursive: true })
  }, 60_000)

  test("a never-committed .env stored as a note and an index entry: git log, git diff --cached ask high naming .env", async () => {
    const ws = join(sb.root, "rehomed")
    mkdirSync(ws)
    gitIn(sb, ws, ["init", "-q"])
    writeFileSync(join(ws, ".gitignore"), ".env\n")
    writeFileSync(join(ws, ".env"), "SECRET=FAKESECRET-env8\n")
    gitIn(sb, ws, ["add", ".gitignore"])
    gitIn(sb, ws, ["commit", "-qm", "one"])
    const blob = gitIn(sb, ws, ["hash-object", "-w", ".env"])
    gitIn(sb, ws, ["notes", "add", "-C", blob, "HEAD"])
    gitIn(sb, ws, ["update-index", "--add", "--cacheinfo", `100644,${blob},notes.txt`])
    for (const cmd of ["git log -1", "git diff --cached"]) {
      expect({ cmd, out: bashIn(sb, cmd, ws) }).toEqual({ cmd, out: expect.stringContaining("FAKESECRET-env8") })
      const d = await policyCheck(sb, cmd, { cwd: ws })
      expect({ cmd, decision: d.decision, risk: d.risk, named: d.reason.includes(".env") }).toEqual({ cmd, decision: "ask", risk: "high", named: true })
    }
  }, 60_000)

  test("tccli's and turso's stores and extensionless credentials in a dot folder ask high", async () => {
    sb.file("../home/.tccli/default.credential", '{"secretId":"AKIDFAKE","secretKey":"FAKESECRET-tccli"}\n')
    sb.file("../home/.config/turso/settings.json", '{"token":"FAKESECRET-turso"}\n')
    sb.file("../home/.foo/credentials", "FAKESECRET-foo\n")
    for (const [cmd, secret] of [["cat ~/.tccli/default.credential", "FAKESECRET-tccli"], ["cat ~/.config/turso/settings.json", "FAKESECRET-turso"], ["cat ~/.foo/credentials", "FAKESECRET-foo"]] as const) {
      expect({ cmd, out: bashIn(sb, cmd, sb.work) }).toEqual({ cmd, out: expect.stringContaining(secret) })
      const d = await policyCheck(sb, cmd)
      expect({ cmd, decision: d.decision, risk: d.risk }).toEqual({ cmd, decision: "ask", risk: "high" })
    }
  }, 60_000)
})
