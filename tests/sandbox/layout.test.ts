import { afterAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { sandboxLayout } from "../../core/sandbox/layout.ts"
import type { SandboxPolicy } from "../../core/policy/types.ts"

const root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-sbx-layout-")))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const ws = join(root, "ws")
const home = join(root, "home")
const tmp = join(root, "tmp")
for (const d of [ws, home, tmp, join(ws, ".git", "hooks"), join(ws, ".ccode"), join(home, ".ssh"), join(root, "secrets"), join(root, "cache")]) mkdirSync(d, { recursive: true })
writeFileSync(join(ws, ".git", "config"), "")
writeFileSync(join(home, ".netrc"), "machine x password y")
symlinkSync(join(root, "secrets"), join(home, ".aws"))

const policy = (over: Partial<SandboxPolicy> = {}): SandboxPolicy => ({ mode: "auto", network: "none", writable: [], hidden: [], read_only: [], preview: false, ...over })
const build = (p = policy(), protectedGlobs = [".git/**", ".ccode/**"]) =>
  sandboxLayout({ bwrap: "/usr/bin/bwrap", policy: p, protectedGlobs, workspace: ws, tmpDir: tmp, cwd: ws, home })

describe("the sandbox layout of a call", () => {
  test("the workspace and the run's temp dir are writable", () => {
    expect(build().writable).toEqual([ws, tmp])
  })

  test("existing credentials are hidden, through symlinks, and missing ones are skipped", () => {
    const hidden = build().hidden
    expect(hidden).toContainEqual({ path: join(home, ".ssh"), dir: true })
    expect(hidden).toContainEqual({ path: join(home, ".netrc"), dir: false })
    expect(hidden).toContainEqual({ path: join(root, "secrets"), dir: true })
    expect(hidden.some((h) => h.path.endsWith(".kube"))).toBe(false)
  })

  test("agent and git configuration inside the workspace stays read-only, with the protected globs", () => {
    const ro = build().readOnly
    expect(ro).toContain(join(ws, ".git", "hooks"))
    expect(ro).toContain(join(ws, ".git", "config"))
    expect(ro).toContain(join(ws, ".ccode"))
    expect(ro).toContain(join(ws, ".git"))
  })

  test("a protected path the policy makes writable is writable, but hooks and config stay read-only", () => {
    const l = build(policy({ writable: [".git"] }))
    expect(l.writable).toContain(join(ws, ".git"))
    expect(l.readOnly).not.toContain(join(ws, ".git"))
    expect(l.readOnly).toContain(join(ws, ".git", "hooks"))
  })

  test("policy paths: ~ and workspace-relative; read-only paths outside writable roots are left to the read-only root", () => {
    const l = build(policy({ writable: ["~/../cache"], hidden: ["../secrets"], read_only: [home] }))
    expect(l.writable).toContain(join(root, "cache"))
    expect(l.hidden.map((h) => h.path)).toContain(join(root, "secrets"))
    expect(l.readOnly).not.toContain(home)
  })

  test("a host allowlist is enforced as no network", () => {
    expect(build(policy({ network: ["example.com"] })).network).toBe("none")
    expect(build(policy({ network: "allow" })).network).toBe("allow")
  })
})

test("the folders between the workspace and a read-only path are pinned, so it cannot be renamed away", () => {
  const l = build(policy({ writable: [".git"] }))
  expect(l.pinned).toEqual([])
  expect(l.readOnly).toContain(join(ws, ".git", "hooks"))
  // .git is writable itself here (a root of its own), so nothing between it and hooks needs pinning
  const deep = sandboxLayout({ bwrap: "/usr/bin/bwrap", policy: policy(), protectedGlobs: [], workspace: ws, tmpDir: tmp, cwd: ws, home })
  expect(deep.pinned).toEqual([join(ws, ".git")])
})

test("agent and daemon sockets the command could connect to are hidden (a read-only mount does not stop connect)", () => {
  const agent = join(root, "agent.sock")
  const server = Bun.listen({ unix: agent, socket: { data() {} } })
  try {
    const l = sandboxLayout({ bwrap: "/usr/bin/bwrap", policy: policy(), protectedGlobs: [], workspace: ws, tmpDir: tmp, cwd: ws, home, env: { SSH_AUTH_SOCK: agent } })
    expect(l.hidden).toContainEqual({ path: agent, dir: false })
  } finally {
    server.stop(true)
  }
})

test("a hidden path never covers the workspace or the temp dir", () => {
  const l = build(policy({ hidden: [root] }))
  expect(l.hidden.map((h) => h.path)).not.toContain(root)
})
