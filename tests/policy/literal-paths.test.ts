// A host tool's path is checked as written as well as brace-expanded: Claude's Read/Grep/LS and Gemini's
// read_file/grep_search/list_directory open `d{x,y}/.netrc` literally (a repository may ship an entry of
// that name), while Glob and read_many_files expand braces. Real files and symlinks in a temp folder.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { removeTree } from "../tmp.ts"

let root: string, ws: string, home: string
const policy = bundledPolicy("default")

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-literal-")))
  ws = join(root, "ws")
  home = join(root, "home")
  mkdirSync(ws)
  mkdirSync(join(ws, "src"))
  mkdirSync(home)
  writeFileSync(join(home, ".netrc"), "machine x login y password FAKESECRET\n")
  writeFileSync(join(ws, "src", "a.ts"), "export {}\n")
  symlinkSync(home, join(ws, "d{x,y}"))
  symlinkSync(join(home, ".netrc"), join(ws, "{a,b}"))
})

afterAll(() => removeTree(root))

async function decided(tool: string, args: Record<string, unknown>) {
  const call = await prepareCall(tool, args, { cwd: ws, workspace: ws, home, tmpDirs: ["/nonexistent-tmp"] })
  return decide(policy, call, { grants: [] })
}

describe("host tool paths with braces", () => {
  test("read_file of a link named d{x,y} into the home folder asks and names the secret", async () => {
    const d = await decided("read_file", { path: "d{x,y}/.netrc" })
    expect(d.decision).toBe("ask")
    expect(d.reason).toContain(".netrc")
  })

  test("read_file of a link named {a,b} to the secret asks", async () => {
    const d = await decided("read_file", { path: "{a,b}" })
    expect(d.decision).toBe("ask")
    expect(d.reason).toContain(".netrc")
  })

  test("an absolute path through the link asks too", async () => {
    const d = await decided("read_file", { path: join(ws, "d{x,y}", ".netrc") })
    expect(d.decision).toBe("ask")
  })

  test("grep over the link named d{x,y} searches the home folder's credentials: asks", async () => {
    const d = await decided("grep", { pattern: "password", path: "d{x,y}" })
    expect(d.decision).toBe("ask")
    expect(d.reason).toContain("risk.paths")
  })

  test("the expansions are still checked (a glob-taking tool expands them)", async () => {
    const d = await decided("read_file", { path: `${home}/.{netrc,x}` })
    expect(d.decision).toBe("ask")
    expect(d.reason).toContain(".netrc")
  })

  test("a brace pattern with more expansions than are followed asks and says so", async () => {
    const d = await decided("read_file", { path: "/{a..z}{a..z}ot/x" })
    expect(d.decision).toBe("ask")
    expect(d.reason).toContain("brace expansion ccode does not follow (more than 64 paths")
  })

  test("everyday paths with and without braces stay allowed", async () => {
    for (const path of ["src/a.ts", "src/{a,b}.ts", "src/*.ts"]) {
      const d = await decided("read_file", { path })
      expect({ path, decision: d.decision }).toEqual({ path, decision: "allow" })
    }
  })
})
