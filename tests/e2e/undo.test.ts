// ccode undo through the compiled binary: a run that edits, creates, deletes and runs `sed -i`
// through shell is undone to the byte and the mode; the user's .git is never touched.
import { describe, expect, test } from "bun:test"
import { chmodSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { treeState, treeWithTimes } from "../snapshot/tree.ts"
import { ccode, sandbox } from "./harness.ts"

// The run loop takes the snapshots; until it calls core/snapshot this test has nothing to undo.
const runnerDir = join(import.meta.dir, "..", "..", "core", "runner")
const wired = readdirSync(runnerDir).some((f) => /snapshot\//.test(readFileSync(join(runnerDir, f), "utf8")))

const TASK = `version: 1
name: refactor
steps:
  - id: edit
    tool: edit_file
    with: { path: src/app.ts, old_string: "const answer = 41", new_string: "const answer = 42" }
  - id: create
    tool: write_file
    with: { path: src/new.ts, content: "export const fresh = true\\n" }
  - id: delete
    run: rm docs/old.md
  - id: sed
    run: sed -i 's/debug=true/debug=false/' config.ini
  - id: modes
    run: chmod 600 config.ini && chmod +x tools/gen.sh && mkdir -p build && echo out > build/out.txt
`

function project() {
  const sb = sandbox()
  sb.file("src/app.ts", "const answer = 41\nexport default answer\n")
  sb.file("docs/old.md", "# old docs\n")
  sb.file("config.ini", "[app]\ndebug=true\n")
  sb.file("tools/gen.sh", "#!/bin/sh\necho gen\n")
  chmodSync(join(sb.work, "tools", "gen.sh"), 0o644)
  sb.file("task.yaml", TASK)
  const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: sb.work, env: { ...sb.env, GIT_CONFIG_NOSYSTEM: "1" } })
  git("init", "-q")
  git("add", "-A")
  git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init")
  return sb
}

describe.skipIf(!wired)("ccode undo", () => {
  test("undo after a run that edits, creates, deletes and runs sed -i leaves the tree byte-identical, modes included", async () => {
    const sb = project()
    const before = treeState(sb.work)
    const userGit = treeWithTimes(join(sb.work, ".git"))
    const run = await ccode(sb, ["run", "task.yaml", "--yes", "--non-interactive"])
    expect(run.code).toBe(0)
    expect(treeState(sb.work)).not.toEqual(before)
    const runId = JSON.parse((await ccode(sb, ["runs", "ls", "--json"])).stdout)[0].id as string

    const dry = await ccode(sb, ["undo", runId, "--dry-run", "--json"])
    expect(dry.code).toBe(0)
    const plan = JSON.parse(dry.stdout)
    expect(plan.removed).toEqual(expect.arrayContaining(["src/new.ts", "build/out.txt"]))
    expect(plan.restored).toEqual(["docs/old.md"])
    expect(plan.modified).toEqual(expect.arrayContaining(["config.ini", "src/app.ts", "tools/gen.sh"]))
    expect(treeState(sb.work)).not.toEqual(before)

    const undo = await ccode(sb, ["undo", runId])
    expect(undo.code).toBe(0)
    expect(treeState(sb.work)).toEqual(before)
    expect(treeWithTimes(join(sb.work, ".git"))).toEqual(userGit)

    const rollback = JSON.parse((await ccode(sb, ["audit", "--run", runId, "--type", "rollback", "--json"])).stdout)
    expect(rollback).toHaveLength(1)
    expect(rollback[0]).toMatchObject({ type: "rollback", actor: "user", action: "undo", result: "success" })
    expect((await ccode(sb, ["audit", "verify"])).code).toBe(0)
  }, 60_000)

  test("--to-step N goes back to just before call N", async () => {
    const sb = project()
    const run = await ccode(sb, ["run", "task.yaml", "--yes", "--non-interactive"])
    expect(run.code).toBe(0)
    const runId = JSON.parse((await ccode(sb, ["runs", "ls", "--json"])).stdout)[0].id as string
    const undo = await ccode(sb, ["undo", runId, "--to-step", "4", "--json"])
    expect(undo.code).toBe(0)
    // calls 1-3 stay done (edit, create, delete); the sed and the chmods are undone
    expect(readFileSync(join(sb.work, "src", "app.ts"), "utf8")).toContain("answer = 42")
    expect(readFileSync(join(sb.work, "config.ini"), "utf8")).toContain("debug=true")
    expect(treeState(sb.work)["tools/gen.sh"]).toMatch(/^file 644 /)
    expect(treeState(sb.work)["build/"]).toBeUndefined()
  }, 60_000)
})

test("undo of an unknown run is a usage error", async () => {
  const sb = sandbox()
  const result = await ccode(sb, ["undo", "r-nope"])
  expect(result.code).toBe(2)
  expect(result.stderr).toContain("r-nope")
})
