// A git config holding a credential is read by more than the commands that name it: a recursive read or
// a broad glob that reaches .git/config, `git var -l`, and the git commands of a repository whose token
// sits in config.worktree or in a linked worktree's git directory. Each asks high naming the key; the
// same reads of an ordinary repository stay allowed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"

const TOKEN = '[core]\n\tbare = false\n[remote "origin"]\n\turl = https://user:FAKESECRET-ghtoken@127.0.0.1/x.git\n'
const PLAIN = '[core]\n\tbare = false\n[remote "origin"]\n\turl = https://github.com/o/r.git\n'

describe("git config credentials reached by walks, globs and other git commands", () => {
  let root: string
  let ws: string
  let home: string
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-gitcreds-walk-")))
    ws = join(root, "ws")
    home = join(root, "home")
    mkdirSync(join(ws, ".git", "modules", "sub"), { recursive: true })
    mkdirSync(join(ws, "src"), { recursive: true })
    writeFileSync(join(ws, "src", "a.ts"), "export const a = 1\n")
    mkdirSync(home)
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const decideAt = async (cwd: string, command: string, policy = "default") => {
    const call = await prepareCall("shell", { command }, { cwd, workspace: cwd, home, tmpDirs: ["/tmp"] })
    return decide(bundledPolicy(policy as "default"), call, { grants: [] })
  }
  const expectAsk = async (cwd: string, commands: string[], key: string) => {
    for (const command of commands) {
      const d = await decideAt(cwd, command)
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes(key), secret: d.reason.includes("FAKESECRET") }).toEqual({
        command, decision: "ask", risk: "high", named: true, secret: false,
      })
    }
  }
  const expectAllow = async (cwd: string, commands: string[]) => {
    for (const command of commands) {
      const d = await decideAt(cwd, command)
      expect({ command, decision: d.decision, reason: d.reason }).toEqual({ command, decision: "allow", reason: d.reason })
    }
  }

  test("recursive reads and broad globs that reach .git/config ask", async () => {
    writeFileSync(join(ws, ".git", "config"), TOKEN)
    await expectAsk(ws, [
      "grep -r FAKE .", "grep -r FAKE .git", "grep -R x .git/", "grep -r --include=config FAKE", "grep -rl . .git",
      "cat .git/*", "tail -n +1 .git/*", 'grep -c "" .git/*', "rg -uu FAKE", "rg --hidden FAKE", "rg FAKE .git", "rg -uuu FAKE .git",
      "ag FAKE .git", "ag -u FAKE .git", "head -n 5 .git/*", "cat .git/?onfig*",
    ], "remote.origin.url (a URL with a password)")
    const grep = await prepareCall("grep", { pattern: "FAKE", path: join(ws, ".git") }, { cwd: ws, workspace: ws, home, tmpDirs: ["/tmp"], toolRisk: "safe" })
    const d = decide(bundledPolicy("default"), grep, { grants: [] })
    expect([d.decision, d.risk]).toEqual(["ask", "high"])
  })

  test("a submodule's config below .git/modules is judged the same way", async () => {
    writeFileSync(join(ws, ".git", "config"), PLAIN)
    writeFileSync(join(ws, ".git", "modules", "sub", "config"), '[remote "origin"]\n\turl = https://u:FAKESECRET-mod@127.0.0.1/m.git\n')
    try {
      await expectAsk(ws, ["ag FAKE .git", "grep -r FAKE .git", "cat .git/modules/*/config"], "remote.origin.url (a URL with a password)")
    } finally {
      rmSync(join(ws, ".git", "modules", "sub", "config"))
    }
  })

  test("git var -l prints the config: asks when it holds a credential", async () => {
    writeFileSync(join(ws, ".git", "config"), TOKEN)
    await expectAsk(ws, ["git var -l", "git -C . var -l"], "remote.origin.url")
    await expectAllow(ws, ["git var GIT_AUTHOR_IDENT"])
  })

  test("config.worktree (extensions.worktreeConfig) is read by git's config dumpers", async () => {
    writeFileSync(join(ws, ".git", "config"), "[core]\n\trepositoryformatversion = 1\n[extensions]\n\tworktreeConfig = true\n")
    writeFileSync(join(ws, ".git", "config.worktree"), '[remote "up"]\n\turl = https://u:FAKESECRET-wt@127.0.0.1/y\n')
    try {
      await expectAsk(ws, [
        "git remote -v", "git config -l", "git config --worktree -l", "git config list --worktree", "git remote get-url up",
        "git config --get remote.up.url", "git remote show -n up", "git var -l",
      ], "remote.up.url (a URL with a password)")
    } finally {
      rmSync(join(ws, ".git", "config.worktree"))
    }
  })

  test("a linked worktree (.git is a file): its git directory's and the common config are judged, no crash", async () => {
    const main = join(root, "main")
    const wt = join(root, "wt")
    mkdirSync(join(main, ".git", "worktrees", "wt"), { recursive: true })
    mkdirSync(wt, { recursive: true })
    writeFileSync(join(main, ".git", "config"), TOKEN)
    writeFileSync(join(main, ".git", "worktrees", "wt", "commondir"), "../..\n")
    writeFileSync(join(main, ".git", "worktrees", "wt", "HEAD"), "ref: refs/heads/wt\n")
    writeFileSync(join(wt, ".git"), `gitdir: ${join(main, ".git", "worktrees", "wt")}\n`)
    await expectAsk(wt, ["git remote -v", "git remote --verb", "git remote --ve", "git remote --v", "git config -l", "git var -l"], "remote.origin.url (a URL with a password)")
    writeFileSync(join(main, ".git", "config"), PLAIN)
    writeFileSync(join(main, ".git", "worktrees", "wt", "config.worktree"), '[remote "up"]\n\turl = https://u:FAKESECRET-wt@127.0.0.1/y\n')
    await expectAsk(wt, ["git remote -v", "git config -l"], "remote.up.url")
    rmSync(join(main, ".git", "worktrees", "wt", "config.worktree"))
    await expectAllow(wt, ["git remote -v", "git config -l", "git status"])
  })

  test("a token as a URL's user part (GitHub's and GitLab's documented form) is a credential; a user name is not", async () => {
    for (const url of ["https://ghp_FAKESECRET16charsxxxxxxxx@github.com/o/r.git", "https://FAKESECRET-11@h/r", "http://glpat-FAKESECRET@gitlab.com/o/r", "https://x-access-token@github.com/o/r", "https://github_pat_11AAFAKE@github.com/o/r"]) {
      writeFileSync(join(ws, ".git", "config"), `[remote "o"]\n\turl = ${url}\n`)
      await expectAsk(ws, ["git remote -v", "git remote get-url o", "git config -l", "cat .git/config"], "remote.o.url (a URL with a token as its user)")
    }
    for (const url of ["https://contoso@dev.azure.com/contoso/p/_git/r", "https://alice@example.com/r.git", "git@github.com:o/r.git", "ssh://git@host/r"]) {
      writeFileSync(join(ws, ".git", "config"), `[remote "o"]\n\turl = ${url}\n`)
      await expectAllow(ws, ["git remote -v", "git config -l", "cat .git/config"])
    }
  })

  test("an ordinary repository: the same walks and git commands stay allowed", async () => {
    writeFileSync(join(ws, ".git", "config"), PLAIN)
    await expectAllow(ws, ["grep -r FAKE .", "grep -rn foo src", "cat src/*.ts", "cat .git/*", "rg -uu FAKE", "git var -l", "git remote -v", "git config -l", "git status"])
  })
})
