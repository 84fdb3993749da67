// Undo restores only what the run changed: files changed after the run are reported and left alone
// (unless --force), commits the run made are listed with the command that reverts them, --dry-run
// says exactly what would change, and `undo --redo` brings the run's changes back.
import { describe, expect, test } from "bun:test"
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { ccode, sandbox } from "./harness.ts"

const GIT_ENV = { GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@example.com", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@example.com" }

function project() {
  const sb = sandbox()
  sb.file("app.txt", "v1\n")
  sb.file("other.txt", "untouched\n")
  sb.file(".gitignore", "task.yaml\n")
  sb.file("task.yaml", [
    "version: 1", "name: edits",
    "steps:",
    "  - id: edit", "    tool: write_file", "    with: { path: app.txt, content: \"v2\\n\" }",
    "  - id: create", "    needs: [edit]", "    tool: write_file", "    with: { path: made.txt, content: \"new\\n\" }",
    "  - id: commit", "    needs: [create]", "    run: git add app.txt made.txt && git commit -qm 'run commit'", "",
  ].join("\n"))
  const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: sb.work, env: { ...sb.env, ...GIT_ENV } })
  git("init", "-q")
  // the identity is the repository's: a task's env: may not set GIT_* unless the task is trusted
  git("config", "user.name", "a")
  git("config", "user.email", "a@example.com")
  git("add", "-A")
  git("commit", "-qm", "start")
  // commits are matched to the run by commit time, to the second: keep the setup's commit out of it
  Bun.sleepSync(1100)
  return sb
}

// runs here are unsandboxed: the task commits, and .git is read-only inside the OS sandbox
describe("ccode undo restores only what the run changed", () => {
  test("a file changed after the run is left alone and reported; --force puts it back; commits are listed", async () => {
    const sb = project()
    try {
      const run = await ccode(sb, ["run", "task.yaml", "--yes", "--json", "--sandbox", "off"])
      expect(run.code).toBe(0)
      const id = JSON.parse((await ccode(sb, ["runs", "ls", "--json"])).stdout)[0].id as string
      // after the run, by hand: one of the run's files changed again, another file changed, a new file
      writeFileSync(join(sb.work, "made.txt"), "edited by hand\n")
      writeFileSync(join(sb.work, "other.txt"), "mine\n")
      writeFileSync(join(sb.work, "later.txt"), "created after the run\n")

      const dry = JSON.parse((await ccode(sb, ["undo", id, "--dry-run", "--json"])).stdout)
      expect([dry.modified, dry.removed, dry.restored, dry.changed_since]).toEqual([["app.txt"], [], [], ["made.txt"]])
      expect(dry.commits.map((c: { subject: string }) => c.subject)).toEqual(["run commit"])
      expect(dry.revert).toMatch(/^git revert --no-edit [0-9a-f]{12}$/)
      expect(readFileSync(join(sb.work, "app.txt"), "utf8")).toBe("v2\n") // a dry run changes nothing

      const text = await ccode(sb, ["undo", id])
      expect(text.code).toBe(0)
      expect(text.stdout).toContain("left alone: changed again since (--force puts them back too) (1):\n  made.txt")
      expect(text.stdout).toContain("commits made while the run worked")
      expect(text.stdout).toMatch(/to revert them: git revert --no-edit [0-9a-f]{12}/)
      expect(readFileSync(join(sb.work, "app.txt"), "utf8")).toBe("v1\n")
      expect(readFileSync(join(sb.work, "made.txt"), "utf8")).toBe("edited by hand\n")
      expect(readFileSync(join(sb.work, "other.txt"), "utf8")).toBe("mine\n")
      expect(existsSync(join(sb.work, "later.txt"))).toBe(true)

      const forced = JSON.parse((await ccode(sb, ["undo", id, "--force", "--json"])).stdout)
      expect([forced.removed, forced.forced]).toEqual([["made.txt"], true])
      expect(existsSync(join(sb.work, "made.txt"))).toBe(false)
      expect(readFileSync(join(sb.work, "other.txt"), "utf8")).toBe("mine\n")
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)

  test("undo --redo brings the run's changes back", async () => {
    const sb = project()
    try {
      expect((await ccode(sb, ["run", "task.yaml", "--yes", "--sandbox", "off"])).code).toBe(0)
      const id = JSON.parse((await ccode(sb, ["runs", "ls", "--json"])).stdout)[0].id as string
      const undo = await ccode(sb, ["undo", id])
      expect(undo.stdout).toContain(`to bring the run's changes back: ccode undo --redo ${id}`)
      expect([readFileSync(join(sb.work, "app.txt"), "utf8"), existsSync(join(sb.work, "made.txt"))]).toEqual(["v1\n", false])
      const redo = JSON.parse((await ccode(sb, ["undo", "--redo", id, "--json"])).stdout)
      expect([redo.restored, redo.modified]).toEqual([["made.txt"], ["app.txt"]])
      expect([readFileSync(join(sb.work, "app.txt"), "utf8"), readFileSync(join(sb.work, "made.txt"), "utf8")]).toEqual(["v2\n", "new\n"])
      const none = await ccode(sb, ["undo", "--redo", "nope"])
      expect(none.code).toBe(2)
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)

  test("a commit someone made while the run waited at a breakpoint is not listed; the run's own commits are", async () => {
    const sb = project()
    try {
      sb.file("task.yaml", [
        "version: 1", "name: commits",
        "steps:",
        "  - id: edit", "    tool: write_file", "    with: { path: app.txt, content: \"v2\\n\" }",
        "  - id: first", "    needs: [edit]", "    run: git add app.txt && git commit -qm 'run commit 1'",
        "  - id: second", "    needs: [first]", "    breakpoint: true", "    run: echo x > made.txt && git add made.txt && git commit -qm 'run commit 2'", "",
      ].join("\n"))
      const paused = await ccode(sb, ["run", "task.yaml", "--yes", "--json", "--sandbox", "off"])
      expect(paused.code, paused.stderr).toBe(3)
      const id = JSON.parse((await ccode(sb, ["runs", "ls", "--json"])).stdout)[0].id as string
      // the person commits by hand while the run waits (in a second of its own: the reflog counts seconds)
      Bun.sleepSync(1100)
      writeFileSync(join(sb.work, "other.txt"), "mine\n")
      const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: sb.work, env: { ...sb.env, ...GIT_ENV } })
      git("add", "other.txt")
      expect(git("commit", "-qm", "user commit").exitCode).toBe(0)
      Bun.sleepSync(1100)
      expect((await ccode(sb, ["approve", id, "--all"])).code).toBe(0)
      let resumed = await ccode(sb, ["resume", id, "--json"])
      // the person's commit may be seen as a change to the workspace: resuming again accepts it
      for (let i = 0; i < 2 && resumed.code === 4; i++) resumed = await ccode(sb, ["resume", id, "--json"])
      expect(resumed.code, resumed.stderr).toBe(0)
      const subjects = (Bun.spawnSync(["git", "log", "--format=%s"], { cwd: sb.work }).stdout.toString()).trim().split("\n")
      expect(subjects.slice(0, 3)).toEqual(["run commit 2", "user commit", "run commit 1"])

      const dry = JSON.parse((await ccode(sb, ["undo", id, "--dry-run", "--json"])).stdout)
      expect(dry.commits.map((c: { subject: string }) => c.subject)).toEqual(["run commit 2", "run commit 1"])
      expect(dry.revert).toMatch(/^git revert --no-edit [0-9a-f]{12} [0-9a-f]{12}$/)
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)

  test("attacks: a deleted file recreated by hand stays; a symlink put in place of a run's file is removed, never followed", async () => {
    const sb = sandbox()
    try {
      sb.file("gone.txt", "old\n")
      sb.file("t.yaml", "version: 1\nsteps:\n  - run: rm gone.txt && echo x > made.txt\n")
      expect((await ccode(sb, ["run", "t.yaml", "--yes", "--sandbox", "off"])).code).toBe(0)
      const id = JSON.parse((await ccode(sb, ["runs", "ls", "--json"])).stdout)[0].id as string
      writeFileSync(join(sb.work, "gone.txt"), "mine now\n")
      const outside = join(sb.root, "outside.txt")
      writeFileSync(outside, "precious\n")
      rmSync(join(sb.work, "made.txt"))
      symlinkSync(outside, join(sb.work, "made.txt"))
      const undo = JSON.parse((await ccode(sb, ["undo", id, "--json"])).stdout)
      expect(undo.changed_since.sort()).toEqual(["gone.txt", "made.txt"])
      expect(readFileSync(join(sb.work, "gone.txt"), "utf8")).toBe("mine now\n")
      const forced = JSON.parse((await ccode(sb, ["undo", id, "--force", "--json"])).stdout)
      expect([forced.modified, forced.removed]).toEqual([["gone.txt"], ["made.txt"]]) // it exists again, so it is put back, not brought back
      expect(readFileSync(outside, "utf8")).toBe("precious\n")
      expect(existsSync(join(sb.work, "made.txt"))).toBe(false)
      expect(readFileSync(join(sb.work, "gone.txt"), "utf8")).toBe("old\n")
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)
})
