// Forgetting old snapshots never takes the objects of one being written right now: its pack is on
// disk a moment before the ref that keeps it.
import { afterAll, expect, test } from "bun:test"
import { readdirSync, rmSync, utimesSync } from "node:fs"
import { join } from "node:path"
import { safeGit } from "../../core/git/safe-git.ts"
import { createSnapshotter } from "../../core/snapshot/index.ts"
import { writeCommit } from "../../core/snapshot/objects.ts"
import { pruneSnapshots } from "../../core/snapshot/prune.ts"
import { openShadow } from "../../core/snapshot/repo.ts"
import { tempWorkspace } from "./workspace.ts"

const roots: string[] = []
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true })
})

test("prune drops a removed run's snapshot and keeps a packed commit that has no ref yet", async () => {
  const { work, home } = tempWorkspace("ccode-prune-", roots, { "a.txt": "old run\n" })
  const snapshotter = createSnapshotter({ workspace: work, home })
  await snapshotter.stage()
  const old = await snapshotter.take("a removed run")
  // another run, mid-snapshot: its blob and commit are in a pack, its ref not written yet
  const repo = await openShadow(work, home)
  const blob = repo.objects.add("blob", "being written\n")
  const tree = repo.objects.add("tree", Buffer.concat([Buffer.from("100644 b.txt\0"), Buffer.from(blob, "hex")]))
  const inFlight = writeCommit(repo.objects, tree, "in flight\n")
  repo.objects.flush()
  // the removed run is an hour old: so are its packs
  const packDir = join(repo.gitDir, "objects", "pack")
  const hourAgo = new Date(Date.now() - 60 * 60_000)
  for (const name of readdirSync(packDir)) if (!name.startsWith(repo.objects.packs[0]!.name)) utimesSync(join(packDir, name), hourAgo, hourAgo)
  const exists = async (id: string) => (await safeGit(["cat-file", "-e", id], { cwd: work, gitDir: repo.gitDir, filters: [] })).exitCode === 0
  expect(await exists(old)).toBe(true)

  const pruned = await pruneSnapshots(home, [old], () => false, 30 * 60_000)
  expect(pruned).toEqual({ refs: 1, repos: 1 })
  expect(await exists(old)).toBe(false)
  expect(await exists(inFlight)).toBe(true)
  expect(await exists(blob)).toBe(true)
})
