// A host tool's path through a process's own descriptors or /proc entry (Read /dev/fd/9/x,
// /proc/self/cwd/x) leads where the HOST's process stands: ccode never resolves it in its own process
// (its stdin or stderr says nothing), and judges it not known; /proc/self/root/X is X.
import { describe, expect, test } from "bun:test"
import { realpathExisting, realpathKnown, ownProcessPath } from "../../core/base/paths.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"

const WS = "/work/repo"
const HOME = "/home/dev"

async function read(path: string) {
  const call = await prepareCall("read_file", { path }, { cwd: WS, workspace: WS, home: HOME, tmpDirs: ["/tmp"], toolRisk: "safe" })
  return decide(bundledPolicy("default"), call, { grants: [] })
}

describe("paths through a process's own descriptors", () => {
  test("are never resolved in ccode's process, in any spelling", () => {
    for (const p of ["/dev/fd/0", "/dev/fd//0/x", "/dev/./fd/3", "/dev/stdin", "/dev/stderr", "/proc/self/fd/1", "/proc/thread-self/cwd", "//proc/self/root/etc"]) {
      expect(ownProcessPath(p)).toBe(true)
      expect(realpathExisting(p).startsWith(`/proc/${process.pid}`)).toBe(false)
    }
    for (const p of ["/dev/null", "/proc/1/environ", "/home/dev/fd", "/devices/fd/0"]) expect(ownProcessPath(p)).toBe(false)
  })

  test("a host's read below a descriptor or its cwd is medium; through its root it is the path itself", async () => {
    for (const path of ["/dev/fd/9/notes", "/proc/self/cwd/notes", "/dev/stdin/x"]) {
      const d = await read(path)
      expect({ path, decision: d.decision, risk: d.risk }).toEqual({ path, decision: "ask", risk: "medium" })
      expect(d.reason).toContain("own descriptors or /proc entry")
    }
    // another process's open file (its own included) is a credential read
    const fd = await read("/proc/thread-self/fd/3")
    expect([fd.decision, fd.risk]).toEqual(["ask", "high"])
    const root = await read("/proc/self/root/home/dev/.aws/credentials")
    expect([root.decision, root.risk]).toEqual(["ask", "critical"])
    expect(root.reason).toContain("/home/dev/.aws/credentials")
  })

  test("a path the disk will not resolve is not known, not missing", () => {
    const long = `/tmp/${"a/".repeat(2100)}l/../x`
    const r = realpathKnown(long)
    expect(r.unknown).toBe("ENAMETOOLONG")
    expect(realpathKnown("/tmp/surely-missing-dir/x").unknown).toBeUndefined()
  })
})

describe("a host tool's `..` after a link", () => {
  test("is judged both where the kernel goes and where a lexical resolver (Gemini's path.resolve) goes", async () => {
    const { mkdtempSync, mkdirSync, symlinkSync, rmSync, realpathSync, writeFileSync } = await import("node:fs")
    const { tmpdir } = await import("node:os")
    const { join } = await import("node:path")
    const home = realpathSync(mkdtempSync(join(tmpdir(), "ccode-lexical-")))
    try {
      mkdirSync(join(home, "a", "b"), { recursive: true })
      // .psql_history: a credential only in the home (a name rule would hit a/.netrc too)
      writeFileSync(join(home, ".psql_history"), "*:*:*:*:FAKE\n")
      symlinkSync(join(home, "a", "b"), join(home, "x"))
      // Gemini started in the home folder: the workspace is the home
      const call = await prepareCall("read_file", { path: "x/../.psql_history" }, { cwd: home, workspace: home, home, tmpDirs: ["/tmp"], toolRisk: "safe" })
      expect(call.paths.map((p) => p.path)).toContain(join(home, ".psql_history"))
      expect(call.paths.map((p) => p.path)).toContain(join(home, "a", ".psql_history"))
      const d = decide(bundledPolicy("default"), call, { grants: [] })
      expect([d.decision, d.risk]).toEqual(["ask", "high"])
      expect(d.reason).toContain(`${home}/.psql_history`)
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  })
})
