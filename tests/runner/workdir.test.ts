// An untrusted task's workdir: stays inside the task file's own workspace. Otherwise the repository
// would choose the sandbox's writable root (/etc, the home folder) or borrow another project's trust.
import { afterEach, describe, expect, test } from "bun:test"
import { chownSync, existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { stringify } from "yaml"
import { OPTIONS, workspace, type Workspace } from "./harness.ts"
import { planRun, startRun } from "../../core/runner/lifecycle.ts"
import { taskRootLimit } from "../../core/policy/workspace.ts"

const open: Workspace[] = []
afterEach(() => {
  for (const ws of open.splice(0)) ws.close()
})
function ws(): Workspace {
  const made = workspace()
  open.push(made)
  return made
}

describe("an untrusted task's workdir", () => {
  test("an absolute workdir outside the task's workspace (/etc) is refused before any step runs, naming the way out", async () => {
    const w = ws()
    w.task({ workdir: "/etc", steps: [{ id: "a", run: `touch ${join(w.dir, "ran")}` }] })
    const error = await w.run({ trust: false }).catch((e) => e)
    expect(error.exitCode).toBe(2)
    expect(error.message).toContain(`workdir /etc resolves to /etc, outside the task file's workspace ${realpathSync(w.dir)}`)
    expect(error.message).toContain(`ccode trust ${join(w.dir, "task.yaml")}`)
    expect(existsSync(join(w.dir, "ran"))).toBe(false)
    expect(w.events.filter((e) => e.type === "run.started")).toHaveLength(0)
  })

  test("another project next door (../other) is refused: its trusted policy is not the task's to borrow", async () => {
    const w = ws()
    const other = join(dirname(w.dir), "other")
    mkdirSync(join(other, ".ccode"), { recursive: true })
    w.task({ workdir: "../other", steps: [{ id: "a", run: "rm -rf src" }] })
    const error = await w.run({ trust: false }).catch((e) => e)
    expect(error.exitCode).toBe(2)
    expect(error.message).toContain(`resolves to ${realpathSync(other)}, outside the task file's workspace`)
  })

  test("a folder inside the workspace is fine, and a trusted task may name any folder", async () => {
    const w = ws()
    w.file("sub/.keep", "")
    w.task({ workdir: "sub", steps: [{ id: "a", run: "touch here" }] })
    expect((await w.run({ trust: false })).exitCode).toBe(0)
    expect(existsSync(join(w.dir, "sub", "here"))).toBe(true)
    const other = join(dirname(w.dir), "elsewhere")
    mkdirSync(other)
    w.task({ workdir: other, steps: [{ id: "a", run: "touch there" }] })
    expect((await w.run({ trust: true })).exitCode).toBe(0)
    expect(existsSync(join(other, "there"))).toBe(true)
  })
})

/** A home folder holding `.ccode/` (the workspace root) with a repository below it, and its task file. */
function homeWithRepo(w: Workspace, task: Record<string, unknown>): { repo: string; file: string } {
  mkdirSync(join(w.dir, ".ccode"))
  const repo = join(w.dir, "src", "evil")
  mkdirSync(join(repo, ".git"), { recursive: true })
  writeFileSync(join(repo, "w.sh"), 'echo EVIL > "$1/.bash_profile"\n')
  const file = join(repo, "task.yaml")
  writeFileSync(file, stringify({ version: 1, name: "escape", ...task }))
  return { repo, file }
}

async function runFile(w: Workspace, file: string, trust: boolean) {
  return startRun(w.env, await planRun(w.env, file, { ...OPTIONS, trust }))
}

describe("an untrusted task's workspace is never a .ccode/ above its repository, nor the home folder", () => {
  test("~/.ccode/ above a repository: workdir ../.. (the home) is refused, nothing written", async () => {
    const w = ws()
    w.env.env.HOME = w.dir
    const { file, repo } = homeWithRepo(w, { workdir: "../..", steps: [{ id: "w", run: "sh src/evil/w.sh ." }] })
    const error = await runFile(w, file, false).catch((e) => e)
    expect(error.exitCode).toBe(2)
    expect(error.message).toContain(`workdir ../.. resolves to ${realpathSync(w.dir)}, outside the task file's workspace ${realpathSync(repo)}`)
    expect(existsSync(join(w.dir, ".bash_profile"))).toBe(false)
    expect(w.events.filter((e) => e.type === "run.started")).toHaveLength(0)
  })

  test("~/.ccode/ above a repository, no workdir: the run would take the home as its workspace, so it is refused, naming the way out", async () => {
    const w = ws()
    w.env.env.HOME = w.dir
    const { file, repo } = homeWithRepo(w, { steps: [{ id: "w", run: "sh w.sh ../.." }] })
    const error = await runFile(w, file, false).catch((e) => e)
    expect(error.exitCode).toBe(2)
    expect(error.message).toContain(`this run's workspace (the folder its steps may write) would be ${realpathSync(w.dir)}, the home folder`)
    expect(error.message).toContain(`ccode init ${realpathSync(repo)}`)
    expect(error.message).toContain(`ccode trust ${file}`)
    expect(existsSync(join(w.dir, ".bash_profile"))).toBe(false)
  })

  test("a .ccode/ above a repository that is not the home: still refused (the repository is the task's own workspace)", async () => {
    const w = ws()
    const { file, repo } = homeWithRepo(w, { steps: [{ id: "w", run: "sh w.sh ../.." }] })
    const error = await runFile(w, file, false).catch((e) => e)
    expect(error.exitCode).toBe(2)
    expect(error.message).toContain(`would be ${realpathSync(w.dir)}, above the task file's workspace ${realpathSync(repo)}`)
    expect(existsSync(join(w.dir, ".bash_profile"))).toBe(false)
  })

  test("the repository with its own .ccode/ runs untrusted; --trust runs the home-wide task", async () => {
    const w = ws()
    w.env.env.HOME = w.dir
    const { file, repo } = homeWithRepo(w, { steps: [{ id: "w", run: "sh w.sh ." }] })
    mkdirSync(join(repo, ".ccode"))
    expect((await runFile(w, file, false)).exitCode).toBe(0)
    expect(existsSync(join(repo, ".bash_profile"))).toBe(true)
    writeFileSync(file, stringify({ version: 1, name: "escape", workdir: "../..", steps: [{ id: "w", run: "sh src/evil/w.sh ." }] }))
    expect((await runFile(w, file, true)).exitCode).toBe(0)
    expect(existsSync(join(w.dir, ".bash_profile"))).toBe(true)
  })

  test("a task file directly in the home folder (no .ccode/, no git) is refused untrusted", async () => {
    const w = ws()
    w.env.env.HOME = w.dir
    w.task({ steps: [{ id: "a", run: "touch ran" }] })
    const error = await w.run({ trust: false }).catch((e) => e)
    expect(error.exitCode).toBe(2)
    expect(error.message).toContain("the home folder")
    expect(existsSync(join(w.dir, "ran"))).toBe(false)
  })
})

describe("taskRootLimit: the nearest .ccode/ or git root, whichever is nearer", () => {
  test("a git root nearer than a .ccode/ wins; a nested .ccode/ nearer than the git root wins", () => {
    const w = ws()
    mkdirSync(join(w.dir, ".ccode"))
    mkdirSync(join(w.dir, "repo", ".git"), { recursive: true })
    mkdirSync(join(w.dir, "repo", "pkg", ".ccode"), { recursive: true })
    mkdirSync(join(w.dir, "repo", "docs"), { recursive: true })
    const real = realpathSync(w.dir)
    expect(taskRootLimit(join(w.dir, "repo", "docs"))).toBe(join(real, "repo"))
    expect(taskRootLimit(join(w.dir, "repo", "pkg"))).toBe(join(real, "repo", "pkg"))
    expect(taskRootLimit(w.dir)).toBe(real)
  })

  test("a nearest .ccode/ owned by another user (a /tmp/.ccode/ anyone could make) is no root: the task's folder is the limit", () => {
    const w = ws()
    mkdirSync(join(w.dir, ".ccode"))
    mkdirSync(join(w.dir, "proj"))
    const me = process.getuid!()
    if (me === 0) chownSync(join(w.dir, ".ccode"), 65534, 65534)
    const uid = me === 0 ? 0 : me + 1
    expect(taskRootLimit(join(w.dir, "proj"), uid)).toBe(join(realpathSync(w.dir), "proj"))
  })
})
