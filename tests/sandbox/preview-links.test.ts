// A folder of the workspace swapped for a symlink between the preview and its apply: the approved
// change must never land (or delete) outside the workspace, whatever kind of change it is.
import { afterEach, describe, expect, test } from "bun:test"
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { applyPreview, copyWorkspace, previewOf } from "../../core/sandbox/preview.ts"

const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function setup() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-preview-links-")))
  made.push(root)
  const ws = join(root, "ws")
  const outside = join(root, "outside")
  mkdirSync(join(ws, "d"), { recursive: true })
  mkdirSync(outside)
  writeFileSync(join(ws, "d", "known"), "known-content-v1\n")
  writeFileSync(join(outside, "known"), "known-content-v1\n")
  writeFileSync(join(ws, "d", "x"), "x\n")
  writeFileSync(join(outside, "x"), "x\n")
  return { root, ws, outside, scratch: copyWorkspace(ws, join(root, "preview")) }
}

// what a later step of the same run does while the preview waits for the person
function swap(ws: string, outside: string, dir = "d") {
  renameSync(join(ws, dir), join(ws, `${dir}.old`))
  symlinkSync(outside, join(ws, dir))
}

describe("preview apply after a folder became a symlink", () => {
  test("added file: refused, nothing written outside", () => {
    const { ws, outside, scratch } = setup()
    writeFileSync(join(scratch, "d", "planted"), "harmless notes\n")
    const preview = previewOf(ws, scratch)
    expect(preview.changes.map((c) => [c.path, c.kind])).toEqual([["d/planted", "added"]])
    swap(ws, outside)
    expect(() => applyPreview(ws, preview)).toThrow(/d\/planted is no longer below real folders of the workspace \(d is a symlink/)
    expect(existsSync(join(outside, "planted"))).toBe(false)
  })

  test("changed file whose base bytes match the outside file: refused, the outside file keeps its bytes", () => {
    const { ws, outside, scratch } = setup()
    writeFileSync(join(scratch, "d", "known"), "OVERWRITTEN-by-preview\n")
    const preview = previewOf(ws, scratch)
    expect(preview.changes.map((c) => c.kind)).toEqual(["changed"])
    swap(ws, outside)
    expect(() => applyPreview(ws, preview)).toThrow(/no longer below real folders/)
    expect(readFileSync(join(outside, "known"), "utf8")).toBe("known-content-v1\n")
  })

  test("deleted file: refused, the outside file stays", () => {
    const { ws, outside, scratch } = setup()
    rmSync(join(scratch, "d", "x"))
    const preview = previewOf(ws, scratch)
    swap(ws, outside)
    expect(() => applyPreview(ws, preview)).toThrow(/no longer below real folders/)
    expect(readFileSync(join(outside, "x"), "utf8")).toBe("x\n")
  })

  test("a deeper link (d/sub -> outside) and a new folder created under a link are refused too", () => {
    const { ws, outside, scratch } = setup()
    mkdirSync(join(scratch, "d", "sub", "deeper"), { recursive: true })
    writeFileSync(join(scratch, "d", "sub", "deeper", "f"), "f\n")
    const preview = previewOf(ws, scratch)
    symlinkSync(outside, join(ws, "d", "sub"))
    expect(() => applyPreview(ws, preview)).toThrow(/d\/sub is a symlink/)
    expect(existsSync(join(outside, "deeper"))).toBe(false)
  })

  test("an added file is created afresh at its name, a regular file", () => {
    const { ws, outside, scratch } = setup()
    writeFileSync(join(scratch, "d", "new"), "new\n")
    const preview = previewOf(ws, scratch)
    // the apply removes what stands at the name and creates the file afresh (O_EXCL | O_NOFOLLOW)
    applyPreview(ws, preview)
    expect(lstatSync(join(ws, "d", "new")).isFile()).toBe(true)
    expect(readFileSync(join(ws, "d", "new"), "utf8")).toBe("new\n")
  })

  test("without a swap, new folders are created as real folders and modes are kept", () => {
    const { ws, scratch } = setup()
    mkdirSync(join(scratch, "n1", "n2"), { recursive: true })
    writeFileSync(join(scratch, "n1", "n2", "run.sh"), "echo hi\n", { mode: 0o755 })
    applyPreview(ws, previewOf(ws, scratch))
    expect(lstatSync(join(ws, "n1")).isDirectory()).toBe(true)
    expect(lstatSync(join(ws, "n1", "n2", "run.sh")).mode & 0o777).toBe(0o755)
  })
})

describe("preview apply takes exactly the bytes that were shown", () => {
  test("the scratch copy's file rewritten after the preview: refused, the workspace keeps its bytes", () => {
    const { ws, scratch } = setup()
    writeFileSync(join(scratch, "d", "known"), "shown\n")
    writeFileSync(join(scratch, "d", "added"), "shown too\n")
    const preview = previewOf(ws, scratch)
    writeFileSync(join(scratch, "d", "added"), "something else\n")
    expect(() => applyPreview(ws, preview)).toThrow("d/added changed in the preview's copy since it was shown")
    expect(readFileSync(join(ws, "d", "known"), "utf8")).toBe("known-content-v1\n")
    expect(existsSync(join(ws, "d", "added"))).toBe(false)
  })

  test("a folder of the scratch copy swapped for a link to a host folder: nothing is read through it", () => {
    const { ws, outside, scratch } = setup()
    writeFileSync(join(scratch, "d", "x"), "edited\n")
    const preview = previewOf(ws, scratch)
    renameSync(join(scratch, "d"), join(scratch, "d.old"))
    symlinkSync(outside, join(scratch, "d"))
    expect(() => applyPreview(ws, preview)).toThrow("d/x moved in the preview's copy")
    expect(readFileSync(join(ws, "d", "x"), "utf8")).toBe("x\n")
  })
})
