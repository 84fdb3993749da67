// Attack review 8B classes 2 and 3 and the git-dir link variants, over real repositories: a partial
// clone's reads fetch from its promisor remote (network; its transport keys then run), git's old remote
// files and .gitmodules hold remote URLs that git remote and a read print, and linked worktrees' and
// checked-out submodules' git-dir files are quoted when they are links. Each attack asks naming its
// cause; its everyday neighbour stays allowed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"
import { lazyFetchLayer, lazyLayerFor } from "../../core/base/gitpromisor.ts"

let root: string
let home: string
const ENV = () => ({ ...process.env, GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@x", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@x", GIT_CONFIG_NOSYSTEM: "1", HOME: home })
function git(cwd: string, ...args: string[]): string {
  const r = Bun.spawnSync(["git", "-c", "init.defaultBranch=main", "-c", "protocol.file.allow=always", ...args], { cwd, env: ENV() })
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`)
  return r.stdout.toString().trim()
}
function repo(dir: string): string {
  mkdirSync(dir, { recursive: true })
  git(dir, "init", "-q")
  writeFileSync(join(dir, "a.txt"), "a\n")
  git(dir, "add", "-A")
  git(dir, "commit", "-qm", "one")
  return dir
}
async function decideIn(ws: string, command: string, name: "default" | "ci" = "default", cwd = ws) {
  const policy = bundledPolicy(name)
  const call = await prepareCall("shell", { command }, { cwd, workspace: ws, home, env: { HOME: home }, tmpDirs: [], policy })
  return decide(policy, call, { grants: [] })
}
async function verdicts(ws: string, commands: string[], name: "default" | "ci" = "default") {
  const out: Record<string, string> = {}
  for (const command of commands) {
    const d = await decideIn(ws, command, name)
    out[command] = `${d.decision}/${d.risk}`
  }
  return out
}
const each = (commands: string[], v: string) => Object.fromEntries(commands.map((c) => [c, v]))

beforeAll(async () => {
  await loadParser()
  root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-lazy-")))
  home = join(root, "home")
  mkdirSync(home)
  writeFileSync(join(home, ".netrc"), "machine x login y password FAKESECRET\n")
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe("partial clones", () => {
  const READS = ["git show HEAD:a.txt", "git log -p", "git diff HEAD~1 HEAD", "git grep a HEAD", "git cat-file -p HEAD:a.txt", "git blame HEAD -- a.txt", "git status"]
  const NO_OBJECTS = ["git remote -v", "git config -l", "git ls-files", "git help log"]

  test("the config's marks and transport keys give the layer", () => {
    expect(lazyFetchLayer([{ key: "remote.origin.url", value: "https://x/y" }], "r")).toBeUndefined()
    expect(lazyFetchLayer([{ key: "remote.origin.promisor", value: "false" }], "r")).toBeUndefined()
    for (const mark of [{ key: "remote.origin.promisor", value: "true" }, { key: "remote.origin.promisor", value: null }, { key: "extensions.partialclone", value: "origin" }, { key: "remote.up.partialclonefilter", value: "blob:none" }]) {
      const layer = lazyFetchLayer([mark], "r")!
      expect(lazyLayerFor(layer, "show")?.level).toBe("medium")
      expect(lazyLayerFor(layer, "branch")).toBeUndefined()
      const high = lazyFetchLayer([mark, { key: "core.sshcommand", value: "cat ~/.netrc" }], "r")!
      expect(lazyLayerFor(high, "branch")).toEqual({ level: "high", reason: expect.stringContaining("core.sshcommand = cat ~/.netrc") })
      expect(lazyLayerFor(high, "config")).toBeUndefined()
    }
  })

  test("a promisor remote makes the reads that fetch network (medium); the ones that read no object stay allowed", async () => {
    const src = repo(join(root, "src"))
    writeFileSync(join(src, "a.txt"), "b\n")
    git(src, "commit", "-qam", "two")
    git(src, "config", "uploadpack.allowFilter", "true")
    const ws = join(root, "pc")
    git(root, "clone", "-q", "--filter=blob:none", `file://${src}`, ws)
    expect(await verdicts(ws, READS)).toEqual(each(READS, "ask/medium"))
    expect((await decideIn(ws, "git show")).reason).toContain("partial clone (remote.origin.promisor = true)")
    expect(await verdicts(ws, [...NO_OBJECTS, "git branch -a", "git rev-parse --show-toplevel"])).toEqual(each([...NO_OBJECTS, "git branch -a", "git rev-parse --show-toplevel"], "allow/safe"))
    // its remote's transport runs a program: every command that reads an object is high, ci too
    for (const [key, value] of [["remote.origin.uploadpack", "cat ~/.netrc >&2; git-upload-pack"], ["core.sshCommand", "cat ~/.netrc >&2; false"], ["protocol.ext.allow", "always"], ["credential.helper", "!cat ~/.netrc"]] as const) {
      git(ws, "config", key, value)
      const HIGH = [...READS, "git log --oneline", "git branch -v", "git remote update", "git worktree add w"]
      expect({ key, v: await verdicts(ws, HIGH, "ci") }).toEqual({ key, v: each(HIGH, "ask/high") })
      expect(await verdicts(ws, NO_OBJECTS)).toEqual(each(NO_OBJECTS, "allow/safe"))
      git(ws, "config", "--unset", key)
    }
    // a medium partial clone never hides a high finding of the same repository (a git-dir link)
    renameSync(join(ws, ".git/packed-refs"), join(root, "packed-refs"))
    symlinkSync(join(home, ".netrc"), join(ws, ".git/packed-refs"))
    const linked = await decideIn(ws, "git show", "ci")
    expect([linked.decision, linked.risk, linked.reason.includes("packed-refs is a link")]).toEqual(["ask", "high", true])
    unlinkSync(join(ws, ".git/packed-refs"))
    renameSync(join(root, "packed-refs"), join(ws, ".git/packed-refs"))
    // a full clone of the same repository: nothing to fetch
    const full = join(root, "full")
    git(root, "clone", "-q", `file://${src}`, full)
    expect(await verdicts(full, READS)).toEqual(each(READS, "allow/safe"))
  })

  test("an embedded repository and a checked-out submodule that are partial clones with a transport that runs", async () => {
    const ws = repo(join(root, "super"))
    const sub = repo(join(ws, "vendor/lib"))
    git(sub, "config", "remote.origin.url", "ext::sh -c touch% /tmp/x")
    git(sub, "config", "remote.origin.promisor", "true")
    git(sub, "config", "protocol.ext.allow", "always")
    const d = await decideIn(ws, "git -C vendor/lib show HEAD~1", "ci")
    expect([d.decision, d.risk]).toEqual(["ask", "high"])
    expect(d.reason).toContain("vendor/lib, a partial clone")
    // recorded as a submodule: git status in the superproject runs git status in it
    git(ws, "add", "vendor/lib")
    const s = await decideIn(ws, "git status", "ci")
    expect([s.decision, s.risk]).toEqual(["ask", "high"])
    expect(s.reason).toContain("submodule")
    expect((await decideIn(ws, "git config -l", "ci")).decision).toBe("allow")
  })
})

describe("git's other sources of remote URLs", () => {
  test("$GIT_DIR/remotes, $GIT_DIR/branches and .gitmodules with a password ask high; without one they stay allowed", async () => {
    const ws = repo(join(root, "lr"))
    mkdirSync(join(ws, ".git/remotes"), { recursive: true })
    mkdirSync(join(ws, ".git/branches"), { recursive: true })
    writeFileSync(join(ws, ".git/remotes/up"), "URL: https://example.com/x.git\nPull: refs/heads/main:refs/heads/up\n")
    writeFileSync(join(ws, ".git/branches/bx"), "https://example.com/y.git#main\n")
    writeFileSync(join(ws, ".gitmodules"), '[submodule "lib"]\n\tpath = lib\n\turl = https://github.com/o/lib.git\n')
    git(ws, "add", ".gitmodules")
    git(ws, "commit", "-qm", "submodule")
    const COMMANDS = ["git remote get-url up", "git remote show -n bx", "git remote -v", "cat .git/remotes/up", "cat .git/branches/bx", "cat .git/remotes/*", "grep -r URL .git/remotes", "cat .gitmodules", "grep -r url .", "git log -p", "git show", "git grep url HEAD", "git show HEAD:.gitmodules"]
    expect(await verdicts(ws, COMMANDS)).toEqual(each(COMMANDS, "allow/safe"))
    writeFileSync(join(ws, ".git/remotes/up"), "URL: https://user:FAKESECRET@example.com/x.git\n")
    writeFileSync(join(ws, ".git/branches/bx"), "https://ghp_0123456789abcdefghij0123@example.com/y.git#main\n")
    writeFileSync(join(ws, ".gitmodules"), '[submodule "lib"]\n\tpath = lib\n\turl = https://oauth2:FAKESECRET@example.com/lib.git\n')
    for (const command of COMMANDS) {
      const d = await decideIn(ws, command)
      expect({ command, v: `${d.decision}/${d.risk}`, named: d.reason.includes("holds a credential"), secret: d.reason.includes("FAKESECRET") }).toEqual({ command, v: "ask/high", named: true, secret: false })
    }
    expect((await decideIn(ws, "cat .git/branches/bx")).reason).toContain(".git/branches/bx")
    // a host's read of them
    for (const path of [join(ws, ".git/remotes/up"), join(ws, ".gitmodules")]) {
      const call = await prepareCall("read_file", { path }, { cwd: ws, workspace: ws, home, tmpDirs: [], toolRisk: "safe" })
      const d = decide(bundledPolicy("default"), call, { grants: [] })
      expect({ path, v: `${d.decision}/${d.risk}` }).toEqual({ path, v: "ask/high" })
    }
  })

  test("a workspace whose .git is a file: the remotes files of the git directory it names", async () => {
    const ws = join(root, "sep")
    mkdirSync(ws)
    git(ws, "init", "-q", "--separate-git-dir", join(ws, "gitdata"))
    mkdirSync(join(ws, "gitdata/remotes"), { recursive: true })
    writeFileSync(join(ws, "gitdata/remotes/up"), "URL: https://user:FAKESECRET@example.com/x.git\n")
    for (const command of ["git remote -v", "cat gitdata/remotes/up", "cat .git/remotes/up"]) {
      const d = await decideIn(ws, command)
      expect({ command, v: `${d.decision}/${d.risk}` }).toEqual({ command, v: "ask/high" })
    }
  })
})

describe("git-dir files git quotes, as links", () => {
  test("packed-refs and info/attributes (already judged), a linked worktree's files and a submodule's packed-refs", async () => {
    const netrc = join(home, ".netrc")
    const ws = repo(join(root, "links"))
    symlinkSync(netrc, join(ws, ".git/packed-refs"))
    expect((await decideIn(ws, "git show-ref", "ci")).risk).toBe("high")
    unlinkSync(join(ws, ".git/packed-refs"))
    mkdirSync(join(ws, ".git/info"), { recursive: true })
    symlinkSync(netrc, join(ws, ".git/info/attributes"))
    expect((await decideIn(ws, "git check-attr -a machine", "ci")).risk).toBe("high")
    unlinkSync(join(ws, ".git/info/attributes"))
    git(ws, "worktree", "add", "-q", join(root, "links-b"))
    expect((await decideIn(ws, "git worktree list")).decision).toBe("allow")
    for (const f of ["gitdir", "locked"]) {
      const file = join(ws, ".git/worktrees/links-b", f)
      rmSync(file, { force: true })
      symlinkSync(netrc, file)
      const d = await decideIn(ws, "git worktree list --verbose", "ci")
      expect({ f, v: `${d.decision}/${d.risk}`, named: d.reason.includes(`worktrees/links-b/${f} is a link`) }).toEqual({ f, v: "ask/high", named: true })
      unlinkSync(file)
      if (f === "gitdir") writeFileSync(file, `${join(root, "links-b")}/.git\n`)
    }
    const sub = repo(join(ws, "lib"))
    git(ws, "add", "lib")
    expect((await decideIn(ws, "git status", "ci")).decision).toBe("allow")
    symlinkSync(netrc, join(sub, ".git/packed-refs"))
    const d = await decideIn(ws, "git status", "ci")
    expect([d.decision, d.risk]).toEqual(["ask", "high"])
    expect(d.reason).toContain("submodule lib")
  })
})
