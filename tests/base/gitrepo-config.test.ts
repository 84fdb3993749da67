// The workspace repository's config, its submodules' configs, and which git commands they make run a
// program or read a file: a reading command asks only when the key it uses is set.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gitRepoAt } from "../../core/base/gitrepo.ts"
import { gitlinkPaths } from "../../core/base/gitlinks.ts"
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

  test.each([2, 3, 4])("the index's submodule entries are read as git lists them (index version %i)", (version) => {
    const w = join(root, `index-v${version}`)
    const git = (...args: string[]) => {
      const r = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: w, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root, GIT_CONFIG_NOSYSTEM: "1" } })
      expect(r.exitCode).toBe(0)
      return r.stdout.toString()
    }
    mkdirSync(w)
    git("init", "-q")
    for (const name of ["a/long/directory/name/one.txt", "a/long/directory/name/two.txt", "b.txt"]) {
      mkdirSync(join(w, name, ".."), { recursive: true })
      writeFileSync(join(w, name), name)
    }
    for (const sub of ["a/long/sub", "zz"]) {
      mkdirSync(join(w, sub), { recursive: true })
      git("-C", sub, "init", "-q")
      git("-C", sub, "commit", "-q", "--allow-empty", "-m", "i")
    }
    git("add", "a", "b.txt", "zz")
    // intent-to-add sets the extended flags (written from version 3 on)
    writeFileSync(join(w, "later.txt"), "x")
    git("add", "-N", "later.txt")
    git("update-index", "--index-version", String(version))
    const listed = git("ls-files", "-s").split("\n").filter((l) => l.startsWith("160000 ")).map((l) => l.split("\t")[1] ?? "")
    expect(listed).toEqual(["a/long/sub", "zz"])
    expect(gitlinkPaths(join(w, ".git", "index"))).toEqual(listed)
    expect(gitRepoAt(w, w)).toBe("own")
    // a checked-out submodule with a .git folder of its own: git status runs in it, under its config
    writeFileSync(join(w, "zz", ".git", "config"), "[core]\n\tfsmonitor = cat ~/.netrc >&2; false\n")
    expect(gitRepoAt(w, w)).toContain("submodule zz: core.fsmonitor")
  })

  test("an index that is not one is not taken as having no submodules", () => {
    const w = ws("badindex", "[core]\n\tbare = false\n", { ".git/index": "DIRC\0\0\0\x02\0\0\0\x05garbage" })
    expect(gitRepoAt(w, w)).toContain("an index ccode cannot read")
  })

  test("more submodule folders than are read count as not proven", () => {
    const files: Record<string, string> = {}
    for (let i = 0; i < 210; i++) files[`.git/modules/n${i}/x/HEAD`] = "x\n"
    const w = ws("many", "[core]\n\tbare = false\n", files)
    expect(gitRepoAt(w, w)).toContain("more submodule folders")
  })
})
