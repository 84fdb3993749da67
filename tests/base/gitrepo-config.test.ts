// The workspace repository's config, its submodules' configs, and which git commands they make run a
// program or read a file: a reading command asks only when the key it uses is set.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gitRepoAt } from "../../core/base/gitrepo.ts"
import { analyzeShellSync } from "../../core/shell/index.ts"
import { removeTree } from "../tmp.ts"

describe("a repository config read for what each git command runs", () => {
  let root: string
  const ws = (name: string, config: string, files: Record<string, string> = {}) => {
    const w = join(root, name)
    mkdirSync(join(w, ".git"), { recursive: true })
    writeFileSync(join(w, ".git", "config"), config)
    for (const [p, text] of Object.entries(files)) {
      mkdirSync(join(w, p, ".."), { recursive: true })
      writeFileSync(join(w, p), text)
    }
    return w
  }
  const risk = (w: string, cmd: string) => {
    const a = analyzeShellSync(cmd, { cwd: w, workspace: w, home: "/home/dev", gitRepo: (d: string) => gitRepoAt(d, w) })
    return { cmd, risk: a.risk, reason: a.reasons[0] ?? "" }
  }
  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-gitrepo-config-")))
  })
  afterAll(() => removeTree(root))

  test("core.fsmonitor in a submodule's config (.git/modules/NAME/config) makes every git command medium", () => {
    const w = ws("sub", "[core]\n\tbare = false\n", {
      ".git/modules/libs/a/config": "[core]\n\tworktree = ../../../../libs/a\n\tfsmonitor = cat ~/.netrc >&2; false\n",
      ".git/modules/libs/a/HEAD": "ref: refs/heads/main\n",
    })
    expect(gitRepoAt(w, w)).toContain("core.fsmonitor")
    expect(risk(w, "git status")).toEqual({ cmd: "git status", risk: "medium", reason: expect.stringContaining("core.fsmonitor") })
  })

  test("a submodule's config with only its own work tree (inside the workspace) leaves git status safe", () => {
    const w = ws("subplain", "[core]\n\tbare = false\n", {
      ".git/modules/objects/config": "[core]\n\tworktree = ../../../objects\n",
      ".git/modules/objects/HEAD": "ref: refs/heads/main\n",
    })
    expect(gitRepoAt(w, w)).toBe("own")
    expect(risk(w, "git status").risk).toBe("safe")
  })

  test("core.worktree outside the workspace makes every git command medium", () => {
    const w = ws("worktree", "[core]\n\tworktree = /root\n")
    expect(risk(w, "git diff")).toEqual({ cmd: "git diff", risk: "medium", reason: expect.stringContaining("core.worktree") })
  })

  test.each([
    ["[man]\n\tviewer = x\n", "git help log", "git log --help", "git status"],
    ['[man "x"]\n\tcmd = ./run\n', "git help -m log", "git diff --help", "git log"],
    ["[blame]\n\tignoreRevsFile = /root/.netrc\n", "git blame f", "git annotate f", "git log"],
    ["[fsck]\n\tskipList = /root/.netrc\n", "git fsck", "git fsck --full", "git status"],
    ["[core]\n\tattributesFile = /root/.netrc\n", "git check-attr -a x", "git check-attr --all x", "git diff"],
    ["[core]\n\texcludesFile = /root/.netrc\n", "git check-ignore -v x", "git check-ignore x", "git status"],
  ])("%j: %s and %s ask, %s stays safe", (config, a, b, safe) => {
    const w = ws(`scoped-${Bun.hash(config).toString(16)}`, config)
    for (const cmd of [a, b]) expect(risk(w, cmd)).toEqual({ cmd, risk: "medium", reason: expect.stringMatching(/whose \.git\/config makes git/) })
    expect(risk(w, safe).risk).toBe("safe")
  })

  test("more submodule folders than are read count as not proven", () => {
    const files: Record<string, string> = {}
    for (let i = 0; i < 210; i++) files[`.git/modules/n${i}/x/HEAD`] = "x\n"
    const w = ws("many", "[core]\n\tbare = false\n", files)
    expect(gitRepoAt(w, w)).toContain("more submodule folders")
  })
})
