import { afterEach, describe, expect, test } from "bun:test"
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { applyPreview, copyWorkspace, previewOf } from "../../core/sandbox/preview.ts"

const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function setup() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-preview-")))
  made.push(root)
  const ws = join(root, "ws")
  mkdirSync(join(ws, "src"), { recursive: true })
  writeFileSync(join(ws, "src", "a.txt"), "one\ntwo\n")
  writeFileSync(join(ws, "gone.txt"), "bye\n")
  writeFileSync(join(ws, "bin.dat"), Buffer.from([0, 1, 2, 3]))
  writeFileSync(join(ws, "run.sh"), "echo hi\n")
  const scratch = copyWorkspace(ws, join(root, "preview"))
  return { root, ws, scratch }
}

describe("preview of a call's change", () => {
  test("added, changed (content or executable bit) and deleted files, with a unified diff for text", () => {
    const { ws, scratch } = setup()
    writeFileSync(join(scratch, "src", "a.txt"), "one\n2\n")
    rmSync(join(scratch, "gone.txt"))
    writeFileSync(join(scratch, "src", "new.txt"), "fresh\n")
    writeFileSync(join(scratch, "bin.dat"), Buffer.from([0, 9]))
    Bun.spawnSync(["chmod", "+x", join(scratch, "run.sh")])
    const preview = previewOf(ws, scratch)
    expect(preview.changes.map((c) => [c.path, c.kind])).toEqual([
      ["bin.dat", "changed"], ["gone.txt", "deleted"], ["run.sh", "changed"], ["src/a.txt", "changed"], ["src/new.txt", "added"],
    ])
    expect(preview.diff).toContain("--- a/src/a.txt\n+++ b/src/a.txt")
    expect(preview.diff).toContain("-two\n+2\n")
    expect(preview.diff).toContain("changed bin.dat (binary or special file)")
    expect(preview.diff).toContain("+++ b/src/new.txt")
  })

  test("applying writes exactly the previewed files and nothing else", () => {
    const { ws, scratch } = setup()
    writeFileSync(join(scratch, "src", "a.txt"), "one\n2\n")
    rmSync(join(scratch, "gone.txt"))
    mkdirSync(join(scratch, "deep", "er"), { recursive: true })
    writeFileSync(join(scratch, "deep", "er", "x"), "x")
    Bun.spawnSync(["chmod", "+x", join(scratch, "run.sh")])
    applyPreview(ws, previewOf(ws, scratch))
    expect(readFileSync(join(ws, "src", "a.txt"), "utf8")).toBe("one\n2\n")
    expect(existsSync(join(ws, "gone.txt"))).toBe(false)
    expect(readFileSync(join(ws, "deep", "er", "x"), "utf8")).toBe("x")
    expect(lstatSync(join(ws, "run.sh")).mode & 0o111).not.toBe(0)
    expect(readFileSync(join(ws, "bin.dat"))).toEqual(Buffer.from([0, 1, 2, 3]))
  })

  test("a file edited in the workspace since the preview refuses the whole apply", () => {
    const { ws, scratch } = setup()
    writeFileSync(join(scratch, "src", "a.txt"), "preview\n")
    writeFileSync(join(scratch, "other.txt"), "new\n")
    const preview = previewOf(ws, scratch)
    writeFileSync(join(ws, "src", "a.txt"), "a person's edit\n")
    expect(() => applyPreview(ws, preview)).toThrow("src/a.txt changed in the workspace since the preview")
    expect(readFileSync(join(ws, "src", "a.txt"), "utf8")).toBe("a person's edit\n")
    expect(existsSync(join(ws, "other.txt"))).toBe(false)
  })

  test("a symlink the command replaced by a file is replaced, never written through", () => {
    const { root, ws } = setup()
    const outside = join(root, "outside.txt")
    writeFileSync(outside, "outside\n")
    symlinkSync(outside, join(ws, "link.txt"))
    const scratch = copyWorkspace(ws, join(root, "preview2"))
    expect(readlinkSync(join(scratch, "link.txt"))).toBe(outside)
    rmSync(join(scratch, "link.txt"))
    writeFileSync(join(scratch, "link.txt"), "replaced\n")
    applyPreview(ws, previewOf(ws, scratch))
    expect(readFileSync(outside, "utf8")).toBe("outside\n")
    expect(lstatSync(join(ws, "link.txt")).isSymbolicLink()).toBe(false)
    expect(readFileSync(join(ws, "link.txt"), "utf8")).toBe("replaced\n")
  })

  test("a folder the command turned into a symlink conflicts with the real folder: nothing is applied", () => {
    const { root, ws } = setup()
    const scratch = copyWorkspace(ws, join(root, "preview3"))
    rmSync(join(scratch, "src"), { recursive: true })
    symlinkSync("/etc", join(scratch, "src"))
    expect(() => applyPreview(ws, previewOf(ws, scratch))).toThrow()
    expect(readFileSync(join(ws, "src", "a.txt"), "utf8")).toBe("one\ntwo\n")
  })
})
