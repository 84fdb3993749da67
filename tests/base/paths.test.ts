// The shared path vocabulary, and every security check built on isInside read with the argument order
// it means: a swapped argument would turn "inside the workspace" into "the workspace is inside it".
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs"
import { homedir, tmpdir } from "node:os"
import { join } from "node:path"
import { expandHome, isInside, realpathExisting, realpathOr } from "../../core/base/paths.ts"
import { assessRisk } from "../../core/policy/assess.ts"
import { compilePolicy } from "../../core/policy/compile.ts"
import { analyzeShellSync, loadParser, type AnalyzeContext } from "../../core/shell/index.ts"
import { blockedBySandbox } from "../../core/sandbox/blocked.ts"
import { expandPath } from "../../core/sandbox/layout.ts"
import type { SandboxLayout } from "../../core/sandbox/types.ts"
import { resolveToolPath } from "../../core/tools/paths.ts"
import { removeTree } from "../tmp.ts"
import { policyOf, toolCall } from "../policy/helpers.ts"

let dir: string
beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "ccode-base-paths-")))
  await loadParser()
})
afterAll(() => removeTree(dir))

describe("isInside(parent, child)", () => {
  test("the parent itself and paths below it are inside; a sibling sharing the prefix is not", () => {
    expect(isInside("/work/repo", "/work/repo")).toBe(true)
    expect(isInside("/work/repo", "/work/repo/a/b")).toBe(true)
    expect(isInside("/work/repo", "/work/repo2/a")).toBe(false)
    expect(isInside("/work/repo", "/work")).toBe(false)
    expect(isInside("/work/repo/", "/work/repo/a")).toBe(true)
  })

  test("an empty or relative parent contains nothing (an unset home or workspace never makes every path inside)", () => {
    expect(isInside("", "/etc/passwd")).toBe(false)
    expect(isInside("", "")).toBe(false)
    expect(isInside("work", "work/a")).toBe(false)
  })

  test("the root contains every absolute path", () => {
    expect(isInside("/", "/etc/passwd")).toBe(true)
    expect(isInside("/", "/")).toBe(true)
  })
})

describe("expandHome", () => {
  test("~ and ~/x are under the home given; ~user and other paths stay as written", () => {
    expect(expandHome("~", "/home/dev")).toBe("/home/dev")
    expect(expandHome("~/.ssh/id", "/home/dev")).toBe("/home/dev/.ssh/id")
    expect(expandHome("~root/.ssh", "/home/dev")).toBe("~root/.ssh")
    expect(expandHome("/etc/~/x", "/home/dev")).toBe("/etc/~/x")
    expect(expandHome("a~/x", "/home/dev")).toBe("a~/x")
  })

  test("a file tool expands ~ with the same home the policy decided with (os.homedir, not a missing $HOME)", async () => {
    // with HOME unset, os.homedir() falls back to the passwd entry; a tool that used "/" instead
    // would write /x after the policy approved ~/x
    const proc = Bun.spawn(["bun", "-e", `
      const { resolveToolPath } = await import(${JSON.stringify(join(import.meta.dir, "../../core/tools/paths.ts"))})
      const { homedir } = await import("node:os")
      console.log(JSON.stringify([resolveToolPath("~/ccode-x", "/", "/", false), homedir()]))`], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, stdout: "pipe", stderr: "pipe",
    })
    const [resolved, home] = JSON.parse(await new Response(proc.stdout).text()) as [string, string]
    expect(await proc.exited).toBe(0)
    expect(home).not.toBe("/")
    expect(resolved).toBe(join(realpathOr(home), "ccode-x"))
    expect(resolveToolPath("~/ccode-x", "/", "/", false)).toBe(join(realpathOr(homedir()), "ccode-x"))
  })
})

describe("realpathExisting / realpathOr", () => {
  test("a missing tail is appended to the real path of what exists; a dangling link is followed", () => {
    mkdirSync(join(dir, "real"))
    symlinkSync(join(dir, "real"), join(dir, "link"))
    symlinkSync(join(dir, "real", "target"), join(dir, "dangling"))
    expect(realpathExisting(join(dir, "link", "new", "file"))).toBe(join(dir, "real", "new", "file"))
    expect(realpathExisting(join(dir, "dangling"))).toBe(join(dir, "real", "target"))
    expect(realpathExisting("relative/path")).toBe("relative/path")
    expect(realpathOr(join(dir, "link"))).toBe(join(dir, "real"))
    expect(realpathOr(join(dir, "missing"))).toBe(join(dir, "missing"))
  })
})

describe("realpathExisting resolves .. on disk, as the kernel does", () => {
  test("docs -> secrets: docs/.. is the parent of secrets, for a file that exists, one that does not, and a dangling link's target", () => {
    const base = join(dir, "physical")
    mkdirSync(join(base, "ws"), { recursive: true })
    mkdirSync(join(base, "home", ".aws"), { recursive: true })
    writeFileSync(join(base, "home", ".aws", "credentials"), "x")
    symlinkSync(join(base, "home", ".aws"), join(base, "ws", "docs"))
    symlinkSync("../.bashrc", join(base, "home", ".aws", "dangling"))
    expect(realpathExisting(join(base, "ws") + "/docs/../.aws/credentials")).toBe(join(base, "home", ".aws", "credentials"))
    expect(realpathExisting(join(base, "ws") + "/docs/../.aws/new")).toBe(join(base, "home", ".aws", "new"))
    expect(realpathExisting(join(base, "ws") + "/docs/dangling")).toBe(join(base, "home", ".bashrc"))
    expect(realpathOr(join(base, "ws") + "/docs/..")).toBe(join(base, "home"))
  })
})

describe("every caller of isInside keeps its meaning", () => {
  test("policy: a write to a sibling folder sharing the workspace's prefix is outside the workspace", async () => {
    const policy = await policyOf("")
    const cp = compilePolicy(policy)
    const reasons = async (path: string) => assessRisk(cp, await toolCall("write_file", { path, content: "" })).reasons.join(" ")
    expect(await reasons("/work/repo/a.txt")).not.toContain("outside the workspace")
    expect(await reasons("/work/repo2/a.txt")).toContain("writes outside the workspace: /work/repo2/a.txt")
    expect(await reasons("/tmp/x")).not.toContain("outside the workspace")
    expect(await reasons("/tmpx/y")).toContain("writes outside the workspace: /tmpx/y")
  })

  test("shell: rm in a sibling folder is outside; rm of the workspace's parent is an ancestor", () => {
    const ctx: AnalyzeContext = { cwd: "/work/repo", workspace: "/work/repo", home: "/home/dev", env: { HOME: "/home/dev", PATH: "/usr/bin:/bin" } }
    const a = (cmd: string) => analyzeShellSync(cmd, ctx)
    expect(a("rm -f /work/repo2/x").commands[0]!.reasons.join(" ")).toContain("outside the workspace")
    expect(a("rm -f /work/repo/x").commands[0]!.reasons.join(" ")).not.toContain("outside the workspace")
    expect(a("rm -rf /work").commands[0]!.reasons.join(" ")).toContain("an ancestor of the workspace")
    expect(a("rm -rf /home").commands[0]!.reasons.join(" ")).toContain("an ancestor of the home directory")
    expect(a("echo x > /etc/hosts").risk).toBe("critical")
    expect(a("echo x > /etcx").commands[0]!.reasons.join(" ")).not.toContain("system file")
    expect(a("echo x > /home/dev/.bashrc").risk).toBe("critical")
  })

  test("file tools: a sibling folder with the workspace's name as prefix is refused", () => {
    const ws = join(dir, "ws")
    mkdirSync(ws)
    mkdirSync(join(dir, "ws2"))
    expect(resolveToolPath("a.txt", ws, ws, true)).toBe(join(ws, "a.txt"))
    expect(() => resolveToolPath("../ws2/a.txt", ws, ws, true)).toThrow("outside the workspace")
    expect(() => resolveToolPath(dir, ws, ws, true)).toThrow("outside the workspace")
  })

  test("sandbox: writes under a writable root are not blamed on the sandbox, a sibling's are; ~ paths expand", () => {
    const layout: SandboxLayout = { bwrap: "/usr/bin/bwrap", cwd: "/w", writable: ["/w"], readOnly: ["/w/ro"], pinned: [], hidden: [], network: "none" }
    expect(blockedBySandbox("touch: cannot touch '/w2/x': Read-only file system", layout, "/home/u")?.what).toBe("write to /w2/x")
    expect(blockedBySandbox("touch: cannot touch '/w/ro/x': Read-only file system", layout, "/home/u")?.what).toBe("write to /w/ro/x")
    expect(blockedBySandbox("touch: cannot touch '/w/x': Read-only file system", layout, "/home/u")).toBeUndefined()
    expect(blockedBySandbox("bash: /home/u/.bashrc: Read-only file system", layout, "/home/u")?.what).toBe("write to ~/.bashrc")
    expect(expandPath("~/.cache", "/home/u", "/w")).toBe("/home/u/.cache")
    expect(expandPath("build", "/home/u", "/w")).toBe("/w/build")
  })
})
