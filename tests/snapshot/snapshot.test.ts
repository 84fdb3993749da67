import { describe, expect, test } from "bun:test"
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync, readdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createSnapshotter } from "../../core/snapshot/index.ts"
import { git, hostileRepo } from "../git/hostile-repo.ts"
import { treeState, treeWithTimes } from "./tree.ts"

function workspace() {
  const root = mkdtempSync(join(tmpdir(), "ccode-snap-"))
  const work = join(root, "work")
  const home = join(root, "home")
  mkdirSync(join(work, "src", "deep"), { recursive: true })
  mkdirSync(join(work, "empty", "nested"), { recursive: true })
  writeFileSync(join(work, "README.md"), "# project\n")
  writeFileSync(join(work, "src", "app.ts"), "export const a = 1\r\nexport const b = 2\n")
  writeFileSync(join(work, "src", "deep", "config.json"), '{"x": 1}\n')
  writeFileSync(join(work, "private.key"), "not really a key\n")
  chmodSync(join(work, "private.key"), 0o600)
  writeFileSync(join(work, "build.sh"), "#!/bin/sh\necho build\n")
  chmodSync(join(work, "build.sh"), 0o755)
  writeFileSync(join(work, "doomed.txt"), "to be deleted\n")
  writeFileSync(join(work, "bytes.bin"), new Uint8Array([0, 255, 13, 10, 0, 1, 2]))
  symlinkSync("README.md", join(work, "link.md"))
  chmodSync(join(work, "src", "deep"), 0o700)
  return { root, work, home, snapshots: createSnapshotter({ workspace: work, home }) }
}

/** What a run typically does: edits, creates, deletes, sed -i, chmod, mkdir, a file replacing a directory. */
function messUp(work: string) {
  writeFileSync(join(work, "README.md"), "# rewritten\n")
  writeFileSync(join(work, "created.txt"), "new file\n")
  mkdirSync(join(work, "newdir", "sub"), { recursive: true })
  writeFileSync(join(work, "newdir", "sub", "f.txt"), "x\n")
  rmSync(join(work, "doomed.txt"))
  rmSync(join(work, "empty"), { recursive: true })
  chmodSync(join(work, "private.key"), 0o644)
  chmodSync(join(work, "build.sh"), 0o644)
  rmSync(join(work, "src", "deep"), { recursive: true })
  writeFileSync(join(work, "src", "deep"), "a file where a directory was\n")
  const sed = Bun.spawnSync(["bash", "-c", "sed -i 's/const a = 1/const a = 42/' src/app.ts"], { cwd: work })
  expect(sed.exitCode).toBe(0)
}

describe("snapshots and restore", () => {
  test("restoring the first snapshot puts back every byte and mode, removes what was created, brings back what was deleted", async () => {
    const { work, snapshots } = workspace()
    const before = treeState(work)
    const ref = await snapshots.take("before")
    messUp(work)
    expect(treeState(work)).not.toEqual(before)
    const result = await snapshots.restore(ref)
    expect(treeState(work)).toEqual(before)
    expect(result.restored).toEqual(expect.arrayContaining(["doomed.txt", "empty/", "empty/nested/", "src/deep/config.json"]))
    expect(result.removed).toEqual(expect.arrayContaining(["created.txt", "newdir/", "newdir/sub/", "newdir/sub/f.txt", "src/deep"]))
    expect(result.modified).toEqual(expect.arrayContaining(["README.md", "build.sh", "private.key", "src/app.ts"]))
  })

  test("a dry run lists the same changes and touches nothing", async () => {
    const { work, snapshots } = workspace()
    const ref = await snapshots.take("before")
    messUp(work)
    const messed = treeWithTimes(work)
    const dry = await snapshots.restore(ref, { dryRun: true })
    expect(treeWithTimes(work)).toEqual(messed)
    expect(dry).toEqual(await snapshots.restore(ref))
  })

  test("files the run did not touch are not rewritten (same mtime), and the user's .git is untouched", async () => {
    const { work, snapshots } = workspace()
    git(work, { PATH: process.env.PATH!, HOME: work }, "init", "-q")
    git(work, { PATH: process.env.PATH!, HOME: work }, "add", "-A")
    git(work, { PATH: process.env.PATH!, HOME: work }, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init")
    const userGit = treeWithTimes(join(work, ".git"))
    const ref = await snapshots.take("before")
    const untouched = treeWithTimes(join(work, "src", "deep"))
    writeFileSync(join(work, "README.md"), "changed\n")
    writeFileSync(join(work, "created.txt"), "new\n")
    await snapshots.restore(ref)
    expect(treeWithTimes(join(work, "src", "deep"))).toEqual(untouched)
    expect(treeWithTimes(join(work, ".git"))).toEqual(userGit)
    expect(readFileSync(join(work, "README.md"), "utf8")).toBe("# project\n")
  })

  test("restoring a later snapshot goes back only to that point", async () => {
    const { work, snapshots } = workspace()
    await snapshots.take("start")
    writeFileSync(join(work, "step1.txt"), "one\n")
    const middle = await snapshots.take("after step 1")
    const atMiddle = treeState(work)
    writeFileSync(join(work, "step2.txt"), "two\n")
    writeFileSync(join(work, "README.md"), "two\n")
    await snapshots.restore(middle)
    expect(treeState(work)).toEqual(atMiddle)
    expect(existsSync(join(work, "step1.txt"))).toBe(true)
  })

  test("an unchanged workspace gives the same ref; changedSince names what changed", async () => {
    const { work, snapshots } = workspace()
    const ref = await snapshots.take("a")
    expect(await snapshots.take("b")).toBe(ref)
    expect(await snapshots.changedSince(ref)).toEqual([])
    writeFileSync(join(work, "created.txt"), "x")
    chmodSync(join(work, "private.key"), 0o640)
    expect(await snapshots.changedSince(ref)).toEqual(["created.txt", "private.key"])
    expect(await snapshots.take("c")).not.toBe(ref)
  })

  test("the shadow repository lives under CCODE_HOME, and ccode's own files inside the workspace stay out of it", async () => {
    const { work, home } = workspace()
    const db = join(work, ".ccode-state", "ccode.db")
    mkdirSync(join(work, ".ccode-state"))
    writeFileSync(db, "database v1")
    const snapshots = createSnapshotter({ workspace: work, home, exclude: [db] })
    const ref = await snapshots.take("before")
    writeFileSync(db, "database v2")
    writeFileSync(`${db}-wal`, "wal")
    expect(await snapshots.changedSince(ref)).toEqual([])
    await snapshots.restore(ref)
    expect(readFileSync(db, "utf8")).toBe("database v2")
    expect(readdirSync(join(home, "snapshots")).length).toBe(1)
    expect(existsSync(join(work, ".git"))).toBe(false)
  })

  test("a hostile repository's filters, hooks, fsmonitor and attributes never run or change bytes", async () => {
    const hostile = hostileRepo()
    const home = join(hostile.dir, "ccode-home")
    // the process's HOME is the hostile one: its global config names the same programs
    const savedHome = process.env.HOME
    process.env.HOME = hostile.home
    try {
      writeFileSync(join(hostile.repo, "crlf.txt"), "one\r\ntwo\r\n")
      writeFileSync(join(hostile.repo, ".gitattributes"), readFileSync(join(hostile.repo, ".gitattributes"), "utf8") + "* text=auto eol=crlf\n*.txt ident\n")
      writeFileSync(join(hostile.repo, "lf.txt"), "$Id$\nlf only\n")
      const before = treeState(hostile.repo)
      const snapshots = createSnapshotter({ workspace: hostile.repo, home })
      const ref = await snapshots.take("before")
      rmSync(join(hostile.repo, "crlf.txt"))
      writeFileSync(join(hostile.repo, "lf.txt"), "changed\n")
      writeFileSync(join(hostile.repo, "a.txt"), "changed\n")
      await snapshots.restore(ref)
      expect(treeState(hostile.repo)).toEqual(before)
      expect(hostile.tags()).toEqual([])
    } finally {
      process.env.HOME = savedHome
    }
  })
})
