// Reviews 7B and 8A, git state and searches: configs git reads that ccode did not (an include of
// ~/.gitconfig, $XDG_CONFIG_HOME/git/config), history reachable only from the reflog or ORIG_HEAD,
// pathspec magic in git show, rg's other ignore sources, git-dir files that are links to a credential,
// a dangling blob by its id. Each attack is first proven in bash in the sandbox (a fake secret), then
// `ccode policy check` must ask and name the cause.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { bashIn, gitIn, policyCheck, sandbox, type Sandbox } from "./harness.ts"

describe("round 7 git", () => {
  let sb: Sandbox
  const asks = async (command: string, cwd: string, named: string, env: Record<string, string> = {}) => {
    const d = await policyCheck(sb, command, { cwd, env })
    expect({ command, decision: d.decision, named: d.reason.includes(named), reason: d.reason }).toEqual({ command, decision: "ask", named: true, reason: d.reason })
  }
  const allows = async (command: string, cwd: string) => {
    const d = await policyCheck(sb, command, { cwd })
    expect({ command, decision: d.decision, reason: d.reason }).toEqual({ command, decision: "allow", reason: d.reason })
  }

  beforeAll(() => {
    sb = sandbox()
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  test("an include of ~/.gitconfig and $XDG_CONFIG_HOME/git/config hold a token: git config -l prints it, ccode asks", async () => {
    const repo = join(sb.work, "cfg")
    mkdirSync(repo)
    gitIn(sb, repo, ["init", "-q"])
    writeFileSync(join(sb.home, ".gitconfig"), "[include]\n\tpath = ~/.gitconfig.local\n")
    writeFileSync(join(sb.home, ".gitconfig.local"), '[remote "z"]\n\turl = https://u:FAKESECRET-inc@127.0.0.1/r\n')
    for (const command of ["git config -l", "git remote -v"]) {
      expect(bashIn(sb, command, repo)).toContain("FAKESECRET-inc")
      await asks(command, repo, ".gitconfig.local")
    }
    await allows("git status", repo)
    unlinkSync(join(sb.home, ".gitconfig"))
    mkdirSync(join(sb.env.XDG_CONFIG_HOME!, "git"), { recursive: true })
    writeFileSync(join(sb.env.XDG_CONFIG_HOME!, "git", "config"), '[remote "y"]\n\turl = https://u:FAKESECRET-xdg@127.0.0.1/r\n')
    expect(bashIn(sb, "git config -l", repo)).toContain("FAKESECRET-xdg")
    await asks("git config -l", repo, "remote.y.url")
    rmSync(join(sb.env.XDG_CONFIG_HOME!, "git"), { recursive: true })
  })

  test("a .env reachable only from the reflog and ORIG_HEAD (committed, then reset away): proven, and ccode asks", async () => {
    const repo = join(sb.work, "reflog")
    mkdirSync(repo)
    writeFileSync(join(repo, "a.txt"), "a\n")
    gitIn(sb, repo, ["init", "-q"])
    gitIn(sb, repo, ["add", "-A"])
    gitIn(sb, repo, ["commit", "-qm", "one"])
    writeFileSync(join(repo, ".env"), "TOKEN=FAKESECRET-reflog\n")
    gitIn(sb, repo, ["add", "-A"])
    gitIn(sb, repo, ["commit", "-qm", "oops"])
    gitIn(sb, repo, ["reset", "-q", "--hard", "HEAD~1"])
    for (const command of ["git reflog -p", "git log -g -p", "git log -p HEAD@{1}", "git log -p -1 ORIG_HEAD", "git grep TOKEN ORIG_HEAD", "git diff-tree -p ORIG_HEAD", "git show ORIG_HEAD -- ':^a.txt'"]) {
      expect({ command, out: bashIn(sb, command, repo).includes("FAKESECRET-reflog") }).toEqual({ command, out: true })
      await asks(command, repo, ".env")
    }
    // what the refs reach holds no .env: the everyday forms stay allowed
    for (const command of ["git log -p", "git show", "git log -p --all", "git log --oneline -g"]) await allows(command, repo)
  })

  test("pathspec magic in git show prints everything but the named file: proven, and ccode asks", async () => {
    const repo = join(sb.work, "magic")
    mkdirSync(repo)
    writeFileSync(join(repo, "a.txt"), "a\n")
    writeFileSync(join(repo, ".env"), "K=FAKESECRET-tracked\n")
    gitIn(sb, repo, ["init", "-q"])
    gitIn(sb, repo, ["add", "-A"])
    gitIn(sb, repo, ["commit", "-qm", "one"])
    for (const command of ["git show -- ':^a.txt'", "git show -- ':!a.txt'", "git show ':(top)'", "git show ':(icase).E*'", "git show ':(exclude)a.txt'"]) {
      expect({ command, out: bashIn(sb, command, repo).includes("FAKESECRET-tracked") }).toEqual({ command, out: true })
      await asks(command, repo, ".env")
    }
    await allows("git show HEAD:a.txt", repo)
    await allows("git show :a.txt", repo)
  })

  test("rg's whitelist from .git/info/exclude, the global git excludes and RIPGREP_CONFIG_PATH: proven, and ccode asks", async () => {
    const repo = join(sb.work, "rg")
    mkdirSync(join(repo, "sub"), { recursive: true })
    gitIn(sb, repo, ["init", "-q"])
    writeFileSync(join(repo, ".env"), "TOKEN=FAKESECRET-rg\n")
    writeFileSync(join(repo, "sub", ".env"), "TOKEN=FAKESECRET-rg\n")
    writeFileSync(join(repo, "a.txt"), "TOKEN here\n")
    await allows("rg TOKEN", repo)
    writeFileSync(join(repo, ".git", "info", "exclude"), "!.env\n")
    expect(bashIn(sb, "rg TOKEN", repo)).toContain("FAKESECRET-rg")
    await asks("rg TOKEN", repo, ".env")
    await asks("rg TOKEN sub", repo, ".env")
    writeFileSync(join(repo, ".git", "info", "exclude"), "")
    mkdirSync(join(sb.env.XDG_CONFIG_HOME!, "git"), { recursive: true })
    writeFileSync(join(sb.env.XDG_CONFIG_HOME!, "git", "ignore"), "!.env\n")
    expect(bashIn(sb, "rg TOKEN", repo)).toContain("FAKESECRET-rg")
    await asks("rg TOKEN", repo, ".env")
    rmSync(join(sb.env.XDG_CONFIG_HOME!, "git"), { recursive: true })
    const rc = join(sb.root, "ripgreprc")
    writeFileSync(rc, "--hidden\n--glob=!.git\n")
    expect(bashIn(sb, "rg TOKEN", repo, { RIPGREP_CONFIG_PATH: rc })).toContain("FAKESECRET-rg")
    await asks("rg TOKEN", repo, ".env", { RIPGREP_CONFIG_PATH: rc })
    await allows("rg TOKEN", repo)
  })

  test("a blob staged then unstaged (dangling) printed by its id: proven, and ccode asks high", async () => {
    const repo = join(sb.work, "blob")
    mkdirSync(repo)
    writeFileSync(join(repo, "x.txt"), "x\n")
    gitIn(sb, repo, ["init", "-q"])
    gitIn(sb, repo, ["add", "-A"])
    gitIn(sb, repo, ["commit", "-qm", "one"])
    writeFileSync(join(repo, ".env"), "API_KEY=FAKESECRET-dangling\n")
    gitIn(sb, repo, ["add", "-f", ".env"])
    const id = gitIn(sb, repo, ["rev-parse", ":.env"])
    gitIn(sb, repo, ["reset", "-q"])
    unlinkSync(join(repo, ".env"))
    for (const command of [`git cat-file -p ${id}`, `git show ${id.slice(0, 10)}`]) {
      expect({ command, out: bashIn(sb, command, repo).includes("FAKESECRET-dangling") }).toEqual({ command, out: true })
      await asks(command, repo, "no commit, reflog entry or index entry names")
    }
    await allows(`git cat-file -p ${gitIn(sb, repo, ["rev-parse", "HEAD:x.txt"])}`, repo)
  })

  test("git-dir files that are links to a credential (info/grafts, BISECT_LOG): git prints the secret, ccode asks", async () => {
    const repo = join(sb.work, "state")
    mkdirSync(repo)
    writeFileSync(join(repo, "a.txt"), "a\n")
    gitIn(sb, repo, ["init", "-q"])
    gitIn(sb, repo, ["add", "-A"])
    gitIn(sb, repo, ["commit", "-qm", "one"])
    writeFileSync(join(sb.home, ".netrc"), "machine x login y password FAKESECRET-netrc\n")
    await allows("git log --oneline", repo)
    for (const [file, command] of [["info/grafts", "git log --oneline"], ["BISECT_LOG", "git bisect log"]] as const) {
      symlinkSync(join(sb.home, ".netrc"), join(repo, ".git", file))
      expect({ command, out: bashIn(sb, command, repo).includes("FAKESECRET-netrc") }).toEqual({ command, out: true })
      await asks(command, repo, `${file} is a link`)
      unlinkSync(join(repo, ".git", file))
    }
  })
})
