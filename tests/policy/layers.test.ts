// Which .ccode/ folders give workspace layers, and how an outer layer's path patterns keep their root.
import { afterAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { anchorLayer, type Layer } from "../../core/policy/layer.ts"
import { workspaceLayerRoots } from "../../core/policy/workspace.ts"

const root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-layers-")))
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe("workspace layer roots", () => {
  test("every .ccode/ from the git root down to cwd, outermost first; nothing above the git root", () => {
    const repo = join(root, "outer", "repo")
    for (const dir of [join(root, "outer", ".ccode"), join(repo, ".git"), join(repo, ".ccode"), join(repo, "a", ".ccode"), join(repo, "a", "b", "c")]) mkdirSync(dir, { recursive: true })
    expect(workspaceLayerRoots(join(repo, "a", "b", "c"))).toEqual([repo, join(repo, "a")])
    expect(workspaceLayerRoots(repo)).toEqual([repo])
    // a .git planted in a subfolder (or a submodule) does not hide the repository's layer
    mkdirSync(join(repo, "a", ".git"), { recursive: true })
    expect(workspaceLayerRoots(join(repo, "a", "b", "c"))).toEqual([repo, join(repo, "a")])
  })

  test("a repository without .ccode/ uses the first one above it; outside git, every one up to /", () => {
    const repo = join(root, "plain", "repo")
    mkdirSync(join(repo, ".git"), { recursive: true })
    mkdirSync(join(root, "plain", ".ccode"), { recursive: true })
    expect(workspaceLayerRoots(repo)).toEqual([join(root, "plain")])
    const nogit = join(root, "nogit", "x", "y")
    mkdirSync(join(root, "nogit", ".ccode"), { recursive: true })
    mkdirSync(join(nogit, ".ccode"), { recursive: true })
    expect(workspaceLayerRoots(nogit).filter((d) => d.startsWith(root))).toEqual([join(root, "nogit"), nogit])
  })
})

test("an outer layer's relative path patterns are anchored at its own root; names, absolute and ~ stay", () => {
  const layer: Layer = {
    name: "workspace", label: "x", trusted: true, at: {},
    value: {
      rules: [{ path: ["prod/**", ".env*", "/etc/**", "./infra/*"], decision: "deny" }, { tool: "shell", decision: "ask" }],
      risk: { paths: [{ path: "secrets/*", level: "high" }] },
      workspace: { protected: [".git/**", "~/x/y"] },
    },
  }
  const anchored = anchorLayer(layer, "/repo").value
  expect(anchored.rules![0]!.path).toEqual(["/repo/prod/**", ".env*", "/etc/**", "/repo/infra/*"])
  expect(anchored.rules![1]).toEqual({ tool: "shell", decision: "ask" })
  expect(anchored.risk!.paths).toEqual([{ path: "/repo/secrets/*", level: "high" }])
  expect(anchored.workspace!.protected).toEqual(["/repo/.git/**", "~/x/y"])
})
