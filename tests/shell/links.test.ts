// Links a command line makes before it uses them, under the permissive bundled `ci` policy (it
// auto-approves medium: ln's own in-workspace write is medium, so what the link leads to must raise the
// call) and through the analysis' own reasons.
import { beforeAll, describe, expect, test } from "bun:test"
import { analyzeShellSync, loadParser } from "../../core/shell/index.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"
import { madeLinks, throughLinks } from "../../core/shell/links.ts"
import { ATTACK_CONTEXT, decideUnder } from "./attacks.ts"

beforeAll(() => loadParser())
const ci = bundledPolicy("ci")

describe("links made earlier in the same command under the ci policy", () => {
  const cases: [string, string][] = [
    ["ln -s ~/.bashrc f; echo evil >> f", "shell startup file /home/dev/.bashrc"],
    ["ln ~/.bashrc f && echo evil >> f", "shell startup file /home/dev/.bashrc"],
    ["cp -s ~/.profile f && tee -a f < a.txt", "shell startup file /home/dev/.profile"],
    ["mkdir d && ln -s /etc d/e && echo x > d/e/hosts", "system file /etc/hosts"],
    ["ln -s .git/hooks h && echo x > h/pre-commit", "protected path /home/dev/project/.git/hooks/pre-commit"],
    ["ln -s \"$T\" f; echo x >> f", "may make a link to anywhere"],
    ["tar xzf a.tgz && echo x > out/x", "may make a link to anywhere"],
  ]
  for (const [cmd, reason] of cases) {
    test(cmd, async () => {
      const d = await decideUnder(ci, cmd)
      expect({ decision: d.decision, holds: d.reason.includes(reason), reason: d.reason }).toEqual({ decision: "ask", holds: true, reason: d.reason })
    })
  }

  test("the same commands without the link stay allowed in ci (the link is what raises them)", async () => {
    for (const cmd of ["touch f; echo evil >> f", "mkdir d && echo x > d/hosts", "cp a.txt b.txt && cat b.txt", "mv a.txt b.txt && cat b.txt"]) {
      expect([cmd, (await decideUnder(ci, cmd)).decision]).toEqual([cmd, "allow"])
    }
  })
})

describe("the analysis' own reasons", () => {
  test("git in a directory the command made a link out of the workspace", () => {
    for (const cmd of ["ln -s /tmp/evil r && git -C r status", "ln -s /tmp/evil r && cd r && git log", "ln -s /tmp/evil r; git --git-dir=r/.git log"]) {
      const a = analyzeShellSync(cmd, ATTACK_CONTEXT)
      const git = a.commands.find((c) => c.program === "git")!
      expect([cmd, git.reasons.some((r) => r.includes("/tmp/evil") && r.includes("outside the workspace"))]).toEqual([cmd, true])
    }
  })

  test("a read through a link to an unknown place is medium, with the link named", () => {
    const a = analyzeShellSync("ln -s \"$T\" f; cat f", ATTACK_CONTEXT)
    expect(a.risk).toBe("medium")
    expect(a.reasons.join("\n")).toContain("reads /home/dev/project/f through /home/dev/project/f, which ln -s in this command may make a link to anywhere")
  })

  test("plain copies and commands that make no link add nothing", () => {
    for (const cmd of ["cp a b && cat b", "ls && cat README.md", "mkdir -p out && echo x > out/y", "tar czf out.tgz src && ls"]) {
      const a = analyzeShellSync(cmd, ATTACK_CONTEXT)
      expect([cmd, a.reasons.some((r) => r.includes("link"))]).toEqual([cmd, false])
    }
  })
})

describe("madeLinks and throughLinks", () => {
  const parts = (cmd: string) => {
    // the parts are internal: go through the analysis' words
    const a = analyzeShellSync(cmd, ATTACK_CONTEXT)
    return a.commands.map((c, i) => ({ words: [c.program, ...c.args].map((t) => ({ text: t, value: t, expanded: false, hollow: false, glob: false, tilde: false })), program: c.program, cwd: ["/home/dev/project"], i }))
  }
  test("ln -s with a relative target leads from the link's directory, a chain is followed", () => {
    const links = madeLinks(parts("ln -s ../up a/b; mv x y") as never, "/home/dev", "/home/dev/project")
    expect(links.find((l) => l.at === "/home/dev/project/a/b")?.to).toContain("/home/dev/project/up")
    const chain = madeLinks(parts("ln -s /etc a; mv a b") as never, "/home/dev", "/home/dev/project")
    expect(throughLinks("/home/dev/project/b/hosts", chain, 99)?.paths).toContain("/etc/hosts")
    expect(throughLinks("/home/dev/project/b/hosts", chain, 1)).toBeUndefined()
  })
})

describe("isInsideFold", () => {
  test("ignores the case of ASCII letters, keeps segment boundaries", async () => {
    const { isInsideFold } = await import("../../core/shell/cwd.ts")
    expect(isInsideFold("/etc", "/ETC/hosts")).toBe(true)
    expect(isInsideFold("/home/dev", "/Home/Dev/.SSH")).toBe(true)
    expect(isInsideFold("/HOME/DEV", "/home/dev")).toBe(true)
    expect(isInsideFold("/etc", "/etcetera")).toBe(false)
    expect(isInsideFold("/etc", "/ETCX/a")).toBe(false)
    expect(isInsideFold("/etc", "/et")).toBe(false)
    expect(isInsideFold("/", "/x")).toBe(true)
    expect(isInsideFold("/ünïcode", "/Ünïcode/x")).toBe(true)
  })
})
