// `ccode runs prune` cannot be fooled: the age needs a unit, runs age by their last change, only
// finished runs go unless --all, --dry-run removes nothing, snapshots go with their runs, the db shrinks.
import { Database } from "bun:sqlite"
import { afterEach, describe, expect, test } from "bun:test"
import { existsSync, rmSync } from "node:fs"
import { join } from "node:path"
import { ccode, events, sandbox, type Sandbox } from "./harness.ts"

const boxes: Sandbox[] = []
afterEach(() => {
  for (const sb of boxes.splice(0)) rmSync(sb.root, { recursive: true, force: true })
})

function box(): Sandbox {
  const sb = sandbox()
  boxes.push(sb)
  return sb
}

async function runTask(sb: Sandbox, file: string): Promise<string> {
  return String(events((await ccode(sb, ["run", file, "--yes", "--json"])).stdout)[0]!.run)
}

/** Make a run look `ageMs` old: created and last changed then. */
function age(sb: Sandbox, id: string, createdAgo: number, touchedAgo: number): void {
  const db = new Database(sb.db)
  const now = Date.now()
  db.query("UPDATE runs SET created_at = ?, updated_at = ? WHERE id = ?").run(now - createdAgo, now - touchedAgo, id)
  db.query("UPDATE checkpoints SET created_at = ? WHERE run_id = ?").run(now - touchedAgo, id)
  db.close()
}

function ids(sb: Sandbox): string[] {
  const db = new Database(sb.db, { readonly: true })
  const rows = db.query("SELECT id FROM runs ORDER BY id").all() as { id: string }[]
  db.close()
  return rows.map((r) => r.id)
}

const DAY = 86_400_000

describe("ccode runs prune", () => {
  test("--older-than without a unit is a usage error that removes nothing", async () => {
    const sb = box()
    sb.file("t.yaml", "version: 1\nsteps:\n  - run: echo x\n")
    const id = await runTask(sb, "t.yaml")
    age(sb, id, 30 * DAY, 30 * DAY)
    const bad = await ccode(sb, ["runs", "prune", "--older-than", "7"])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("--older-than takes a duration with a unit")
    expect(ids(sb)).toEqual([id])
  }, 60_000)

  test("runs age by their last change; paused runs stay unless --all; --dry-run lists and removes nothing", async () => {
    const sb = box()
    sb.file("done.yaml", "version: 1\nsteps:\n  - run: echo x\n")
    sb.file("paused.yaml", "version: 1\nsteps:\n  - id: gate\n    breakpoint: true\n    run: echo y\n")
    const oldDone = await runTask(sb, "done.yaml")
    const recentlyTouched = await runTask(sb, "done.yaml")
    const paused = await runTask(sb, "paused.yaml")
    age(sb, oldDone, 30 * DAY, 30 * DAY)
    age(sb, recentlyTouched, 30 * DAY, 1000) // created long ago, changed a second ago
    age(sb, paused, 30 * DAY, 30 * DAY)

    const dry = await ccode(sb, ["runs", "prune", "--older-than", "7d", "--dry-run", "--json"])
    expect(dry.code).toBe(0)
    expect(JSON.parse(dry.stdout).would_remove.map((r: { id: string }) => r.id)).toEqual([oldDone])
    expect(ids(sb).length).toBe(3)

    const pruned = await ccode(sb, ["runs", "prune", "--older-than", "7d", "--json"])
    expect(JSON.parse(pruned.stdout).removed).toEqual([oldDone])
    expect(ids(sb).sort()).toEqual([recentlyTouched, paused].sort())

    const all = await ccode(sb, ["runs", "prune", "--older-than", "7d", "--all", "--json"])
    expect(JSON.parse(all.stdout).removed).toEqual([paused])
    expect(ids(sb)).toEqual([recentlyTouched])
    expect((await ccode(sb, ["audit", "verify"])).code).toBe(0)
  }, 90_000)

  test("a pruned run's snapshots leave the shadow repository and the database is vacuumed", async () => {
    const sb = box()
    sb.file("write.yaml", "version: 1\nsteps:\n  - id: w\n    run: echo hello > made.txt\n")
    const id = await runTask(sb, "write.yaml")
    const db = new Database(sb.db, { readonly: true })
    const refs = (db.query("SELECT ref FROM snapshots WHERE run_id = ?").all(id) as { ref: string }[]).map((r) => r.ref)
    db.close()
    expect(refs.length).toBeGreaterThan(0)
    const shadowRoot = join(sb.env.CCODE_HOME!, "snapshots")
    const refFile = (ref: string) => Bun.spawnSync(["find", shadowRoot, "-path", `*/refs/ccode/snapshots/${ref}`]).stdout.toString().trim()
    expect(refs.every((ref) => refFile(ref) !== "")).toBe(true)
    const gitDir = refFile(refs[0]!).split("/refs/")[0]!

    const pruned = await ccode(sb, ["runs", "prune", "--older-than", "0s", "--json"])
    expect(JSON.parse(pruned.stdout)).toMatchObject({ removed: [id], snapshot_refs: refs.length })
    expect(refs.map(refFile)).toEqual(refs.map(() => ""))
    // the snapshot commits themselves are gone from the object store
    const present = Bun.spawnSync(["git", "--git-dir", gitDir, "cat-file", "-e", refs[0]!], { env: { PATH: process.env.PATH ?? "" } })
    expect(present.exitCode).not.toBe(0)
    const after = new Database(sb.db, { readonly: true })
    expect((after.query("PRAGMA freelist_count").get() as { freelist_count: number }).freelist_count).toBe(0)
    after.close()
    expect(existsSync(join(sb.env.CCODE_HOME!, "runs", id))).toBe(false)
  }, 60_000)
})

describe("summary.md", () => {
  test("a finished run whose summary is missing gets it back from runs show, and from a refused resume", async () => {
    const sb = box()
    sb.file("t.yaml", "version: 1\nsteps:\n  - run: echo x\n")
    const id = await runTask(sb, "t.yaml")
    const file = join(sb.env.CCODE_HOME!, "runs", id, "summary.md")
    expect(existsSync(file)).toBe(true)
    rmSync(file)
    expect((await ccode(sb, ["runs", "show", id])).code).toBe(0)
    expect(await Bun.file(file).text()).toContain("outcome: **completed**")
    rmSync(file)
    expect((await ccode(sb, ["resume", id])).code).toBe(2)
    expect(existsSync(file)).toBe(true)
  }, 60_000)
})
