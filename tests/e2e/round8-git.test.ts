// Review 8 (git): a partial clone's reads fetch the objects it lacks from its promisor remote, running
// the remote's transport (remote.*.uploadpack) as they do; git's old remote files and .gitmodules print
// a URL's password; links among linked worktrees' files are quoted by git worktree list. Each attack is
// first proven with bash in the sandbox (a fake secret in its HOME), then the compiled binary asks.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { bashIn, gitIn, policyCheck, sandbox, type Sandbox } from "./harness.ts"

describe("round 8: git's lazy fetches, other remote sources, worktree links", () => {
  let sb: Sandbox
  let netrc: string
  beforeAll(() => {
    sb = sandbox()
    netrc = join(sb.home, ".netrc")
    writeFileSync(netrc, "machine x login y password FAKESECRET-netrc\n")
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  // a blob:none clone of a two-commit repository: its blobs are fetched when a command reads them
  function partialClone(name: string): string {
    const src = join(sb.root, `${name}-src`)
    mkdirSync(src)
    gitIn(sb, src, ["init", "-q"])
    writeFileSync(join(src, "file.txt"), "hello\n")
    gitIn(sb, src, ["add", "."])
    gitIn(sb, src, ["commit", "-qm", "one"])
    writeFileSync(join(src, "file.txt"), "hello v2\n")
    gitIn(sb, src, ["commit", "-qam", "two"])
    gitIn(sb, src, ["config", "uploadpack.allowFilter", "true"])
    const ws = join(sb.root, name)
    gitIn(sb, sb.root, ["-c", "protocol.file.allow=always", "clone", "-q", "--filter=blob:none", "--no-checkout", `file://${src}`, ws])
    return ws
  }

  test("a partial clone whose remote runs a program: bash's git show prints the secret, ccode asks high", async () => {
    const ws = partialClone("pc")
    gitIn(sb, ws, ["config", "remote.origin.uploadpack", `cat ${netrc} >&2; git-upload-pack`])
    const d = await policyCheck(sb, "git show HEAD:file.txt", { cwd: ws })
    expect([d.decision, d.risk]).toEqual(["ask", "high"])
    expect(d.reason).toContain("partial clone (remote.origin.promisor = true)")
    expect(d.reason).toContain("remote.origin.uploadpack")
    for (const command of ["git log -p", "git diff HEAD~1 HEAD", "git grep hello HEAD", "git cat-file -p HEAD:file.txt", "git blame HEAD -- file.txt", "git log --oneline"]) {
      const v = await policyCheck(sb, command, { cwd: ws })
      expect({ command, decision: v.decision, risk: v.risk }).toEqual({ command, decision: "ask", risk: "high" })
    }
    // the proof runs after the checks: the fetch brings the blob, and ccode's own listing must not
    expect(bashIn(sb, "git -c protocol.file.allow=always show HEAD:file.txt", ws)).toContain("FAKESECRET-netrc")
    expect((await policyCheck(sb, "git remote -v", { cwd: ws })).decision).toBe("allow")
  }, 60_000)

  test("a partial clone with an ordinary remote: the reads that fetch are network (medium), the others stay allowed", async () => {
    const ws = partialClone("pc2")
    const d = await policyCheck(sb, "git show HEAD:file.txt", { cwd: ws })
    expect([d.decision, d.risk]).toEqual(["ask", "medium"])
    expect(d.reason).toContain("over the network")
    for (const command of ["git branch -a", "git config -l", "git remote -v", "git rev-parse --show-toplevel"]) {
      expect({ command, decision: (await policyCheck(sb, command, { cwd: ws })).decision }).toEqual({ command, decision: "allow" })
    }
  }, 60_000)

  test("legacy remote files and .gitmodules with a password: bash prints it, ccode asks high", async () => {
    const ws = join(sb.root, "lr")
    mkdirSync(ws)
    gitIn(sb, ws, ["init", "-q"])
    mkdirSync(join(ws, ".git/remotes"), { recursive: true })
    mkdirSync(join(ws, ".git/branches"), { recursive: true })
    writeFileSync(join(ws, ".git/remotes/up"), "URL: https://user:FAKESECRET-legacyremote@127.0.0.1/x.git\n")
    writeFileSync(join(ws, ".git/branches/bx"), "https://user:FAKESECRET-branchesfile@127.0.0.1/y.git#master\n")
    writeFileSync(join(ws, ".gitmodules"), '[submodule "lib"]\n\tpath = lib\n\turl = https://oauth2:FAKESECRET-gitmodules@127.0.0.1/lib.git\n')
    expect(bashIn(sb, "git remote get-url up; git remote show -n bx; cat .gitmodules", ws)).toContain("FAKESECRET-legacyremote")
    for (const command of ["git remote get-url up", "git remote show -n bx", "git remote -v", "cat .git/remotes/up", "cat .git/branches/bx", "grep -r FAKE .git/remotes", "cat .gitmodules", "grep url .gitmodules"]) {
      const v = await policyCheck(sb, command, { cwd: ws })
      expect({ command, decision: v.decision, risk: v.risk, secret: v.reason.includes("FAKESECRET") }).toEqual({ command, decision: "ask", risk: "high", secret: false })
      expect(v.reason).toContain("holds a credential")
    }
    writeFileSync(join(ws, ".gitmodules"), '[submodule "lib"]\n\tpath = lib\n\turl = https://github.com/o/lib.git\n')
    expect((await policyCheck(sb, "cat .gitmodules", { cwd: ws })).decision).toBe("allow")
  }, 60_000)

  test("a linked worktree's gitdir as a link to a credential: git worktree list prints it, ccode asks high", async () => {
    const ws = join(sb.root, "wt")
    mkdirSync(ws)
    gitIn(sb, ws, ["init", "-q"])
    gitIn(sb, ws, ["commit", "-q", "--allow-empty", "-m", "x"])
    gitIn(sb, ws, ["worktree", "add", "-q", join(sb.root, "wt-b")])
    const gitdir = join(ws, ".git/worktrees/wt-b/gitdir")
    unlinkSync(gitdir)
    symlinkSync(netrc, gitdir)
    expect(bashIn(sb, "git worktree list", ws)).toContain("FAKESECRET-netrc")
    const d = await policyCheck(sb, "git worktree list", { cwd: ws })
    expect([d.decision, d.risk]).toEqual(["ask", "high"])
    expect(d.reason).toContain("worktrees/wt-b/gitdir is a link")
  }, 60_000)
})
