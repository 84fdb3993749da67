// A tool's declaration (effects, paths) is what the policy and confinement judge; undeclared tools
// are judged by argument names, and dangling symlinks by their target.
import { afterAll, describe, expect, test } from "bun:test"
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { prepareCall } from "../../core/policy/prepare.ts"
import { mcpDeclaration } from "../../core/mcp/tool.ts"
import { declaredPaths, isPathName, isReadOnly } from "../../core/tools/declare.ts"
import { realpathExisting } from "../../core/base/paths.ts"
import { resolveToolPath } from "../../core/tools/paths.ts"
import { createRegistry } from "../../core/tools/registry.ts"

const dir = realpathSync(mkdtempSync(join(tmpdir(), "ccode-declare-")))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("declarations", () => {
  test("built-ins: only the reading tools are read-only; listing tools default to the cwd", () => {
    const registry = createRegistry()
    const readOnly = [...registry.values()].filter((r) => isReadOnly(r.tool)).map((r) => r.tool.name).sort()
    expect(readOnly).toEqual(["glob", "grep", "list_dir", "read_file"])
    expect(declaredPaths(registry.get("glob")!.tool, { pattern: "*" })).toEqual([{ path: ".", access: "read", dir: true }])
    expect(declaredPaths(registry.get("write_file")!.tool, { path: "a", content: "" })).toEqual([{ path: "a", access: "write" }])
    expect(declaredPaths(registry.get("shell")!.tool, { command: "cat x > y" })).toEqual([])
  })

  test("an undeclared tool is never read-only, and its path-named arguments are written paths", () => {
    expect(isReadOnly({})).toBe(false)
    expect(["path", "file_path", "filePath", "output-dir", "dest", "files", "targetFile"].filter(isPathName)).toHaveLength(7)
    expect(["url", "pathology", "name", "message", "profile", "sql"].filter(isPathName)).toEqual([])
    expect(declaredPaths({}, { target_path: "prod/x", url: "https://x", files: ["a", 3, "b"] })).toEqual([
      { path: "prod/x", access: "write" }, { path: "a", access: "write" }, { path: "b", access: "write" },
    ])
    expect(declaredPaths({ effects: ["read"] }, { path: "p" })).toEqual([{ path: "p", access: "read" }])
    expect(declaredPaths({ paths: [] }, { path: "p" })).toEqual([])
  })

  test("MCP: read-only annotation reads, others write; the schema can opt an argument out or in", () => {
    const decl = mcpDeclaration({
      name: "t",
      inputSchema: { type: "object", properties: { file_path: { type: "string" }, count: { type: "number" }, dir: { type: "string", "x-ccode-path": false }, db: { type: "string", "x-ccode-path": "write" } } },
    })
    expect(isReadOnly(decl)).toBe(false)
    expect(declaredPaths(decl, { file_path: "a", dir: "b", db: "c", count: 1 })).toEqual([{ path: "c", access: "write" }, { path: "a", access: "write" }])
    // a path nested in an object argument is found too
    expect(declaredPaths(decl, { options: { output_file: "prod/x.db", list: [{ path: "q" }] } })).toEqual([
      { path: "prod/x.db", access: "write" }, { path: "q", access: "write" },
    ])
    const ro = mcpDeclaration({ name: "r", annotations: { readOnlyHint: true, openWorldHint: false }, inputSchema: { type: "object", properties: { path: { type: "string" } } } })
    expect(ro.effects).toEqual(["read"])
    expect(isReadOnly(ro)).toBe(true)
    expect(declaredPaths(ro, { path: "x" })).toEqual([{ path: "x", access: "read" }])
  })

  test("prepareCall judges a plugin's declared paths; a paths function that throws makes the call critical", async () => {
    const ctx = { cwd: dir, workspace: dir, home: "/home/u", realpath: (p: string) => p, tmpDirs: [] }
    const call = await prepareCall("db_write", { db: "prod/x.db" }, { ...ctx, declaration: { paths: [{ arg: "db", access: "write" }] } })
    expect(call.paths).toEqual([{ path: join(dir, "prod/x.db"), access: "write" }])
    const broken = await prepareCall("t", { a: 1 }, { ...ctx, declaration: { paths: () => { throw new Error("no") } } })
    expect(broken.toolRisk).toBe("critical")
  })
})

describe("dangling symlinks resolve to their target", () => {
  test("a link to a missing file outside, a link to a missing folder, and a loop", () => {
    symlinkSync(join(dir, "outside", "new"), join(dir, "x"))
    expect(realpathExisting(join(dir, "x"))).toBe(join(dir, "outside", "new"))
    symlinkSync("/nonexistent-ccode/dir", join(dir, "d"))
    expect(realpathExisting(join(dir, "d", "f"))).toBe("/nonexistent-ccode/dir/f")
    symlinkSync(join(dir, "loop2"), join(dir, "loop1"))
    symlinkSync(join(dir, "loop1"), join(dir, "loop2"))
    expect(typeof realpathExisting(join(dir, "loop1"))).toBe("string")
    const ws = join(dir, "ws")
    expect(() => resolveToolPath("../d/f", ws, ws, true)).toThrow("outside the workspace")
  })
})
