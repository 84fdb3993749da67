import { afterEach, expect, test } from "bun:test"
import { existsSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { createSnapshotter } from "../../core/snapshot/index.ts"
import { clearStaleLock, shadowDir } from "../../core/snapshot/repo.ts"
import { tempWorkspace } from "./workspace.ts"

const roots: string[] = []
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

function setup() {
  return tempWorkspace("ccode-lock-", roots, { "a.txt": "one\n" })
}

test("an index.lock left by a killed snapshot is removed and the next snapshot succeeds", async () => {
  const { work, home } = setup()
  const first = await createSnapshotter({ workspace: work, home }).take("first")
  const lock = join(shadowDir(home, work), "index.lock")
  writeFileSync(lock, "") // as a snapshot killed mid-way leaves it: fresh, and nobody holds it
  writeFileSync(join(work, "a.txt"), "two\n")
  const second = await createSnapshotter({ workspace: work, home }).take("second")
  expect(second).not.toBe(first)
  expect(existsSync(lock)).toBe(false)
})

test("a lock held by a live git process of that shadow repository is left alone", async () => {
  const { work, home } = setup()
  await createSnapshotter({ workspace: work, home }).take("first")
  const gitDir = shadowDir(home, work)
  writeFileSync(join(gitDir, "index.lock"), "")
  // a process working on the repository, as git would be (it carries GIT_DIR)
  const holder = Bun.spawn(["sleep", "30"], { env: { ...process.env, GIT_DIR: gitDir } })
  try {
    await Bun.sleep(50)
    expect(clearStaleLock(gitDir)).toBe(false)
    expect(existsSync(join(gitDir, "index.lock"))).toBe(true)
  } finally {
    holder.kill("SIGKILL")
    await holder.exited
  }
  expect(clearStaleLock(gitDir)).toBe(true)
})
