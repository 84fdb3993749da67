// The submodules an index records are read once per version of the index file: an index left as it
// was is not read again, one changed in any way (rewritten by git, patched in place with the same
// size, just written) is.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, realpathSync, writeSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gitlinkPaths } from "../../core/base/gitlinks.ts"
import { removeTree } from "../tmp.ts"

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/nonexistent", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" }

/** ccode keeps an answer only for an index that had been still for 2 s when it was looked at. */
const STILL_MS = 2_100

describe("reading an index's submodules again", () => {
  let root: string
  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-gitlinks-")))
  })
  afterAll(() => removeTree(root))

  function git(dir: string, ...args: string[]): string {
    const proc = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "protocol.file.allow=always", ...args], { cwd: dir, env, stderr: "pipe" })
    if (proc.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${proc.stderr.toString()}`)
    return proc.stdout.toString()
  }

  /** A repository whose index holds only the submodules named (each a repository of its own). */
  function repo(name: string, subs: string[]): string {
    const w = join(root, name)
    mkdirSync(w, { recursive: true })
    git(w, "init", "-q")
    for (const sub of subs) addSub(w, sub)
    return w
  }

  function addSub(w: string, sub: string): void {
    mkdirSync(join(w, sub), { recursive: true })
    git(join(w, sub), "init", "-q")
    git(join(w, sub), "commit", "-q", "--allow-empty", "-m", "i")
    git(w, "add", sub)
  }

  function counting(): { read: (path: string) => Buffer; reads: () => number } {
    let n = 0
    return { read: (path) => (n++, readFileSync(path)), reads: () => n }
  }

  test("an index left as it was is read once; changed by git, it is read again", async () => {
    const w = repo("kept", ["libs/a"])
    const index = join(w, ".git", "index")
    await Bun.sleep(STILL_MS)
    const c = counting()
    expect(gitlinkPaths(index, c.read)).toEqual(["libs/a"])
    expect(gitlinkPaths(index, c.read)).toEqual(["libs/a"])
    expect(gitlinkPaths(index, c.read)).toEqual(["libs/a"])
    expect(c.reads()).toBe(1)
    // git writes a new index file and renames it over the old one
    addSub(w, "libs/b")
    expect(gitlinkPaths(index, c.read)).toEqual(["libs/a", "libs/b"])
    expect(c.reads()).toBe(2)
  }, 20_000)

  test("an index patched in place with the same size is read again", async () => {
    const w = repo("patched", ["only"])
    const index = join(w, ".git", "index")
    await Bun.sleep(STILL_MS)
    const c = counting()
    expect(gitlinkPaths(index, c.read)).toEqual(["only"])
    expect(gitlinkPaths(index, c.read)).toEqual(["only"])
    expect(c.reads()).toBe(1)
    // the first entry's mode (12 bytes of header, then ctime, mtime, dev, ino: 24 bytes) from 160000
    // to 100644, in place: same file, same size
    const fd = openSync(index, "r+")
    try {
      const mode = Buffer.alloc(4)
      mode.writeUInt32BE(0o100644)
      writeSync(fd, mode, 0, 4, 12 + 24)
    } finally {
      closeSync(fd)
    }
    expect(gitlinkPaths(index, c.read)).toEqual([])
    expect(c.reads()).toBe(2)
  }, 20_000)

  test("an index written a moment ago is read every time (a second write in the same clock tick could leave the same stat data)", () => {
    const w = repo("fresh", ["x"])
    const index = join(w, ".git", "index")
    const c = counting()
    expect(gitlinkPaths(index, c.read)).toEqual(["x"])
    expect(gitlinkPaths(index, c.read)).toEqual(["x"])
    expect(c.reads()).toBe(2)
  }, 20_000)
})
