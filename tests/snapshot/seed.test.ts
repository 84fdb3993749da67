// The cold start from the user's index: used when the user's blobs are the bytes on disk, never when
// they may not be, and restoring from it brings back the bytes, not the index's idea of them.
import { afterAll, expect, test } from "bun:test"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createSnapshotter } from "../../core/snapshot/index.ts"
import { shadowDir } from "../../core/snapshot/repo.ts"
import { git } from "../git/hostile-repo.ts"
import { treeState, treeWithTimes } from "./tree.ts"

const roots: string[] = []
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true })
})

function repo(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), "ccode-seed-"))
  roots.push(root)
  const work = join(root, "work")
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(work, path, ".."), { recursive: true })
    writeFileSync(join(work, path), content)
  }
  const env = { PATH: process.env.PATH!, HOME: root, GIT_CONFIG_NOSYSTEM: "1" }
  const run = (...args: string[]) => git(work, env, ...args)
  run("init", "-q")
  run("add", "-A")
  run("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init")
  return { root, work, home: join(root, "home"), run }
}

const seeded = (home: string, work: string) => existsSync(join(shadowDir(home, work), "ccode-seeded-from"))

test("a plain repository seeds the shadow index; undo brings back committed and uncommitted bytes alike, and .git is untouched", async () => {
  const { work, home } = repo({ "a.txt": "committed\n", "src/b.txt": "b\n" })
  writeFileSync(join(work, "src/b.txt"), "edited, not committed\n")
  const before = treeState(work)
  const userGit = treeWithTimes(join(work, ".git"))
  const snapshots = createSnapshotter({ workspace: work, home })
  const ref = await snapshots.take("before")
  expect(seeded(home, work)).toBe(true)
  writeFileSync(join(work, "a.txt"), "changed by the run\n")
  writeFileSync(join(work, "src/b.txt"), "changed again\n")
  await snapshots.restore(ref)
  expect(treeState(work)).toEqual(before)
  expect(treeWithTimes(join(work, ".git"))).toEqual(userGit)
})

test("no seeding where the index may not hold the bytes on disk: attributes, or entries git is told to skip", async () => {
  const withAttributes = repo({ ".gitattributes": "*.txt text eol=crlf\n", "a.txt": "a\n" })
  await createSnapshotter({ workspace: withAttributes.work, home: withAttributes.home }).take("x")
  expect(seeded(withAttributes.home, withAttributes.work)).toBe(false)

  const flagged = repo({ "a.txt": "committed\n" })
  flagged.run("update-index", "--assume-unchanged", "a.txt")
  await expectUnseededUndo(flagged, "a.txt")
})

/** `path`, edited where git does not look, is snapshotted from its bytes (no seeding) and comes back on undo. */
async function expectUnseededUndo(r: ReturnType<typeof repo>, path: string) {
  writeFileSync(join(r.work, path), "edited where git does not look\n")
  const snapshots = createSnapshotter({ workspace: r.work, home: r.home })
  const ref = await snapshots.take("before")
  expect(seeded(r.home, r.work)).toBe(false)
  writeFileSync(join(r.work, path), "changed by the run\n")
  await snapshots.restore(ref)
  expect(readFileSync(join(r.work, path), "utf8")).toBe("edited where git does not look\n")
}

test("no seeding from an index that is split, has a skip-worktree entry or lists a .gitattributes below the top", async () => {
  const nested = repo({ "a.txt": "a\n", "sub/.gitattributes": "*.txt text eol=crlf\n" })
  await createSnapshotter({ workspace: nested.work, home: nested.home }).take("x")
  expect(seeded(nested.home, nested.work)).toBe(false)

  const split = repo({ "a.txt": "a\n" })
  split.run("update-index", "--split-index")
  await createSnapshotter({ workspace: split.work, home: split.home }).take("x")
  expect(seeded(split.home, split.work)).toBe(false)

  const skipped = repo({ "a.txt": "a\n", "b.txt": "b\n" })
  skipped.run("update-index", "--skip-worktree", "b.txt")
  await expectUnseededUndo(skipped, "b.txt")

  const plain = repo({ "a.txt": "a\n", "sub/b.txt": "b\n" })
  await createSnapshotter({ workspace: plain.work, home: plain.home }).take("x")
  expect(seeded(plain.home, plain.work)).toBe(true)
})
