// A repository's git config is read whole however large it is (git reads any size): a .git/config
// padded past 64 KiB with comments still has its include.path and core.hooksPath seen. A config that
// cannot be read whole (a named pipe) leaves them unknown: a write in the workspace asks. Real
// repositories in a temp folder, decided under the bundled `ci` policy.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"

describe("a large git config is read whole", () => {
  let root: string, big: string, piped: string, home: string
  const git = (cwd: string, ...args: string[]) => Bun.spawnSync(["git", ...args], { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, HOME: home } })
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-gitbig-")))
    home = join(root, "home")
    big = join(root, "big")
    piped = join(root, "piped")
    for (const d of [home, big, piped]) mkdirSync(d, { recursive: true })
    for (const d of [big, piped]) {
      git(d, "init", "-q")
      writeFileSync(join(d, "evil.cfg"), "[core]\n\tfsmonitor = echo PWNED\n")
      mkdirSync(join(d, "hk"))
      writeFileSync(join(d, "hk", "pre-commit"), "#!/bin/sh\nid\n")
    }
    appendFileSync(join(big, ".git", "config"), `[include]\n\tpath = ../team.cfg\n[core]\n\thooksPath = myhooks\n${"# padding padding padding padding padding padding padding\n".repeat(1300)}`)
    // git reads the padded file as usual
    expect(git(big, "config", "--get", "core.hookspath").stdout.toString().trim()).toBe("myhooks")
    rmSync(join(piped, ".git", "config"))
    Bun.spawnSync(["mkfifo", join(piped, ".git", "config")])
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  test("an include or hooksPath written `~user/` or `%(prefix)/` is not resolved: a workspace write asks high", async () => {
    const odd = join(root, "odd")
    mkdirSync(odd)
    git(odd, "init", "-q")
    writeFileSync(join(odd, "evil.cfg"), "[core]\n\tfsmonitor = echo PWNED\n")
    for (const line of ["[include]\n\tpath = ~root/team.cfg\n", "[core]\n\thooksPath = %(prefix)/hk\n"]) {
      writeFileSync(join(odd, ".git", "config"), `[core]\n\trepositoryformatversion = 0\n${line}`)
      const d = await ci(odd, "cp evil.cfg team.cfg")
      expect({ line, decision: d.decision, risk: d.risk, named: d.reason.includes("does not resolve") }).toEqual({ line, decision: "ask", risk: "high", named: true })
    }
  })

  const ci = async (ws: string, command: string) => {
    const policy = bundledPolicy("ci")
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, home, tmpDirs: ["/nonexistent-tmp"], policy })
    return decide(policy, call, { grants: [] })
  }

  test("the included file and the hooks folder of a config over 64 KiB are protected", async () => {
    for (const [command, named] of [["cp evil.cfg team.cfg", "includes"], ["cp -r hk myhooks", "hooksPath"], ["cp hk/pre-commit myhooks/pre-commit", "hooksPath"]] as const) {
      const d = await ci(big, command)
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes(named), reason: d.reason }).toEqual({ command, decision: "ask", risk: "critical", named: true, reason: d.reason })
    }
  })

  test("a config that cannot be read whole makes a workspace write ask high; a read stays allowed", async () => {
    const d = await ci(piped, "cp evil.cfg team.cfg")
    expect({ decision: d.decision, risk: d.risk, named: d.reason.includes("is not a plain file") }).toEqual({ decision: "ask", risk: "high", named: true })
    expect((await ci(piped, "cat evil.cfg")).decision).toBe("allow")
  })
})
