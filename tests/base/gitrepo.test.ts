// Which repository git uses when started in a folder of the workspace (real folders in a temp dir), and
// the shell analysis that calls a git read safe only in the workspace's own repository.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gitRepoAt } from "../../core/base/gitrepo.ts"
import { analyzeShellSync, type AnalyzeContext } from "../../core/shell/index.ts"
import { removeTree } from "../tmp.ts"

let root: string
let ws: string
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-gitrepo-")))
  ws = join(root, "ws")
  for (const d of [".git", "src/deep", "bare.git/objects", "bare.git/refs", "nested/.git", "nested/inner", "plain"]) mkdirSync(join(ws, d), { recursive: true })
  writeFileSync(join(ws, "bare.git", "HEAD"), "ref: refs/heads/main\n")
  mkdirSync(join(root, "nogit", "sub"), { recursive: true })
  mkdirSync(join(root, "baredws", "objects"), { recursive: true })
  writeFileSync(join(root, "baredws", "HEAD"), "ref: refs/heads/main\n")
  symlinkSync(join(ws, "bare.git"), join(ws, "link"))
  mkdirSync(join(root, "sub-gitfile", "mod"), { recursive: true })
  mkdirSync(join(root, "planted", "vendor", "x.git"), { recursive: true })
  writeFileSync(join(root, "planted", ".git"), "gitdir: vendor/x.git\n")
  mkdirSync(join(root, "worktree"), { recursive: true })
  writeFileSync(join(root, "worktree", ".git"), `gitdir: ${join(ws, ".git", "worktrees", "w")}\n`)
  mkdirSync(join(root, "linked", "vendor", "y.git"), { recursive: true })
  symlinkSync("vendor/y.git", join(root, "linked", ".git"))
  writeFileSync(join(root, "sub-gitfile", "mod", ".git"), "gitdir: /elsewhere\n")
})
afterAll(() => removeTree(root))

describe("gitRepoAt", () => {
  test("the workspace root and folders below it without a repository of their own: the workspace's", () => {
    expect(gitRepoAt(ws, ws)).toBe("own")
    expect(gitRepoAt(join(ws, "src", "deep"), ws)).toBe("own")
    expect(gitRepoAt(join(ws, "plain"), ws)).toBe("own")
    expect(gitRepoAt(join(ws, "missing", "dir"), ws)).toBe("own")
  })

  test("a bare repository, a folder with its own .git (dir or gitfile), and a link to one: another repository", () => {
    expect(gitRepoAt(join(ws, "bare.git"), ws)).toBe(join(ws, "bare.git"))
    expect(gitRepoAt(join(ws, "bare.git", "refs"), ws)).toBe(join(ws, "bare.git"))
    expect(gitRepoAt(join(ws, "nested", "inner"), ws)).toBe(join(ws, "nested"))
    expect(gitRepoAt(join(ws, "link"), ws)).toBe(join(ws, "bare.git"))
    expect(gitRepoAt(join(root, "sub-gitfile", "mod"), join(root, "sub-gitfile"))).toBe(join(root, "sub-gitfile", "mod"))
  })

  test("a workspace that is not a repository: none, unless its root looks like a git directory", () => {
    expect(gitRepoAt(join(root, "nogit", "sub"), join(root, "nogit"))).toBe("none")
    expect(gitRepoAt(join(root, "baredws"), join(root, "baredws"))).toBe(join(root, "baredws"))
  })
})

test("a .git file or link at the root: the workspace's own when it points outside the workspace (a worktree), not when it points into it", () => {
  expect(gitRepoAt(join(root, "worktree"), join(root, "worktree"))).toBe("own")
  expect(gitRepoAt(join(root, "planted"), join(root, "planted"))).toBe(join(root, "planted", "vendor", "x.git"))
  // a `.git` link into the workspace, the same by another route
  expect(gitRepoAt(join(root, "linked"), join(root, "linked"))).toBe(join(root, "linked", "vendor", "y.git"))
})

describe("the analysis with the probe", () => {
  const ctx = (cwd = ws): AnalyzeContext => ({ cwd, workspace: ws, home: join(root, "home"), env: {}, gitRepo: (d) => gitRepoAt(d, ws) })
  const risk = (cmd: string, cwd?: string) => analyzeShellSync(cmd, ctx(cwd))

  test.each(["git log", "git -C src log", "git -C src/deep status", "git show HEAD"])("%s in the workspace's own repository is safe", (cmd) => {
    expect(risk(cmd).risk).toBe("safe")
  })

  test.each(["git -C bare.git log", "git -C nested/inner log", "git -C link log", "git -C nested -C inner log"])("%s is medium, naming the other repository", (cmd) => {
    const a = risk(cmd)
    expect(a.risk).toBe("medium")
    expect(a.reasons.join(" ")).toContain("not the workspace's own")
  })

  test("started inside an embedded repository, a bare `git log` is medium", () => {
    expect(risk("git log", join(ws, "bare.git")).risk).toBe("medium")
  })

  test("without the probe (no fs), a write before git in another folder still makes it medium", () => {
    const pure: AnalyzeContext = { cwd: ws, workspace: ws, home: join(root, "home"), env: {} }
    const a = analyzeShellSync("touch src/x && git -C src log", pure)
    expect(a.commands[1]!.risk).toBe("medium")
    expect(analyzeShellSync("git -C src log", pure).risk).toBe("safe")
  })
})
