// Trees kept up to date change by change (ids patched in place, directories re-encoded) are the very
// trees a listing built from scratch gives, and git reads them as valid, sorted trees.
import { afterAll, expect, test } from "bun:test"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Entry } from "../../core/snapshot/listing.ts"
import { objectWriter } from "../../core/snapshot/objects.ts"
import { objectId } from "../../core/snapshot/packfile.ts"
import { setEntry, treesFrom, writeTrees } from "../../core/snapshot/trees.ts"

const roots: string[] = []
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true })
})

/** mulberry32: the same "random" changes on every run */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// names whose order differs between a string sort, a byte sort and git's "directories end in /" sort
const NAMES = ["a", "a.b", "a-b", "a0", "ab", "b", "é", "\uff00", "😀", "Z", "x y", "a/b", "a/b.c", "a/b/c", "a.b/c", "a0/x", "é/😀", "deep/er/still/f"]
const MODES = ["100644", "100755", "120000"]

test("a thousand random changes, snapshot after snapshot: patched trees equal trees built from scratch, and git fsck accepts them", () => {
  const next = random(20261127)
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!
  const gitDir = mkdtempSync(join(tmpdir(), "ccode-trees-"))
  roots.push(gitDir)
  expect(Bun.spawnSync(["git", "init", "-q", "--bare", gitDir], { env: { PATH: process.env.PATH!, GIT_CONFIG_NOSYSTEM: "1", HOME: gitDir } }).exitCode).toBe(0)
  const writer = objectWriter(gitDir)
  const entries = new Map<string, Entry>()
  const blob = (text: string) => writer.add("blob", text)
  // a path can be a file or a directory, never both at once
  const conflicts = (path: string) => [...entries.keys()].some((p) => p !== path && (p.startsWith(`${path}/`) || path.startsWith(`${p}/`)))
  for (const name of NAMES) {
    const path = name.includes("/") ? `top/${name}` : name
    if (!conflicts(path)) entries.set(path, { mode: "100644", oid: blob(name) })
  }
  const trees = treesFrom(entries)
  const snapshots: string[] = []
  for (let step = 0; step < 1000; step++) {
    for (let n = 1 + Math.floor(next() * 3); n > 0; n--) {
      const path = `${pick(["", "top/", "top/a/", "other/", "top/deep/er/"])}${pick(NAMES)}`
      const roll = next()
      let entry: Entry | undefined
      if (roll < 0.6) entry = { mode: entries.get(path)?.mode ?? "100644", oid: blob(`${path} ${step}`) } // new content
      else if (roll < 0.75) entry = { mode: pick(MODES), oid: entries.get(path)?.oid ?? blob(path) } // chmod, or a symlink now
      else if (roll < 0.8) entry = { mode: "160000", oid: objectId("commit", `${path}`) } // a nested repository
      if (entry ? conflicts(path) : !entries.has(path)) continue // only files are set or removed one by one
      if (entry) entries.set(path, entry)
      else entries.delete(path)
      setEntry(trees, path, entry)
    }
    const patched = writeTrees(trees, writer.add)
    const scratch = writeTrees(treesFrom(entries), (type, content) => objectId(type, content))
    expect({ step, root: patched }).toEqual({ step, root: scratch })
    snapshots.push(patched)
  }
  writer.flush()
  // every tree git reads is what the listing says, sorted as git sorts (fsck --strict checks the order)
  const listed = Bun.spawnSync(["git", "--git-dir", gitDir, "ls-tree", "-r", "-z", snapshots.at(-1)!]).stdout.toString()
  const fromGit = new Map(listed.split("\0").filter(Boolean).map((line) => {
    const [meta, path] = line.split("\t")
    const [mode, , oid] = meta!.split(" ")
    return [path!, { mode: mode!, oid: oid! }] as const
  }))
  expect(Object.fromEntries([...fromGit].sort())).toEqual(Object.fromEntries([...entries].sort()))
  const fsck = Bun.spawnSync(["git", "--git-dir", gitDir, "fsck", "--strict", "--no-dangling", ...snapshots.slice(-50)], { stderr: "pipe" })
  expect(fsck.stderr.toString().split("\n").filter((line) => line && !/missing commit|broken link|dangling|notice/.test(line))).toEqual([])
})
