// Which project a build runner started in the workspace uses when it looks up for it (real folders in a
// temp dir): a project file above the workspace is found, the workspace's own stops the search; and the
// shell analysis that makes such a build high.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { projectAbove } from "../../core/base/buildroot.ts"
import { analyzeShellSync, loadParser, type AnalyzeContext } from "../../core/shell/index.ts"
import { removeTree } from "../tmp.ts"

let root: string
let up: string
let ws: string
let own: string
const file = (path: string, text = "") => {
  mkdirSync(join(path, ".."), { recursive: true })
  writeFileSync(path, text)
}
beforeAll(async () => {
  await loadParser()
  root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-buildroot-")))
  up = join(root, "up")
  ws = join(up, "ws")
  own = join(up, "own")
  mkdirSync(join(ws, "src"), { recursive: true })
  file(join(up, "package.json"), '{"scripts":{"test":"touch /tmp/pwn"}}')
  file(join(up, "pytest.ini"), "[pytest]\n")
  file(join(up, "conftest.py"), "import os\n")
  file(join(up, "Cargo.toml"), "[workspace]\nmembers = ['ws']\n")
  file(join(up, ".cargo", "config.toml"), "[build]\nrustc-wrapper = '/tmp/x'\n")
  file(join(up, "go.work"), "go 1.22\n")
  file(join(up, "tsconfig.json"), "{}")
  // a workspace with its own project files
  file(join(own, "package.json"), "{}")
  file(join(own, "pyproject.toml"), "[tool.pytest.ini_options]\n")
  file(join(own, "tsconfig.json"), "{}")
  file(join(own, "go.mod"), "module x\n")
  // a workspace whose pyproject.toml has no pytest section: pytest goes on up
  file(join(up, "nosection", "pyproject.toml"), "[project]\nname = 'x'\n")
})
afterAll(() => removeTree(root))

describe("projectAbove", () => {
  test("a workspace without a project of its own: the runner takes the parent's", () => {
    expect(projectAbove("npm", join(ws, "src"), ws, "/nohome")).toBe(join(up, "package.json"))
    expect(projectAbove("yarn", ws, ws, "/nohome")).toBe(join(up, "package.json"))
    expect(projectAbove("pytest", ws, ws, "/nohome")).toBe(join(up, "pytest.ini"))
    expect(projectAbove("tsc", ws, ws, "/nohome")).toBe(join(up, "tsconfig.json"))
    expect(projectAbove("cargo", ws, ws, "/nohome")).toBe(join(up, "Cargo.toml"))
  })

  test("the workspace's own project stops the search", () => {
    expect(projectAbove("npm", own, own, "/nohome")).toBeUndefined()
    expect(projectAbove("pytest", own, own, "/nohome")).toBeUndefined()
    expect(projectAbove("tsc", own, own, "/nohome")).toBeUndefined()
  })

  test("files read from every folder up, and a pyproject.toml without the pytest section, do not stop it", () => {
    expect(projectAbove("go", own, own, "/nohome")).toBe(join(up, "go.work"))
    expect(projectAbove("pytest", join(up, "nosection"), join(up, "nosection"), "/nohome")).toBe(join(up, "pytest.ini"))
    // cargo looks for a [workspace] root and reads every .cargo/config.toml above the package
    file(join(own, "Cargo.toml"), "[package]\nname = 'x'\n")
    expect(projectAbove("cargo", own, own, "/nohome")).toBe(join(up, "Cargo.toml"))
  })

  test("the home's own ~/.cargo is the user's configuration", () => {
    expect(projectAbove("cargo", join(up, "nosection"), join(up, "nosection"), up)).toBe(join(up, "Cargo.toml"))
  })

  test("an earlier write in the command (loose): the workspace's markers may be gone, the parent's count", () => {
    expect(projectAbove("npm", own, own, "/nohome", true)).toBe(join(up, "package.json"))
  })

  test("eslint 8's .eslintrc cascades from above even past the workspace's own flat config; the home's own does not count", () => {
    file(join(up, ".eslintrc.json"), '{"plugins":["evil"]}')
    file(join(own, "eslint.config.js"), "export default []\n")
    expect(projectAbove("eslint", own, own, "/nohome")).toBe(join(up, ".eslintrc.json"))
    expect(projectAbove("eslint", own, own, up)).toBeUndefined()
  })

  test("a package.json above with \"workspaces\": npm runs a member's scripts in that root's context", () => {
    const mono = join(root, "mono")
    file(join(mono, "package.json"), '{"workspaces":["pkgs/*"]}')
    file(join(mono, "pkgs", "a", "package.json"), "{}")
    expect(projectAbove("npm", join(mono, "pkgs", "a"), join(mono, "pkgs", "a"), "/nohome")).toBe(join(mono, "package.json"))
    // a plain package.json above a workspace with its own does not count
    expect(projectAbove("npm", own, own, "/nohome")).toBeUndefined()
  })

  test("programs that do not look up", () => {
    expect(projectAbove("make", ws, ws, "/nohome")).toBeUndefined()
  })
})

describe("the analysis: a build that runs a project above the workspace is high", () => {
  const ctx = (workspace: string): AnalyzeContext => ({
    cwd: workspace, workspace, home: "/nohome", env: { HOME: "/nohome" },
    projectAbove: (program, dir, loose) => projectAbove(program, dir, workspace, "/nohome", loose),
  })
  for (const cmd of ["npm test", "npm run build", "pnpm test", "yarn test", "bun run build", "pytest -q", "python3 -m pytest", "cargo build", "go test ./...", "tsc --noEmit", "cd src && npm test"]) {
    test(cmd, () => {
      const a = analyzeShellSync(cmd, ctx(ws))
      expect(a.risk).toBe("high")
      expect(a.commands.some((c) => c.reasons.some((r) => r.includes("found above the workspace")))).toBe(true)
    })
  }
  for (const cmd of ["npm test", "pytest -q", "tsc --noEmit", "npm help", "make"]) {
    test(`${cmd} in a workspace with its own project stays low`, () => {
      const a = analyzeShellSync(cmd, ctx(own))
      expect(a.commands.some((c) => c.reasons.some((r) => r.includes("found above the workspace")))).toBe(false)
      expect(["safe", "low"]).toContain(a.risk)
    })
  }
  test("rm package.json && npm test: the workspace's own marker is gone when npm runs", () => {
    const a = analyzeShellSync("rm package.json && npm test", ctx(own))
    expect(a.commands.some((c) => c.reasons.some((r) => r.includes(`uses ${join(up, "package.json")}`)))).toBe(true)
  })
})
