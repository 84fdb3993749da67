// A repository config that makes git run a program when it only reads (a .git/config an unpacked
// archive brought): the keys that do, in any case and spelling git accepts, and the plain configs
// every repository has, which must not.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runs } from "../../core/base/gitconfig.ts"
import { gitRepoAt } from "../../core/base/gitrepo.ts"
import { analyzeShellSync } from "../../core/shell/index.ts"
import { removeTree } from "../tmp.ts"

describe("a config that runs a program", () => {
  test.each([
    ["[core]\n\tfsmonitor = cat ~/.pgpass >&2; false #\n", "core.fsmonitor"],
    ["[CORE]\n  FsMonitor=./hook\n", "core.fsmonitor"],
    ["[core] fsmonitor = ./hook\n", "core.fsmonitor"],
    ["[diff]\n\texternal = ./d\n", "diff.external"],
    ['[diff "x"]\n\ttextconv = ./t\n', "diff.x.textconv"],
    ['[filter "lfs"]\n\tclean = ./c %f\n', "filter.lfs.clean"],
    ['[filter "a"]\n\tprocess = ./p\n', "filter.a.process"],
    ['[filter "lfs"]\n\tprocess = git-lfs filter-process && cat ~/.pgpass\n', "filter.lfs.process"],
    ["[gpg]\n\tprogram = ./g\n", "gpg.program"],
    ['[gpg "ssh"]\n\tprogram = ./g\n', "gpg.ssh.program"],
    ["[core]\n\tpager = ./p\n", "core.pager"],
    ["[pager]\n\tlog = ./p\n", "pager.log"],
    ["[include]\n\tpath = ../x\n", "include.path"],
    ['[includeIf "gitdir:/"]\n\tpath = ../x\n', "includeif.gitdir:/.path"],
    ["[diff.x]\n\tcommand = ./d\n", "diff.x.command"],
    ["[core]\n\tfsmonitor\n[core\n", "a section header git reads differently"],
  ])("%j runs: %s", (text, key) => {
    expect(runs(text)).toContain(key)
  })

  test.each([
    "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n",
    '[remote "origin"]\n\turl = git@github.com:a/b.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main\n',
    "[core]\n\tfsmonitor = true\n\tuntrackedCache = true\n[pager]\n\tbranch = false\n",
    "# comment\n; another\n[user]\n\tname = A \\\n\t[core] fsmonitor = continued value\n",
    '[lfs]\n\trepositoryformatversion = 0\n[credential]\n\thelper = store\n',
    '[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n\tprocess = git-lfs filter-process\n\trequired = true\n',
  ])("%j runs nothing", (text) => {
    expect(runs(text)).toBeUndefined()
  })
})

describe("git in the workspace's own repository whose config runs a program", () => {
  let root: string
  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-gitconfig-")))
    for (const ws of ["evil", "plain"]) mkdirSync(join(root, ws, ".git"), { recursive: true })
    writeFileSync(join(root, "evil", ".git", "config"), "[core]\n\tfsmonitor = cat ~/.pgpass >&2; false #\n")
    writeFileSync(join(root, "plain", ".git", "config"), "[core]\n\tbare = false\n")
  })
  afterAll(() => removeTree(root))

  test("gitRepoAt names the key; a plain config stays own", () => {
    expect(gitRepoAt(join(root, "evil"), join(root, "evil"))).toBe("own:core.fsmonitor = cat ~/.pgpass >&2")
    expect(gitRepoAt(join(root, "plain"), join(root, "plain"))).toBe("own")
  })

  test("git status there is medium, naming the key; in a plain repository it stays safe", () => {
    const at = (ws: string) => ({ cwd: ws, workspace: ws, home: "/home/dev", gitRepo: (d: string) => gitRepoAt(d, ws) })
    const evil = analyzeShellSync("git status --short", at(join(root, "evil")))
    expect({ risk: evil.risk, reason: evil.reasons[0]?.includes("core.fsmonitor") }).toEqual({ risk: "medium", reason: true })
    expect(analyzeShellSync("git status --short", at(join(root, "plain"))).risk).toBe("safe")
  })
})
