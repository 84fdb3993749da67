// ccode undo on a shared PostgreSQL database, through the compiled binary: the run's snapshot rows
// are in the shared store, the snapshots in the shadow repository of the machine (CCODE_HOME) that
// took them. Undo and redo work there; anywhere else undo refuses (exit 2), saying where they are,
// and changes nothing.
import { expect, test } from "bun:test"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { ccode, sandbox } from "./harness.ts"
import { machine } from "./fleet.ts"
import { treeState } from "../snapshot/tree.ts"
import { describeWithPg } from "../store/pg-suite.ts"

const TASK = `version: 1
name: edits
steps:
  - id: edit
    tool: write_file
    with: { path: app.txt, content: "v2\\n" }
  - id: create
    needs: [edit]
    tool: write_file
    with: { path: made.txt, content: "new\\n" }
  - id: remove
    needs: [create]
    run: rm old.txt
`

describeWithPg("ccode undo on a shared PostgreSQL database", (server) => {
  test("a run is undone (and redone) where its snapshots are; from another CCODE_HOME undo refuses with exit 2 and changes nothing", async () => {
    const sb = sandbox()
    const url = await server().createDatabase()
    expect((await ccode(sb, ["db", "migrate", "--db", url])).code).toBe(0)
    sb.file("app.txt", "v1\n")
    sb.file("old.txt", "old\n")
    sb.file("task.yaml", TASK)
    const a = machine(sb, "a", url)
    const b = machine(sb, "b", url)
    const before = treeState(sb.work)
    const run = await ccode(sb, ["run", "task.yaml", "--yes", "--sandbox", "off"], { env: a })
    expect(run.code, run.stderr).toBe(0)
    const after = treeState(sb.work)
    const id = JSON.parse((await ccode(sb, ["runs", "ls", "--json"], { env: b })).stdout)[0].id as string

    // machine b reads the run's snapshot rows from the shared store, but holds none of the snapshots
    for (const args of [["undo", id], ["undo", id, "--dry-run", "--json"]]) {
      const elsewhere = await ccode(sb, args, { env: b })
      expect(elsewhere.code, args.join(" ")).toBe(2)
      expect(elsewhere.stderr).toContain(`is not on this machine (not under ${b.CCODE_HOME}/snapshots): snapshots stay on the machine that took them`)
    }
    expect(treeState(sb.work)).toEqual(after)

    const dry = JSON.parse((await ccode(sb, ["undo", id, "--dry-run", "--json"], { env: a })).stdout)
    expect([dry.modified, dry.removed, dry.restored]).toEqual([["app.txt"], ["made.txt"], ["old.txt"]])
    const undo = await ccode(sb, ["undo", id], { env: a })
    expect(undo.code, undo.stderr).toBe(0)
    expect(treeState(sb.work)).toEqual(before)
    expect(existsSync(join(sb.work, "made.txt"))).toBe(false)

    const redo = await ccode(sb, ["undo", "--redo", id, "--json"], { env: a })
    expect(redo.code, redo.stderr).toBe(0)
    expect(readFileSync(join(sb.work, "app.txt"), "utf8")).toBe("v2\n")
    expect(treeState(sb.work)).toEqual(after)

    // the undo and the redo joined the fleet's one chain, read from any machine
    const rollbacks = JSON.parse((await ccode(sb, ["audit", "--run", id, "--type", "rollback", "--json"], { env: b })).stdout)
    expect(rollbacks.map((r: { action: string; result: string }) => [r.action, r.result])).toEqual([["undo", "success"], ["redo", "success"]])
    const snapshots = JSON.parse((await ccode(sb, ["audit", "--run", id, "--type", "checkpoint", "--json"], { env: b })).stdout)
    expect(snapshots.filter((r: { action: string }) => r.action === "snapshot").length).toBeGreaterThanOrEqual(2)
    expect((await ccode(sb, ["audit", "verify"], { env: b })).code).toBe(0)

    // the report's files changed come from the snapshots, on the machine that holds them
    const report = JSON.parse((await ccode(sb, ["audit", "report", id, "--format", "json"], { env: a })).stdout)
    expect(report.files_changed).toEqual(["app.txt", "made.txt", "old.txt"])

    // removing the run from the machine that took its snapshots drops their refs there too
    const refs = snapshots.filter((r: { action: string }) => r.action === "snapshot").map((r: { data: { ref: string } }) => r.data.ref) as string[]
    const refFiles = () => [...new Bun.Glob("snapshots/*/refs/ccode/snapshots/*").scanSync(a.CCODE_HOME!)].map((f) => f.split("/").at(-1)!)
    expect(refs.every((ref) => refFiles().includes(ref))).toBe(true)
    expect((await ccode(sb, ["runs", "rm", id], { env: a })).code).toBe(0)
    expect(refs.filter((ref) => refFiles().includes(ref))).toEqual([])
  }, 120_000)

  test("a run resumed on another machine snapshots there from where it took over: undo there reaches back that far, not further", async () => {
    const sb = sandbox()
    const url = await server().createDatabase()
    expect((await ccode(sb, ["db", "migrate", "--db", url])).code).toBe(0)
    sb.file("task.yaml", [
      "version: 1", "name: moved",
      "steps:",
      "  - id: one", "    tool: write_file", "    with: { path: a.txt, content: \"1\\n\" }",
      "  - id: two", "    needs: [one]", "    breakpoint: true", "    tool: write_file", "    with: { path: b.txt, content: \"2\\n\" }", "",
    ].join("\n"))
    const a = machine(sb, "a", url)
    const b = machine(sb, "b", url)
    const paused = await ccode(sb, ["run", "task.yaml", "--yes", "--sandbox", "off"], { env: a })
    expect(paused.code, paused.stderr).toBe(3)
    const id = JSON.parse((await ccode(sb, ["runs", "ls", "--json"], { env: b })).stdout)[0].id as string
    expect((await ccode(sb, ["approve", id, "--all"], { env: b })).code).toBe(0)
    const resumed = await ccode(sb, ["resume", id], { env: b })
    expect(resumed.code, resumed.stderr).toBe(0)
    expect([existsSync(join(sb.work, "a.txt")), existsSync(join(sb.work, "b.txt"))]).toEqual([true, true])

    // back past the move needs a's snapshots: refused on b, and on a (which lacks b's)
    for (const env of [a, b]) {
      const whole = await ccode(sb, ["undo", id], { env })
      expect(whole.code).toBe(2)
      expect(whole.stderr).toContain("is not on this machine")
    }
    const partial = JSON.parse((await ccode(sb, ["undo", id, "--to-step", "2", "--json"], { env: b })).stdout)
    expect([partial.removed, partial.step]).toEqual([["b.txt"], 2])
    expect([existsSync(join(sb.work, "a.txt")), existsSync(join(sb.work, "b.txt"))]).toEqual([true, false])
  }, 120_000)
})
