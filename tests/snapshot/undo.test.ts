import { describe, expect, test } from "bun:test"
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { verifyStore } from "../../core/audit/verify.ts"
import { createRedactor } from "../../core/redact/index.ts"
import { createCallSnapshots, snapshotAround, type SnapshotCall } from "../../core/snapshot/around-call.ts"
import { createSnapshotter } from "../../core/snapshot/index.ts"
import { localSnapshotLog, snapshotsOf } from "../../core/snapshot/rows.ts"
import { undoRun } from "../../core/snapshot/undo.ts"
import { sqliteRunStore } from "../../core/runstore/sqlite.ts"
import { openStore } from "../../core/store/open.ts"
import { findRun, insertRun } from "../../core/store/runs.ts"
import { treeState } from "./tree.ts"

function setup() {
  const root = mkdtempSync(join(tmpdir(), "ccode-undo-"))
  const work = join(root, "work")
  const home = join(root, "home")
  mkdirSync(join(work, "src"), { recursive: true })
  writeFileSync(join(work, "src", "main.c"), "int main() { return 1; }\n")
  writeFileSync(join(work, "notes.txt"), "keep me\n")
  writeFileSync(join(work, "secret.env"), "A=1\n")
  chmodSync(join(work, "secret.env"), 0o600)
  const store = openStore(join(root, "ccode.db"))
  const now = Date.now()
  insertRun(store, { id: "r1", task: "t", taskFile: join(work, "task.yaml"), workdir: work, status: "completed", driver: "steps", createdAt: now, updatedAt: now })
  const snapshotter = createSnapshotter({ workspace: work, home })
  const warnings: string[] = []
  const hook = createCallSnapshots({ log: localSnapshotLog(store), runId: "r1", snapshotter, readOnly: (tool) => tool === "read_file", warn: (m) => warnings.push(m) })
  let seq = 0
  const call = (tool: string, effect: () => void) => {
    const c: SnapshotCall = { callId: `c${++seq}`, seq, tool }
    return snapshotAround(hook, c, async () => effect())
  }
  const sh = (script: string) => () => {
    const r = Bun.spawnSync(["bash", "-c", script], { cwd: work })
    if (r.exitCode !== 0) throw new Error(r.stderr.toString())
  }
  return { root, work, home, store, call, sh, warnings, redactor: createRedactor({ home: "/nonexistent-home" }) }
}

describe("ccode undo over a run's snapshots", () => {
  test("undo puts the workspace back as it was before the run, shell changes included, and audits a rollback", async () => {
    const { work, home, store, call, sh, warnings, redactor } = setup()
    const before = treeState(work)
    await call("read_file", () => {})
    await call("shell", sh("sed -i 's/return 1/return 0/' src/main.c && echo built > a.out && rm notes.txt"))
    await call("write_file", () => writeFileSync(join(work, "src", "util.c"), "int util;\n"))
    await call("shell", sh("chmod 644 secret.env && mkdir -p out/obj && touch out/obj/x.o"))
    expect(warnings).toEqual([])
    const rows = snapshotsOf(store, "r1")
    expect(rows.map((r) => r.step)).toEqual([2, 3, 4, 5])

    const dry = await undoRun(sqliteRunStore(store), findRun(store, "r1"), { home, dryRun: true, redactor })
    expect(dry.removed).toEqual(["a.out", "out/", "out/obj/", "out/obj/x.o", "src/util.c"])
    expect(dry.restored).toEqual(["notes.txt"])
    expect(dry.modified).toEqual(["secret.env", "src/main.c"])
    expect(treeState(work)).not.toEqual(before)

    const done = await undoRun(sqliteRunStore(store), findRun(store, "r1"), { home, redactor })
    expect(done.target).toBe("before the run")
    expect(treeState(work)).toEqual(before)
    const rollback = store.sqlite.query("SELECT * FROM audit WHERE type = 'rollback'").all() as { result: string; run_id: string; data: string }[]
    expect(rollback).toHaveLength(1)
    expect(rollback[0]!.result).toBe("success")
    expect(JSON.parse(rollback[0]!.data).restored).toEqual(["notes.txt"])
    expect(verifyStore(store).ok).toBe(true)
  })

  test("--to-step N restores the state just before call N", async () => {
    const { work, home, store, call, sh, redactor } = setup()
    await call("shell", sh("echo one > one.txt"))
    await call("shell", sh("echo two > two.txt"))
    const beforeThird = treeState(work)
    await call("shell", sh("rm one.txt && echo three > three.txt"))
    await call("read_file", () => {})
    await call("shell", sh("echo five > five.txt"))
    await undoRun(sqliteRunStore(store), findRun(store, "r1"), { home, toStep: 3, redactor })
    expect(treeState(work)).toEqual(beforeThird)
  })

  test("a run without snapshots cannot be undone, and says why", async () => {
    const { store, home, redactor } = setup()
    await expect(undoRun(sqliteRunStore(store), findRun(store, "r1"), { home, redactor })).rejects.toThrow(/no snapshots/)
  })

  test("a failing snapshot is warned about and audited, and the call still runs", async () => {
    const { work, store, warnings, root } = setup()
    const broken = createSnapshotter({ workspace: join(root, "does-not-exist"), home: join(root, "home2") })
    const hook = createCallSnapshots({ log: localSnapshotLog(store), runId: "r1", snapshotter: broken, readOnly: () => false, warn: (m) => warnings.push(m) })
    let ran = false
    await snapshotAround(hook, { callId: "c1", seq: 1, tool: "shell" }, async () => {
      ran = true
      rmSync(join(work, "notes.txt"))
    })
    expect(ran).toBe(true)
    expect(warnings).toHaveLength(1)
    const errors = store.sqlite.query("SELECT action, result FROM audit WHERE type = 'error'").all()
    expect(errors).toEqual([{ action: "snapshot", result: "error" }])
  })
})
