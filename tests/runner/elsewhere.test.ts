// Resuming a run elsewhere (another host or CCODE_HOME on a shared store): only onto the workspace its
// last segment left — the same root, tracking, commit and file contents — and never after a crash there.
import { describe, expect, test } from "bun:test"
import type { Fingerprint } from "../../core/guards/index.ts"
import { elsewhereRefusal, isElsewhere, workspaceMark, type Segment } from "../../core/runner/elsewhere.ts"

const mark = (hash: string, size = 3) => ({ hash, size, mtimeMs: Date.now() })
const walk = (files: Record<string, ReturnType<typeof mark>>, extra: Partial<Fingerprint> = {}): Fingerprint => ({ kind: "walk", root: "/w", files, takenAt: 1, ...extra })
const left = (fp: Fingerprint): Segment => ({ host: "a", home: "/homes/a", workspace: workspaceMark(fp) })

describe("resume elsewhere", () => {
  test("the same files (other mtimes, as after a copy) are the same workspace", () => {
    const there = walk({ "src/a.ts": mark("h1"), "notes.txt": mark("h2") })
    const here = walk({ "notes.txt": { ...mark("h2"), mtimeMs: 5 }, "src/a.ts": { ...mark("h1"), mtimeMs: 9 } })
    expect(workspaceMark(there)).toEqual(workspaceMark(here))
    expect(elsewhereRefusal("r1", left(there), here)).toBeUndefined()
  })

  test("a changed, added or removed file is refused, naming the files when the old fingerprint can be read", () => {
    const there = walk({ "a.txt": mark("h1"), "b.txt": mark("h2") })
    const here = walk({ "a.txt": mark("CHANGED"), "c.txt": mark("h3") })
    const named = elsewhereRefusal("r1", left(there), here, there)!
    expect(named).toContain("cannot resume here")
    expect(named).toContain("host a, CCODE_HOME /homes/a")
    expect(named).toContain("modified: a.txt")
    expect(named).toContain("added: c.txt")
    expect(named).toContain("removed: b.txt")
    // without the old listing (kept under the other machine's CCODE_HOME): still refused, by count
    expect(elsewhereRefusal("r1", left(there), here)).toContain("the files differ (2 file(s) recorded there, 2 here)")
  })

  test("another commit, another root or another kind of tracking is refused", () => {
    const there = walk({}, { kind: "git", head: "abc123" })
    expect(elsewhereRefusal("r1", left(there), walk({}, { kind: "git", head: "def456" }))).toContain("commit abc123 there, def456 here")
    expect(elsewhereRefusal("r1", left(there), walk({}, { kind: "git", head: "abc123", root: "/other" }))).toContain("workspace /w there, /other here")
    expect(elsewhereRefusal("r1", left(there), walk({}))).toContain("is a git repository there, is not here")
  })

  test("a segment that never ended (a crash) resumes only where it ran", () => {
    expect(elsewhereRefusal("r1", { host: "a", home: "/homes/a" }, walk({}))).toContain("did not end cleanly")
  })

  test("elsewhere is another host or another CCODE_HOME; a run from before segments were kept is local", () => {
    const here = { host: "a", home: "/homes/a" }
    expect(isElsewhere(here, here)).toBe(false)
    expect(isElsewhere({ host: "b", home: "/homes/a" }, here)).toBe(true)
    expect(isElsewhere({ host: "a", home: "/homes/b" }, here)).toBe(true)
    expect(isElsewhere(undefined, here)).toBe(false)
  })
})
