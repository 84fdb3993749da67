// Undo after a later run swapped a folder for a symlink: restoring must never create folders, remove
// files or set modes through the link (outside the workspace).
import { afterEach, describe, expect, test } from "bun:test"
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { createSnapshotter } from "../../core/snapshot/index.ts"
import { tempWorkspace } from "./workspace.ts"

const roots: string[] = []
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

function setup() {
  const { root, work, home } = tempWorkspace("ccode-snap-links-", roots, {})
  mkdirSync(join(work, "a", "x", "b"), { recursive: true })
  writeFileSync(join(work, "a", "x", "b", "f"), "f\n")
  writeFileSync(join(work, "a", "x", "keep"), "keep\n")
  const victim = join(root, "victim")
  mkdirSync(victim)
  writeFileSync(join(victim, "host-file"), "host\n")
  return { work, victim, snapshots: createSnapshotter({ workspace: work, home }) }
}

// run 1 removed a/x/b; a later run replaced a by a link to a host folder
function runsHappen(work: string, victim: string) {
  rmSync(join(work, "a", "x", "b"), { recursive: true })
  rmSync(join(work, "a"), { recursive: true })
  symlinkSync(victim, join(work, "a"))
}

describe("restore through a folder swapped for a symlink", () => {
  test("undo of run 1's paths alone (the link not among them): refused, no folder made on the host", async () => {
    const { work, victim, snapshots } = setup()
    const ref = await snapshots.take("before run 1")
    runsHappen(work, victim)
    const error = await snapshots.restore(ref, { only: new Set(["a/x/b/f", "a/x/b/"]) }).catch((e: Error) => e)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toMatch(/a is a symlink.*undo stopped before going through it/)
    expect(readdirSync(victim)).toEqual(["host-file"])
  })

  test("a whole restore removes the link first and brings back real folders; the host folder is untouched", async () => {
    const { work, victim, snapshots } = setup()
    const ref = await snapshots.take("before run 1")
    runsHappen(work, victim)
    await snapshots.restore(ref)
    expect(lstatSync(join(work, "a")).isDirectory()).toBe(true)
    expect(readFileSync(join(work, "a", "x", "b", "f"), "utf8")).toBe("f\n")
    expect(readdirSync(victim)).toEqual(["host-file"])
    expect(existsSync(join(victim, "x"))).toBe(false)
  })
})
