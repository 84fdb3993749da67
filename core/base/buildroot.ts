// Build and test runners find their project by looking UP from where they start: npm/pnpm/yarn/bun the
// nearest package.json, pytest its rootdir (pytest.ini, or a pyproject.toml/tox.ini/setup.cfg with its
// section) and every conftest.py on the way, cargo the nearest Cargo.toml and a [workspace] root above
// it plus every .cargo/config.toml, go the nearest go.mod and go.work, tsc the nearest tsconfig.json...
// A workspace that is a folder of a bigger project (a monorepo package, a folder of a clone) then runs
// the parent's scripts, conftest.py or build.rs: code that was never in the workspace. This finds the
// first such file above the workspace a runner started in `dir` would use. Reads the fs, never writes.
import { closeSync, readSync, statSync } from "node:fs"
import { openRegular } from "./readsafe.ts"
import { dirname, join } from "node:path"
import { isInside } from "./paths.ts"

/** A file that marks the project: `section` when it counts only if it holds that text. */
interface Marker {
  name: string
  section?: string
}

interface Spec {
  /** walked up from the start: the first folder with a marker that counts is the project (the walk
   *  stops there); a marker that does not count (conftest.py, a Cargo.toml without [workspace] above
   *  the package) is still used, and the walk goes on */
  project: (Marker | string)[]
  /** files read from EVERY folder up to the root (cargo's .cargo/config.toml, yarn's .yarnrc.yml, a
   *  package.json with "workspaces": npm then runs in that root's context, its .npmrc included) */
  every?: (Marker | string)[]
}

const WORKSPACE_ROOT: Marker = { name: "package.json", section: "\"workspaces\"" }
const PACKAGE: Spec = { project: ["package.json", "node_modules"], every: [WORKSPACE_ROOT] }
const PYTEST: Spec = {
  project: ["pytest.ini", ".pytest.ini", { name: "pyproject.toml", section: "[tool.pytest" }, { name: "tox.ini", section: "[pytest]" }, { name: "setup.cfg", section: "[tool:pytest]" }, { name: "conftest.py", section: "\0" }],
}
const ESLINT = ["eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts", "eslint.config.mts", "eslint.config.cts"]
const PRETTIER = [
  ".prettierrc", ".prettierrc.json", ".prettierrc.json5", ".prettierrc.yaml", ".prettierrc.yml", ".prettierrc.toml", ".prettierrc.js", ".prettierrc.cjs", ".prettierrc.mjs", ".prettierrc.ts",
  "prettier.config.js", "prettier.config.cjs", "prettier.config.mjs", "prettier.config.ts", { name: "package.json", section: "\"prettier\"" },
]
const JEST = ["package.json", "jest.config.js", "jest.config.ts", "jest.config.mjs", "jest.config.cjs", "jest.config.json"]

let specs: Map<string, Spec> | undefined

// built on first use: a hook process that decides one `ls` never needs it
function specFor(program: string): Spec | undefined {
  specs ??= new Map<string, Spec>([
    ["npm", PACKAGE], ["pnpm", { project: ["package.json", "node_modules"], every: ["pnpm-workspace.yaml", WORKSPACE_ROOT] }], ["bun", PACKAGE],
    ["yarn", { project: ["package.json"], every: [".yarnrc.yml", ".yarnrc", WORKSPACE_ROOT] }],
    ["deno", { project: ["deno.json", "deno.jsonc", "package.json"] }],
    ["pytest", PYTEST], ["py.test", PYTEST],
    ["cargo", { project: [{ name: "Cargo.toml", section: "\0" }], every: [".cargo/config.toml", ".cargo/config"] }],
    ["go", { project: ["go.mod"], every: ["go.work"] }],
    ["tsc", { project: ["tsconfig.json"] }],
    ["just", { project: ["justfile", "Justfile", ".justfile"] }],
    ["tox", { project: ["tox.ini", { name: "pyproject.toml", section: "[tool.tox" }, { name: "setup.cfg", section: "[tox:tox]" }] }],
    ["mypy", { project: ["mypy.ini", ".mypy.ini", { name: "pyproject.toml", section: "[tool.mypy" }, { name: "setup.cfg", section: "[mypy" }] }],
    ["gradle", { project: ["settings.gradle", "settings.gradle.kts"] }],
    ["gradlew", { project: ["settings.gradle", "settings.gradle.kts"] }],
    ["mvn", { project: [".mvn"] }],
    // MSBuild imports the Directory.Build.* files found up the tree; global.json picks the SDK (msbuild-sdks are downloaded packages)
    ["dotnet", { project: [], every: ["Directory.Build.props", "Directory.Build.targets", "Directory.Packages.props", "Directory.Build.rsp", "global.json"] }],
    ["jest", { project: JEST }],
    // eslint 8's .eslintrc files cascade from every folder up (their plugins are modules it loads)
    ["eslint", { project: ESLINT, every: [".eslintrc.js", ".eslintrc.cjs", ".eslintrc.yaml", ".eslintrc.yml", ".eslintrc.json", ".eslintrc"] }],
    ["mocha", { project: [".mocharc.js", ".mocharc.cjs", ".mocharc.mjs", ".mocharc.yaml", ".mocharc.yml", ".mocharc.jsonc", ".mocharc.json"] }],
    // a custom linter in the config is a plugin (.so) golangci-lint loads
    ["golangci-lint", { project: [".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"] }],
    ["prettier", { project: PRETTIER }],
    ["nx", { project: ["nx.json"] }],
    ["turbo", { project: ["turbo.json"] }],
    ["bazel", { project: ["MODULE.bazel", "WORKSPACE", "WORKSPACE.bazel", "REPO.bazel"] }],
  ])
  return specs.get(program)
}

/** The programs judged here (a `python -m X` is X). */
export function looksUp(program: string): boolean {
  return specFor(program) !== undefined
}

/**
 * The first project file above `workspace` that `program` started in `dir` would use; undefined when
 * its project is the workspace's own (or it finds none). `loose`: an earlier part of the command writes
 * files, so a marker inside the workspace may be gone when it runs: it does not stop the walk.
 * The files read from every folder are the user's own configuration in `home` itself (~/.cargo/config.toml).
 */
export function projectAbove(program: string, dir: string, workspace: string, home: string, loose = false): string | undefined {
  const spec = specFor(program)
  if (!spec) return undefined
  let stopped = false
  for (let d = dir; ; d = dirname(d)) {
    const above = !isInside(workspace, d)
    if (!stopped) {
      for (const m of spec.project) {
        const marker = typeof m === "string" ? { name: m } : m
        const path = join(d, marker.name)
        if (!exists(path)) continue
        if (above) return path
        if (!loose && (marker.section === undefined || holds(path, marker.section))) stopped = true
      }
    }
    // the home's own files of this kind (~/.cargo/config.toml, ~/.eslintrc) are the user's configuration
    if (above && d !== home) for (const m of spec.every ?? []) {
      const marker = typeof m === "string" ? { name: m } : m
      const path = join(d, marker.name)
      if (exists(path) && (marker.section === undefined || holds(path, marker.section))) return path
    }
    if (stopped && !spec.every) return undefined
    const up = dirname(d)
    if (up === d) return undefined
  }
}

function exists(path: string): boolean {
  try {
    statSync(path)
    return true
  } catch {
    return false
  }
}

// the first 64 KiB of a config file hold its section (a file that cannot be read does not count)
function holds(path: string, text: string): boolean {
  let fd: number | undefined
  try {
    fd = openRegular(path)
    const buf = Buffer.alloc(64 * 1024)
    const n = readSync(fd, buf, 0, buf.length, 0)
    return buf.subarray(0, n).toString("utf8").includes(text)
  } catch {
    return false
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
