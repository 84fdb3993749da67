import { describe, expect, test } from "bun:test"
import { judgeSize, sizeLimits } from "../../core/runner/size-guard.ts"
import type { Fingerprint } from "../../core/guards/index.ts"

const MB = 1024 * 1024
const walk = (sizes: Record<string, number>): Fingerprint => ({
  kind: "walk", root: "/ws", takenAt: 0,
  files: Object.fromEntries(Object.entries(sizes).map(([p, size]) => [p, { hash: "h", size, mtimeMs: 0 }])),
})

describe("snapshot limits for plain folders", () => {
  test("defaults: 200,000 files, 50 MB a file; the environment raises them; nonsense is ignored", () => {
    expect(sizeLimits({})).toEqual({ maxFiles: 200_000, maxFileBytes: 50 * MB })
    expect(sizeLimits({ CCODE_SNAPSHOT_MAX_FILES: "500000", CCODE_SNAPSHOT_MAX_FILE_MB: "200" })).toEqual({ maxFiles: 500_000, maxFileBytes: 200 * MB })
    expect(sizeLimits({ CCODE_SNAPSHOT_MAX_FILES: "lots", CCODE_SNAPSHOT_MAX_FILE_MB: "-1" })).toEqual({ maxFiles: 200_000, maxFileBytes: 50 * MB })
  })

  test("files over the size are left out and named; a folder over the count gets no snapshots, and says how to change that", () => {
    const limits = { maxFiles: 3, maxFileBytes: 10 * MB }
    const some = judgeSize(walk({ "a.txt": 10, "video.mp4": 11 * MB, "data/dump.sql": 20 * MB }), limits)
    expect(some.leaveOut).toEqual(["/ws/data/dump.sql", "/ws/video.mp4"])
    expect(some.warning).toContain("2 file(s) over 10 MB (data/dump.sql, video.mp4)")
    const many = judgeSize(walk({ a: 1, b: 1, c: 1, d: 1 }), limits)
    expect(many.refuse).toContain("4 files, over the snapshot limit of 3 (raise it with CCODE_SNAPSHOT_MAX_FILES)")
    expect(many.leaveOut).toEqual([])
  })

  test("a git work tree is not judged: git's own ignore rules say what matters there", () => {
    expect(judgeSize({ kind: "git", root: "/ws", takenAt: 0, files: { big: { hash: "h", size: 999 * MB, mtimeMs: 0 } } }, { maxFiles: 0, maxFileBytes: 1 })).toEqual({ leaveOut: [] })
  })
})
