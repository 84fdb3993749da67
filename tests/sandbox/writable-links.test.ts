// sandbox.writable entries re-resolved at every call: a step that plants a symlink at (or above) an
// entry must not get the link's target bound writable at the next call. Real bwrap processes.
import { afterAll, describe, expect, test } from "bun:test"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runSandbox, sandboxed } from "../../core/sandbox/session.ts"
import { grantedWritable, pinWritable } from "../../core/sandbox/writable.ts"
import type { SandboxPolicy } from "../../core/policy/types.ts"

const root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-sbx-writable-")))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const policy = (writable: string[]): SandboxPolicy => ({ mode: "auto", network: "none", writable, hidden: [], read_only: [], preview: false })

function setup(name: string, writable: string[]) {
  const ws = join(root, name, "ws")
  const victim = join(root, name, "victim")
  mkdirSync(ws, { recursive: true })
  mkdirSync(victim, { recursive: true })
  const box = runSandbox({ status: { mode: "auto", bwrap: "/usr/bin/bwrap", notes: [] }, policy: policy(writable), protectedGlobs: [".git/**"], workspace: ws, home: join(root, name, "home"), runDir: join(root, name, "run") })!
  // one call of the run, as a step runs it
  const step = (script: string) => {
    const { argv, env } = sandboxed(box, ["sh", "-c", script], { cwd: ws, env: { PATH: "/usr/bin:/bin" } })
    return Bun.spawnSync(argv, { cwd: ws, env, stderr: "pipe" }).exitCode
  }
  return { ws, victim, step }
}

describe("sandbox.writable through links a step planted", () => {
  test("writable: [.git] missing at the start, planted as a link to a host folder: the next call cannot write there", () => {
    const { victim, step } = setup("a", [".git"])
    expect(step(`ln -s ${victim} .git`)).toBe(0)
    expect(step("echo planted > .git/through-link")).not.toBe(0)
    expect(existsSync(join(victim, "through-link"))).toBe(false)
  })

  test("writable: [out/cache] that existed: its parent renamed and linked anew grants nothing", () => {
    const { ws, victim, step } = setup("b", ["out/cache"])
    mkdirSync(join(ws, "out", "cache"), { recursive: true })
    expect(step("echo fine > out/cache/ok")).toBe(0)
    expect(readFileSync(join(ws, "out", "cache", "ok"), "utf8")).toBe("fine\n")
    expect(step(`mv out out.old && mkdir out && ln -s ${victim} out/cache`)).toBe(0)
    expect(step("echo planted > out/cache/through-link")).not.toBe(0)
    expect(existsSync(join(victim, "through-link"))).toBe(false)
  })

  test("a real folder created later at the entry stays writable (the user's choice)", () => {
    const { ws, step } = setup("c", [".git"])
    expect(step("mkdir .git && echo ok > .git/f")).toBe(0)
    expect(step("echo again > .git/f")).toBe(0)
    expect(readFileSync(join(ws, ".git", "f"), "utf8")).toBe("again\n")
  })
})

describe("which writable entries a call gets", () => {
  test("an entry outside every writable root keeps its link when it leads where it led at the start", () => {
    const base = join(root, "pins")
    mkdirSync(join(base, "data", "cache"), { recursive: true })
    mkdirSync(join(base, "ws"), { recursive: true })
    Bun.spawnSync(["ln", "-s", join(base, "data"), join(base, "link")])
    const pins = pinWritable([join(base, "link", "cache"), join(base, "ws", "later")])
    expect(grantedWritable(pins, [join(base, "ws")])).toEqual([join(base, "data", "cache")])
    // retargeted after the start: no longer granted
    rmSync(join(base, "link"))
    mkdirSync(join(base, "other", "cache"), { recursive: true })
    Bun.spawnSync(["ln", "-s", join(base, "other"), join(base, "link")])
    mkdirSync(join(base, "ws", "later"))
    expect(grantedWritable(pins, [join(base, "ws")])).toEqual([join(base, "ws", "later")])
  })
})

describe("writable entries inside other writable entries", () => {
  test("writable: [data, data/cache] outside the workspace: cache re-linked inside the writable data grants nothing, even pinned anew", () => {
    const base = join(root, "nested")
    mkdirSync(join(base, "data", "cache"), { recursive: true })
    mkdirSync(join(base, "ws"), { recursive: true })
    mkdirSync(join(base, "victim"))
    const entries = [join(base, "data"), join(base, "data", "cache")]
    expect(grantedWritable(pinWritable(entries), [join(base, "ws")])).toEqual(entries)
    rmSync(join(base, "data", "cache"), { recursive: true })
    Bun.spawnSync(["ln", "-s", join(base, "victim"), join(base, "data", "cache")])
    // a resume pins the entries again, with the link already there
    expect(grantedWritable(pinWritable(entries), [join(base, "ws")])).toEqual([join(base, "data")])
  })
})
