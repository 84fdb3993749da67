import { afterAll, expect, test } from "bun:test"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadFingerprint, storeFingerprint } from "../../core/guards/fingerprint-file.ts"
import type { Fingerprint } from "../../core/guards/index.ts"

const home = mkdtempSync(join(tmpdir(), "ccode-fpfile-"))
afterAll(() => rmSync(home, { recursive: true, force: true }))

const walk = (n: number): Fingerprint => ({
  kind: "walk", root: "/ws", takenAt: 1,
  files: Object.fromEntries(Array.from({ length: n }, (_, i) => [`d/f${i}.txt`, { hash: `h${i}`, size: i, mtimeMs: i }])),
})

test("a big walk is stored beside the run, the checkpoint keeps a reference, and it reads back whole", () => {
  const big = walk(5000)
  const stored = storeFingerprint(big, home, "r1")
  expect(stored.files).toEqual({})
  expect(stored.stored).toBe(join(home, "runs", "r1", "fingerprint.json"))
  expect(JSON.stringify(stored).length).toBeLessThan(500)
  expect(loadFingerprint(JSON.parse(JSON.stringify(stored)))).toEqual(big)
})

test("a small walk and a git fingerprint stay in the checkpoint; a stored one whose file is gone is no fingerprint", () => {
  const small = walk(10)
  expect(storeFingerprint(small, home, "r2")).toBe(small)
  expect(existsSync(join(home, "runs", "r2"))).toBe(false)
  const git: Fingerprint = { kind: "git", root: "/ws", head: "abc", takenAt: 1, files: {} }
  expect(storeFingerprint(git, home, "r3")).toBe(git)
  expect(loadFingerprint({ ...walk(0), stored: join(home, "nope.json") })).toBeUndefined()
})
