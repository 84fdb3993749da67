// Git state the credential and content checks follow as git does (attack review 7): configs included
// from the user's config or named by the environment, history reachable only from a reflog or a
// pseudo-ref, pathspec magic, rg's other ignore sources, git-dir files that are links. Real repositories
// and files; each attack asks naming its cause, and its everyday neighbour stays allowed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"

let root: string
let home: string
const ENV = () => ({ ...process.env, GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@x", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@x", GIT_CONFIG_NOSYSTEM: "1", HOME: home })
function git(cwd: string, ...args: string[]): string {
  const r = Bun.spawnSync(["git", "-c", "init.defaultBranch=main", ...args], { cwd, env: ENV() })
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`)
  return r.stdout.toString().trim()
}
function repo(name: string, files: Record<string, string>): string {
  const dir = join(root, name)
  mkdirSync(dir, { recursive: true })
  git(dir, "init", "-q")
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(join(dir, f, ".."), { recursive: true })
    writeFileSync(join(dir, f), text)
  }
  git(dir, "add", "-A")
  git(dir, "commit", "-qm", "one")
  return dir
}
async function decideIn(ws: string, command: string, env: Record<string, string> = {}, name: "default" | "ci" = "default") {
  const policy = bundledPolicy(name)
  const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, home, env: { HOME: home, ...env }, tmpDirs: [], policy })
  return decide(policy, call, { grants: [] })
}
async function asks(ws: string, commands: string[], named: string, env: Record<string, string> = {}) {
  for (const command of commands) {
    const d = await decideIn(ws, command, env)
    expect({ command, decision: d.decision, named: d.reason.includes(named), reason: d.reason }).toEqual({ command, decision: "ask", named: true, reason: d.reason })
  }
}
async function allows(ws: string, commands: string[], env: Record<string, string> = {}) {
  for (const command of commands) {
    const d = await decideIn(ws, command, env)
    expect({ command, decision: d.decision, reason: d.reason }).toEqual({ command, decision: "allow", reason: d.reason })
  }
}

beforeAll(async () => {
  await loadParser()
  root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-gitstate-")))
  home = join(root, "home")
  mkdirSync(home)
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe("git configs git reads beside the fixed ones", () => {
  test("include.path and includeIf of ~/.gitconfig (relative, ~/, nested), and a linked ~/.gitconfig", async () => {
    const ws = repo("cfg", { "a.txt": "a\n" })
    const secret = '[remote "z"]\n\turl = https://u:FAKESECRET-inc@h/r\n'
    const layouts: [string, Record<string, string>][] = [
      ["[include]\n\tpath = ~/.gitconfig.local\n", { ".gitconfig.local": secret }],
      ["[include]\n\tpath = dot/one\n", { "dot/one": "[include]\n\tpath = two\n", "dot/two": secret }],
      ['[includeIf "gitdir:~/work/"]\n\tpath = ~/.gitconfig-work\n', { ".gitconfig-work": "[http]\n\textraheader = AUTHORIZATION: basic FAKE\n" }],
    ]
    for (const [main, extra] of layouts) {
      writeFileSync(join(home, ".gitconfig"), main)
      for (const [f, text] of Object.entries(extra)) {
        mkdirSync(join(home, f, ".."), { recursive: true })
        writeFileSync(join(home, f), text)
      }
      await asks(ws, ["git config -l", "git remote -v", "git var -l", "git config --get-regexp url"], "which")
      await allows(ws, ["git status", "git log --oneline"])
      for (const f of Object.keys(extra)) unlinkSync(join(home, f))
    }
    // a ~/.gitconfig kept in a dotfiles folder and linked
    mkdirSync(join(root, "dotfiles"))
    writeFileSync(join(root, "dotfiles", "gitconfig"), secret)
    unlinkSync(join(home, ".gitconfig"))
    symlinkSync(join(root, "dotfiles", "gitconfig"), join(home, ".gitconfig"))
    await asks(ws, ["git config -l"], "remote.z.url")
    unlinkSync(join(home, ".gitconfig"))
    await allows(ws, ["git config -l", "git remote -v"])
  })

  test("configs the environment names: XDG_CONFIG_HOME, GIT_CONFIG_GLOBAL/SYSTEM, GIT_CONFIG_COUNT pairs, GIT_CONFIG_PARAMETERS", async () => {
    const ws = join(root, "cfg")
    const xdg = join(root, "xdg")
    mkdirSync(join(xdg, "git"), { recursive: true })
    writeFileSync(join(xdg, "git", "config"), '[remote "y"]\n\turl = https://u:FAKESECRET-xdg@h/r\n')
    await asks(ws, ["git config -l", "git remote -v"], "remote.y.url", { XDG_CONFIG_HOME: xdg })
    await asks(ws, ["git config -l"], "named by the environment", { GIT_CONFIG_GLOBAL: join(xdg, "git", "config") })
    await asks(ws, ["git var -l"], "named by the environment", { GIT_CONFIG_SYSTEM: join(xdg, "git", "config") })
    await asks(ws, ["git config -l"], "GIT_CONFIG_KEY_1", { GIT_CONFIG_COUNT: "2", GIT_CONFIG_KEY_0: "core.x", GIT_CONFIG_VALUE_0: "1", GIT_CONFIG_KEY_1: "remote.q.url", GIT_CONFIG_VALUE_1: "https://ghp_abcdefghijklmnop1234@github.com/o/r" })
    await asks(ws, ["git remote -v"], "GIT_CONFIG_PARAMETERS", { GIT_CONFIG_PARAMETERS: "'http.extraheader'='AUTHORIZATION: basic FAKE'" })
    // the same environment: commands that print no config stay allowed, and an ordinary one is not a credential
    await allows(ws, ["git status", "git log --oneline"], { XDG_CONFIG_HOME: xdg })
    await allows(ws, ["git config -l"], { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "color.ui", GIT_CONFIG_VALUE_0: "auto" })
  })
})

describe("history outside the refs: reflogs, pseudo-refs, older stashes", () => {
  test("a .env committed then reset away is judged where a command can reach it", async () => {
    const ws = repo("reflog", { "a.txt": "a\n" })
    writeFileSync(join(ws, ".env"), "TOKEN=FAKESECRET-reflog\n")
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", "oops")
    git(ws, "reset", "-q", "--hard", "HEAD~1")
    await asks(ws, [
      "git reflog -p", "git reflog show -p", "git log -g -p", "git log --walk-reflogs -p", "git log -p --reflog", "git log -p --branches --reflog",
      "git log -p HEAD@{1}", "git log -p @{1}", "git log -p -1 ORIG_HEAD", "git whatchanged -p -1 ORIG_HEAD", "git grep TOKEN ORIG_HEAD",
      "git grep TOKEN HEAD@{1}", "git diff-tree -p ORIG_HEAD", "git show ORIG_HEAD -- ':^a.txt'", "git show HEAD@{1} -- ':!x'", "git log -pg",
    ], ".env")
    await allows(ws, ["git log -p", "git show", "git log -p --all", "git log --oneline -g", "git reflog", "git stash show -p"])
  })

  test("a commit nothing reaches any more (reflog expired), named by its hash", async () => {
    const ws = repo("dangling", { "a.txt": "a\n" })
    writeFileSync(join(ws, ".env"), "TOKEN=FAKESECRET-dangling\n")
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", "oops")
    const hash = git(ws, "rev-parse", "--short", "HEAD")
    git(ws, "reset", "-q", "--hard", "HEAD~1")
    rmSync(join(ws, ".git", "ORIG_HEAD"), { force: true })
    git(ws, "reflog", "expire", "--expire=now", "--all")
    await asks(ws, [`git log -p ${hash}`, `git grep TOKEN ${hash}`, `git diff-tree -p ${hash}`, `git log -p ${hash}~0`, `git show ${hash}`, `git log -p HEAD..${hash}`], ".env")
    await allows(ws, ["git log -p", "git log -p HEAD", "git reflog -p"])
  })

  test("a blob staged then unstaged (dangling), or only staged, printed by its id", async () => {
    const ws = repo("blobs", { "x.txt": "x\n" })
    writeFileSync(join(ws, ".env"), "API_KEY=FAKESECRET-dangling\n")
    git(ws, "add", "-f", ".env")
    const dangling = git(ws, "rev-parse", ":.env")
    git(ws, "reset", "-q")
    unlinkSync(join(ws, ".env"))
    writeFileSync(join(ws, ".env.prod"), "API=FAKESECRET-staged\n")
    git(ws, "add", "-f", ".env.prod")
    const staged = git(ws, "rev-parse", ":.env.prod")
    const plain = git(ws, "rev-parse", "HEAD:x.txt")
    await asks(ws, [`git cat-file -p ${dangling}`, `git show ${dangling.slice(0, 12)}`, `git cat-file -p ${dangling.slice(0, 7)}`, `git cat-file blob ${dangling}`], "no commit, reflog entry or index entry names")
    await asks(ws, [`git cat-file -p ${staged}`, `git show ${staged.slice(0, 10)}`], ".env.prod")
    await allows(ws, [`git cat-file -p ${plain}`, `git show ${plain.slice(0, 8)}`, "git cat-file -p HEAD", "git fsck --dangling", "git ls-files -s"])
  })

  test("FETCH_HEAD's other lines and an older stash's untracked files", async () => {
    const ws = repo("stash", { "a.txt": "a\n" })
    writeFileSync(join(ws, ".env"), "TOKEN=FAKESECRET-stash\n")
    git(ws, "stash", "-q", "-u")
    writeFileSync(join(ws, "a.txt"), "b\n")
    git(ws, "stash", "-q")
    await asks(ws, ["git stash show -p -u stash@{1}", "git show stash@{1}^3", "git show stash@{1}^3 -- ':^a.txt'"], ".env")
    await allows(ws, ["git stash show -p", "git stash list"])
    const other = repo("fetched", { "b.txt": "b\n" })
    writeFileSync(join(other, ".env"), "TOKEN=FAKESECRET-fetch\n")
    git(other, "add", "-A")
    git(other, "commit", "-qm", "two")
    const head = git(other, "rev-parse", "HEAD")
    const ws2 = repo("fetcher", { "a.txt": "a\n" })
    git(ws2, "fetch", "-q", other, "main")
    // FETCH_HEAD names the fetched commit (no ref reaches it); as a second line too
    writeFileSync(join(ws2, ".git", "FETCH_HEAD"), `${git(ws2, "rev-parse", "HEAD")}\t\tbranch 'x'\n${head}\tnot-for-merge\tbranch 'main' of ${other}\n`)
    await asks(ws2, [`git log -p ${head.slice(0, 10)}`, "git log -p FETCH_HEAD"], ".env")
    await allows(ws2, ["git log -p"])
  })
})

describe("pathspec magic names no file: git prints the rest", () => {
  test("git show and git grep with exclude, top, icase and glob magic ask", async () => {
    const ws = repo("magic", { "a.txt": "a\n", ".env": "K=FAKESECRET-tracked\n" })
    await asks(ws, [
      "git show -- ':^a.txt'", "git show -- ':!a.txt'", "git show -- ':^nothing'", "git show -- ':^a.txt' ':^b'", "git show ':^a.txt'",
      "git show ':(top)'", "git show ':(icase).E*'", "git show ':(exclude)a.txt'", "git show ':(glob)**'", "git show ':/one'",
      "git grep FAKE ':^a.txt'", "git grep FAKE ':!a.txt'",
    ], ".env")
    await allows(ws, ["git show HEAD:a.txt", "git show :a.txt", "git show HEAD:", "git grep FAKE -- a.txt"])
  })
})

describe("rg's other ignore sources", () => {
  test("a whitelist in .git/info/exclude, core.excludesFile, ~/.config/git/ignore; RIPGREP_CONFIG_PATH", async () => {
    const ws = join(root, "rg")
    mkdirSync(join(ws, "sub"), { recursive: true })
    git(ws, "init", "-q")
    writeFileSync(join(ws, ".env"), "TOKEN=FAKESECRET-rg\n")
    writeFileSync(join(ws, "sub", ".env"), "TOKEN=FAKESECRET-rg\n")
    writeFileSync(join(ws, "a.txt"), "TOKEN\n")
    await allows(ws, ["rg TOKEN", "rg TOKEN sub"])
    writeFileSync(join(ws, ".git", "info", "exclude"), "# local\n!.env\n")
    await asks(ws, ["rg TOKEN", "rg TOKEN .", "rg TOKEN sub"], ".env")
    writeFileSync(join(ws, ".git", "info", "exclude"), "!.env.example\n")
    await allows(ws, ["rg TOKEN"])
    writeFileSync(join(ws, ".git", "info", "exclude"), "")
    mkdirSync(join(home, ".config", "git"), { recursive: true })
    writeFileSync(join(home, ".config", "git", "ignore"), "!.env\n")
    await asks(ws, ["rg TOKEN"], ".env")
    unlinkSync(join(home, ".config", "git", "ignore"))
    writeFileSync(join(root, "gign"), "!.e*\n")
    writeFileSync(join(home, ".gitconfig"), `[core]\n\texcludesFile = ${join(root, "gign")}\n`)
    await asks(ws, ["rg TOKEN"], ".env")
    writeFileSync(join(home, ".gitconfig"), "[core]\n\texcludesFile = ~/gign\n")
    writeFileSync(join(home, "gign"), "!.env\n")
    await asks(ws, ["rg TOKEN"], ".env")
    unlinkSync(join(home, ".gitconfig"))
    const rc = join(root, "ripgreprc")
    for (const [text, named] of [["--hidden\n--glob=!.git\n", ".env"], ["-uu\n", ".env"], ["--glob=.env\n", ".env"], ["--pre=./x\n", "--pre"], ["--follow\n", "--follow"], ["--type=sh\n", ".env"], ["-tall\n", ".env"]] as const) {
      writeFileSync(rc, text)
      await asks(ws, ["rg TOKEN"], named, { RIPGREP_CONFIG_PATH: rc })
    }
    writeFileSync(rc, "--smart-case\n--glob=!.git\n# comment\n--max-columns=150\n--type=js\n")
    await allows(ws, ["rg TOKEN"], { RIPGREP_CONFIG_PATH: rc })
  })
})

describe("git-dir files that are links, and alternates outside the workspace", () => {
  test("grafts, alternates, BISECT_LOG, packed-refs as links; alternates naming another store", async () => {
    const ws = repo("state", { "a.txt": "a\n" })
    writeFileSync(join(home, ".netrc"), "machine x login y password FAKESECRET-netrc\n")
    await allows(ws, ["git log --oneline", "git status", "git bisect log"])
    for (const [file, command] of [["info/grafts", "git log --oneline"], ["objects/info/alternates", "git status"], ["BISECT_LOG", "git bisect log"], ["packed-refs", "git log"], ["shallow", "git log"], ["info/exclude", "git status"]] as const) {
      rmSync(join(ws, ".git", file), { force: true })
      symlinkSync(join(home, ".netrc"), join(ws, ".git", file))
      await asks(ws, [command], `${file} is a link`)
      // ci auto-approves medium: a read of what the link leads to is above it
      const ci = await decideIn(ws, command, {}, "ci")
      expect([ci.decision, ci.risk]).toEqual(["ask", "high"])
      unlinkSync(join(ws, ".git", file))
    }
    const store = join(root, "otherstore", "objects")
    mkdirSync(store, { recursive: true })
    writeFileSync(join(ws, ".git", "objects", "info", "alternates"), `${store}\n`)
    await asks(ws, ["git log --oneline"], "an object store outside the workspace")
    // one inside the workspace is its own files
    mkdirSync(join(ws, "vendor", "objects"), { recursive: true })
    writeFileSync(join(ws, ".git", "objects", "info", "alternates"), "../../vendor/objects\n")
    await allows(ws, ["git log --oneline"])
    unlinkSync(join(ws, ".git", "objects", "info", "alternates"))
    // repo's layout: a state folder linked to a folder of the workspace is read like its own; one outside is not
    mkdirSync(join(ws, "shared", "rr-cache"), { recursive: true })
    symlinkSync(join(ws, "shared", "rr-cache"), join(ws, ".git", "rr-cache"))
    await allows(ws, ["git log --oneline", "git status"])
    unlinkSync(join(ws, ".git", "rr-cache"))
    mkdirSync(join(root, "outside-logs"))
    rmSync(join(ws, ".git", "logs"), { recursive: true, force: true })
    symlinkSync(join(root, "outside-logs"), join(ws, ".git", "logs"))
    await asks(ws, ["git log --oneline"], "logs is a link")
  })
})
