import { describe, expect, test } from "bun:test"
import { describeDiff, diffFingerprints, externalChangeTrip, type FileMark, type Fingerprint } from "../../core/guards/workspace-diff.ts"

const mark = (hash: string | null, status?: string): FileMark => ({ hash, size: 1, mtimeMs: 1, ...(status ? { status } : {}) })
const fp = (kind: Fingerprint["kind"], files: Record<string, FileMark>, head?: string): Fingerprint => ({ kind, root: "/w", files, takenAt: 0, head })

describe("diffFingerprints in git mode (only changed files are listed)", () => {
  const cases: [string, FileMark | undefined, FileMark | undefined, "added" | "removed" | "modified" | undefined][] = [
    ["a clean file gets edited", undefined, mark("h1", ".M"), "modified"],
    ["a new untracked file", undefined, mark("h1", "??"), "added"],
    ["a tracked file is deleted", undefined, mark(null, ".D"), "removed"],
    ["an untracked file is deleted", mark("h1", "??"), undefined, "removed"],
    ["an edit is undone", mark("h1", ".M"), undefined, "modified"],
    ["a deleted file is restored", mark(null, ".D"), undefined, "added"],
    ["a modified file is edited again", mark("h1", ".M"), mark("h2", ".M"), "modified"],
    ["staging changes nothing on disk", mark("h1", ".M"), mark("h1", "M."), undefined],
  ]
  for (const [name, before, after, expected] of cases) {
    test(name, () => {
      const diff = diffFingerprints(fp("git", before ? { f: before } : {}, "c1"), fp("git", after ? { f: after } : {}, "c1"))
      const found = diff.added.includes("f") ? "added" : diff.removed.includes("f") ? "removed" : diff.modified.includes("f") ? "modified" : undefined
      expect(found).toBe(expected)
      expect(diff.changed).toBe(expected !== undefined)
    })
  }

  test("an untracked file committed by someone else: HEAD moved, file modified (not removed)", () => {
    const diff = diffFingerprints(fp("git", { f: mark("h1", "??") }, "c1"), fp("git", {}, "c2"))
    expect(diff).toEqual({ changed: true, added: [], removed: [], modified: ["f"], head: { before: "c1", after: "c2" } })
  })
})

describe("diffFingerprints across kinds", () => {
  test("a workspace that became a git repository is a change, without listing every file", () => {
    const diff = diffFingerprints(fp("walk", { a: mark("h"), b: mark("h") }), fp("git", {}, "(initial)"))
    expect(diff.changed).toBe(true)
    expect(diff.kind).toEqual({ before: "walk", after: "git" })
    expect(diff.added.length + diff.removed.length + diff.modified.length).toBe(0)
  })
})

describe("the external change pause", () => {
  test("lists what changed and says how to go on", () => {
    const diff = diffFingerprints(
      fp("walk", { "src/a.ts": mark("1"), "old.md": mark("2") }),
      fp("walk", { "src/a.ts": mark("3"), "new.md": mark("4") }),
    )
    const trip = externalChangeTrip(diff)
    expect(trip).toMatchObject({ guard: "external_change", action: "pause", evidence: { added: ["new.md"], removed: ["old.md"], modified: ["src/a.ts"] } })
    expect(trip.reason).toBe(
      "The workspace changed outside ccode since the last step (modified: src/a.ts; added: new.md; removed: old.md). " +
        "Check the changes, then `ccode resume` to go on with the workspace as it is now (or set workspace.detect_external_changes: false in the policy).",
    )
  })

  test("long file lists are shortened", () => {
    const files = Array.from({ length: 25 }, (_, i) => `f${String(i).padStart(2, "0")}`)
    const text = describeDiff({ changed: true, added: files, removed: [], modified: [] })
    expect(text).toBe(`added: ${files.slice(0, 10).join(", ")} and 15 more`)
  })
})
