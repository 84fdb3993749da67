import { afterAll, describe, expect, test } from "bun:test"
import { chmodSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { watchWorkspace, type WorkspaceWatch } from "../../core/guards/watch.ts"

const dirs: string[] = []
const watches: WorkspaceWatch[] = []
afterAll(() => {
  for (const w of watches) w.close()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "ccode-watch-"))
  dirs.push(dir)
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
  return dir
}

function watch(root: string, opts: Parameters<typeof watchWorkspace>[1] = {}): WorkspaceWatch {
  const { watch, why } = watchWorkspace(root, opts)
  if (!watch) throw new Error(`no watch: ${why}`)
  watches.push(watch)
  return watch
}

const sh = (cwd: string, script: string) => expect(Bun.spawnSync(["bash", "-c", script], { cwd }).exitCode).toBe(0)

describe.skipIf(process.platform !== "linux")("ccode's own file watch (inotify)", () => {
  test("a quiet workspace drains to nothing; a step's writes are all there the moment its process has exited", () => {
    const root = folder({ "a.txt": "a", "src/deep/b.ts": "b", "gone.txt": "x" })
    const w = watch(root)
    expect(w.drain()).toEqual({ paths: [], git: false, lost: false })
    sh(root, "echo more >> a.txt; echo B > src/deep/b.ts; rm gone.txt; echo n > src/new.ts; chmod 600 a.txt")
    const news = w.drain()
    expect(news.lost).toBe(false)
    expect(news.paths.sort()).toEqual(["a.txt", "gone.txt", "src/deep/b.ts", "src/new.ts"])
    expect(w.drain().paths).toEqual([])
  })

  test("a directory made with files in it at once is reported whole, and watched from then on", () => {
    const root = folder({ "a.txt": "a" })
    const w = watch(root)
    sh(root, "mkdir -p x/y/z && echo 1 > x/y/z/f.txt && echo 2 > x/g.txt")
    expect(w.drain().paths.sort()).toEqual(expect.arrayContaining(["x", "x/g.txt", "x/y/z/f.txt"]))
    writeFileSync(join(root, "x/y/z/later.txt"), "later")
    expect(w.drain().paths).toEqual(["x/y/z/later.txt"])
  })

  test("a renamed directory reports its new name for later writes, not the old one", () => {
    const root = folder({ "old/f.txt": "f" })
    const w = watch(root)
    renameSync(join(root, "old"), join(root, "new"))
    expect(w.drain().paths.sort()).toEqual(expect.arrayContaining(["new", "old"]))
    writeFileSync(join(root, "new/f.txt"), "changed")
    expect(w.drain().paths).toEqual(["new/f.txt"])
  })

  test("ccode's own files are not news; the repository's .git is news of its own kind", () => {
    const root = folder({ "a.txt": "a", "home/db": "x", ".git/HEAD": "ref: refs/heads/main\n", ".git/refs/heads/main": "0" })
    const w = watch(root, { skip: (p) => p === "home" || p.startsWith("home/"), gitDirs: [join(root, ".git")] })
    writeFileSync(join(root, "home/db"), "written by ccode")
    expect(w.drain()).toEqual({ paths: [], git: false, lost: false })
    writeFileSync(join(root, ".git/refs/heads/main"), "1")
    expect(w.drain()).toEqual({ paths: [], git: true, lost: false })
  })

  test("symlinks and chmod are changes; a symlinked directory is not followed", () => {
    const outside = folder({ "secret.txt": "s" })
    const root = folder({ "a.txt": "a" })
    symlinkSync(outside, join(root, "link"))
    const w = watch(root)
    writeFileSync(join(outside, "secret.txt"), "changed outside")
    expect(w.drain().paths).toEqual([])
    chmodSync(join(root, "a.txt"), 0o600)
    unlinkSync(join(root, "link"))
    expect(w.drain().paths.sort()).toEqual(["a.txt", "link"])
  })

  test("a name that is not UTF-8 cannot be named onwards: the watch says to look at everything", () => {
    const root = folder({ "a.txt": "a" })
    const w = watch(root)
    writeFileSync(Buffer.concat([Buffer.from(`${root}/`), Buffer.from([0x66, 0xff, 0x2e, 0x74])]), "latin-1 name")
    expect(w.drain().lost).toBe(true)
    expect(w.drain()).toEqual({ paths: [], git: false, lost: false })
  })

  test("a closed watch says everything may have changed", () => {
    const root = folder({ "a.txt": "a" })
    const w = watch(root)
    w.close()
    expect(w.drain().lost).toBe(true)
  })
})
