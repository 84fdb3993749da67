import { afterAll, describe, expect, test } from "bun:test"
import { chmodSync, existsSync, fstatSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { chmodIn, openBeneath, OutsideRoot, partsOf, rmdirIn, unlinkIn, withParent } from "../../core/base/beneath.ts"

const root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-beneath-")))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const ws = join(root, "ws")
const outside = join(root, "outside")
mkdirSync(join(ws, "real", "deep"), { recursive: true })
mkdirSync(outside)
writeFileSync(join(outside, "host"), "host\n")
writeFileSync(join(ws, "file"), "f\n")
symlinkSync(outside, join(ws, "link"))
symlinkSync(join(outside, "host"), join(ws, "real", "to-host"))

describe("opening folders below a root without following links", () => {
  test("real folders open, missing ones are made only when asked", () => {
    const dir = openBeneath(ws, "real/deep")!
    expect(fstatSync(dir.fd).ino).toBe(statSync(join(ws, "real", "deep")).ino)
    expect(() => dir.at("..")).toThrow(OutsideRoot)
    dir.close()
    expect(openBeneath(ws, "new/one")).toBeUndefined()
    expect(existsSync(join(ws, "new"))).toBe(false)
    openBeneath(ws, "new/one", true)!.close()
    expect(lstatSync(join(ws, "new", "one")).isDirectory()).toBe(true)
  })

  test("a link or a file on the way is refused, naming it, and nothing is made beyond it", () => {
    expect(() => openBeneath(ws, "link/x", true)).toThrow(OutsideRoot)
    expect(() => openBeneath(ws, "link/x", true)).toThrow("link is a symlink")
    expect(() => openBeneath(ws, "file/x", true)).toThrow("file is not a folder")
    expect(readdirSync(outside)).toEqual(["host"])
  })

  test("dot-dot, dot, empty and absolute parts are refused", () => {
    for (const bad of ["../x", "a/../../x", "./x", "a//b", "/etc"]) expect(() => partsOf(bad)).toThrow(OutsideRoot)
  })

  test("unlink, rmdir and chmod act on the entry itself, never on a link's target", () => {
    withParent(ws, "real/to-host", false, (dir, name) => chmodIn(dir, name, 0o600))
    expect(statSync(join(outside, "host")).mode & 0o777).not.toBe(0o600)
    expect(withParent(ws, "real/to-host", false, unlinkIn)).toBe(true)
    expect(existsSync(join(outside, "host"))).toBe(true)
    expect(withParent(ws, "real/deep", false, unlinkIn)).toBe(false)
    expect(withParent(ws, "real/deep", false, rmdirIn)).toBe(true)
    expect(existsSync(join(ws, "real", "deep"))).toBe(false)
    writeFileSync(join(ws, "real", "m"), "m\n")
    chmodSync(join(ws, "real", "m"), 0o000)
    withParent(ws, "real/m", false, (dir, name) => chmodIn(dir, name, 0o640))
    expect(statSync(join(ws, "real", "m")).mode & 0o777).toBe(0o640)
    expect(() => withParent(ws, "link/host", false, unlinkIn)).toThrow(OutsideRoot)
  })
})
