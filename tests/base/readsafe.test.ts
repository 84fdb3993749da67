import { afterAll, describe, expect, test } from "bun:test"
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { NotRegularFile, readRegular } from "../../core/base/readsafe.ts"

const dir = mkdtempSync(join(tmpdir(), "ccode-readsafe-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("readRegular", () => {
  test("reads a regular file, and only its first max bytes", () => {
    writeFileSync(join(dir, "a"), "hello world")
    expect(readRegular(join(dir, "a"))).toBe("hello world")
    expect(readRegular(join(dir, "a"), 5)).toBe("hello")
  })

  test("a named pipe is refused at once instead of blocking until a writer comes", () => {
    const fifo = join(dir, "fifo")
    expect(Bun.spawnSync(["mkfifo", fifo]).exitCode).toBe(0)
    const started = performance.now()
    expect(() => readRegular(fifo)).toThrow(NotRegularFile)
    // generous: a blocking open would never return
    expect(performance.now() - started).toBeLessThan(5_000)
  })

  test("a link to a device that never ends, or to a folder, is refused", () => {
    symlinkSync("/dev/zero", join(dir, "zero"))
    expect(() => readRegular(join(dir, "zero"))).toThrow(NotRegularFile)
    expect(() => readRegular(dir)).toThrow(NotRegularFile)
  })

  test("a missing file throws like readFileSync (ENOENT)", () => {
    expect(() => readRegular(join(dir, "missing"))).toThrow(expect.objectContaining({ code: "ENOENT" }))
  })
})
