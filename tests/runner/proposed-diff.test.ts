import { afterAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { proposedDiff } from "../../core/runner/proposed-diff.ts"
import { unifiedDiff } from "../../core/runner/unified-diff.ts"

describe("unified diff", () => {
  test("a changed line inside a file: removal before addition, three lines of context", () => {
    const before = "a\nb\nc\nd\ne\nf\ng\nh\n"
    expect(unifiedDiff(before, before.replace("e", "E"), "x.txt")).toBe(
      "--- a/x.txt\n+++ b/x.txt\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n",
    )
  })
  test("a new file is all additions from /dev/null", () => {
    expect(unifiedDiff("", "one\ntwo\n", "n.txt", true)).toBe("--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n")
  })
  test("changes far apart are separate hunks; equal texts give nothing", () => {
    const lines = Array.from({ length: 30 }, (_, i) => `l${i}`)
    const after = [...lines]
    after[2] = "X"
    after[25] = "Y"
    const diff = unifiedDiff(`${lines.join("\n")}\n`, `${after.join("\n")}\n`, "f")
    expect(diff.match(/^@@/gm)).toHaveLength(2)
    expect(unifiedDiff("same\n", "same\n", "f")).toBe("")
  })
  test("a big rewrite stays fast (no quadratic blow-up)", () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `a${i}`).join("\n")
    const b = Array.from({ length: 20_000 }, (_, i) => `b${i}`).join("\n")
    const started = performance.now()
    const diff = unifiedDiff(a, b, "big")
    expect(diff.split("\n").filter((l) => l.startsWith("-a")).length).toBe(20_000)
    expect(performance.now() - started).toBeLessThan(5_000)
  })
})

describe("what a file call would change", () => {
  const root = mkdtempSync(join(tmpdir(), "ccode-proposed-"))
  const ws = realpathSync(mkdtempSync(join(root, "ws-")))
  const outside = join(root, "secret.txt")
  writeFileSync(outside, "outside-content\n")
  writeFileSync(join(ws, "conf"), "port=1\nhost=h\n")
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  test("write_file over an existing file, and a new file", () => {
    expect(proposedDiff("write_file", { path: "conf", content: "port=2\nhost=h\n" }, ws, ws)).toBe("--- a/conf\n+++ b/conf\n@@ -1,2 +1,2 @@\n-port=1\n+port=2\n host=h\n")
    expect(proposedDiff("write_file", { path: "sub/new", content: "x\n" }, ws, ws)).toStartWith("--- /dev/null\n+++ b/sub/new\n")
  })
  test("edit_file makes the replacement the tool would make; no match or an ambiguous one shows no diff", () => {
    expect(proposedDiff("edit_file", { path: "conf", old_string: "host=h", new_string: "host=k" }, ws, ws)).toContain("-host=h\n+host=k\n")
    expect(proposedDiff("edit_file", { path: "conf", old_string: "nope", new_string: "x" }, ws, ws)).toBeUndefined()
    writeFileSync(join(ws, "twice"), "a\na\n")
    expect(proposedDiff("edit_file", { path: "twice", old_string: "a", new_string: "b" }, ws, ws)).toBeUndefined()
    expect(proposedDiff("edit_file", { path: "twice", old_string: "a", new_string: "b", replace_all: true }, ws, ws)).toContain("+b\n+b\n")
  })
  test("a file outside the workspace is never read to show it: by path, by .., or through a symlink", () => {
    expect(proposedDiff("write_file", { path: outside, content: "x" }, ws, ws)).toBeUndefined()
    expect(proposedDiff("write_file", { path: "../secret.txt", content: "x" }, ws, ws)).toBeUndefined()
    symlinkSync(outside, join(ws, "link"))
    expect(proposedDiff("write_file", { path: "link", content: "x" }, ws, ws)).toBeUndefined()
    expect(proposedDiff("edit_file", { path: "link", old_string: "outside", new_string: "x" }, ws, ws)).toBeUndefined()
    mkdirSync(join(ws, "d"))
    symlinkSync(root, join(ws, "d", "up"))
    expect(proposedDiff("write_file", { path: "d/up/secret.txt", content: "x" }, ws, ws)).toBeUndefined()
  })
  test("folders, binary files and other tools show no diff", () => {
    mkdirSync(join(ws, "folder"), { recursive: true })
    expect(proposedDiff("write_file", { path: "folder", content: "x" }, ws, ws)).toBeUndefined()
    writeFileSync(join(ws, "bin"), Buffer.from([1, 0, 2]))
    expect(proposedDiff("write_file", { path: "bin", content: "x" }, ws, ws)).toBeUndefined()
    expect(proposedDiff("shell", { command: "echo > conf" }, ws, ws)).toBeUndefined()
    expect(proposedDiff("write_file", { path: 42, content: "x" }, ws, ws)).toBeUndefined()
  })
})
