// Finding and loading plugin files: the user's always, the workspace's only when trusted (by content),
// the task's when the task is trusted; a file that fails to load is reported and left out; a name
// taken twice is an error naming both files.
import { describe, expect, test } from "bun:test"
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { sha256 } from "../../core/base/hash.ts"
import { discoverPlugins, fileHash } from "../../core/plugins/discover.ts"
import { addExtraTools } from "../../core/plugins/extras.ts"
import { loadPluginFile } from "../../core/plugins/load.ts"
import { loadTask } from "../../core/task/load.ts"
import { createRegistry, ToolClashError } from "../../core/tools/registry.ts"

const FIXTURES = join(import.meta.dir, "..", "fixtures", "plugins")

function layout() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-plugins-")))
  const workspace = join(root, "ws")
  const home = join(root, "home")
  const config = join(root, "config")
  mkdirSync(join(workspace, ".ccode", "plugins"), { recursive: true })
  mkdirSync(join(config, "ccode", "plugins"), { recursive: true })
  mkdirSync(home, { recursive: true })
  return {
    root, workspace, home, env: { XDG_CONFIG_HOME: config },
    userPlugin: (name: string, from = name) => copy(from, join(config, "ccode", "plugins", name)),
    workspacePlugin: (name: string, from = name) => copy(from, join(workspace, ".ccode", "plugins", name)),
  }
}

function copy(fixture: string, to: string): string {
  copyFileSync(join(FIXTURES, fixture), to)
  return to
}

describe("discovery", () => {
  test("user plugins load; a workspace plugin only once its content is trusted", () => {
    const l = layout()
    const mine = l.userPlugin("greet.ts")
    const theirs = l.workspacePlugin("faulty.ts")
    writeFileSync(join(l.workspace, ".ccode", "plugins", "ccode-plugin.d.ts"), "declare module 'ccode/plugin' {}\n")
    const untrusted = discoverPlugins({ workspace: l.workspace, env: l.env, home: l.home, isTrusted: () => false })
    expect(untrusted.files).toEqual([{ path: mine, origin: "user" }])
    expect(untrusted.skipped.map((s) => [s.path, s.reason])).toEqual([[theirs, "the workspace plugin is not trusted: review it, then `ccode trust` (or --trust for one run)"]])

    const trustedHash = fileHash(theirs)
    const trusted = discoverPlugins({ workspace: l.workspace, env: l.env, home: l.home, isTrusted: (path, hash) => path === theirs && hash === trustedHash })
    expect(trusted.files).toEqual([{ path: mine, origin: "user" }, { path: theirs, origin: "workspace" }])

    writeFileSync(theirs, "// edited after it was trusted\n")
    const edited = discoverPlugins({ workspace: l.workspace, env: l.env, home: l.home, isTrusted: (path, hash) => path === theirs && hash === trustedHash })
    expect(edited.files.map((f) => f.origin)).toEqual(["user"])
  })

  test("the hash is the one `ccode trust` records (sha256 of the text)", () => {
    const l = layout()
    const file = l.workspacePlugin("greet.ts")
    expect(fileHash(file)).toBe(sha256(readFileSync(file, "utf8")))
  })

  test("task entries: files and folders relative to the task, each only when its own content is trusted; missing ones are reported", () => {
    const l = layout()
    mkdirSync(join(l.root, "tools"))
    copy("greet.ts", join(l.root, "tools", "greet.ts"))
    copy("faulty.ts", join(l.root, "tools", "faulty.ts"))
    const task = { file: join(l.root, "task.yaml"), dir: l.root, entries: ["./tools", "tools/greet.ts", "nope.ts"] }
    const found = discoverPlugins({ workspace: l.workspace, env: l.env, home: l.home, isTrusted: () => true, task })
    // the folder gives both files in name order; naming greet.ts again does not load it twice
    expect(found.files.map((f) => f.path)).toEqual([join(l.root, "tools", "faulty.ts"), join(l.root, "tools", "greet.ts")])
    expect(found.missing).toEqual([{ index: 2, message: `plugin nope.ts not found (looked for ${join(l.root, "nope.ts")})` }])

    // trusted by content: an edited greet.ts is not the one that was trusted
    const greetHash = fileHash(join(l.root, "tools", "greet.ts"))
    const isTrusted = (path: string, hash: string) => path.endsWith("faulty.ts") || hash !== greetHash
    const untrusted = discoverPlugins({ workspace: l.workspace, env: l.env, home: l.home, isTrusted, task: { ...task, entries: ["./tools"] } })
    expect(untrusted.files.map((f) => f.path)).toEqual([join(l.root, "tools", "faulty.ts")])
    expect(untrusted.skipped[0]!.reason).toContain(`the task plugin is not trusted: review it, then \`ccode trust ${task.file}\``)
  })
})

describe("loading", () => {
  test("a valid plugin gives its tools", async () => {
    const loaded = await loadPluginFile({ path: join(FIXTURES, "faulty.ts"), origin: "user" })
    expect(loaded.error).toBeUndefined()
    expect(loaded.tools.map((t) => t.name).sort()).toEqual(["explode", "hang"])
  })

  test("a plugin that throws at import is reported with its error, not thrown", async () => {
    const loaded = await loadPluginFile({ path: join(FIXTURES, "throws_at_import.ts"), origin: "user" })
    expect(loaded.tools).toEqual([])
    expect(loaded.error).toBe("failed to load: boom while loading the plugin")
  })

  test("a plugin with a syntax error is reported", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccode-bad-"))
    const file = join(dir, "broken.ts")
    writeFileSync(file, 'import { defineTool } from "ccode/plugin"\nexport default defineTool({ name: "x",\n')
    const loaded = await loadPluginFile({ path: file, origin: "task" })
    expect(loaded.tools).toEqual([])
    expect(loaded.error).toStartWith("failed to load:")
  })

  test("a plugin whose top level never finishes is left out after the import timeout", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccode-hang-"))
    const file = join(dir, "stuck.ts")
    writeFileSync(file, "await new Promise(() => {})\nexport default 1\n")
    const started = Date.now()
    const loaded = await loadPluginFile({ path: file, origin: "task" }, { timeoutMs: 200 })
    expect(loaded.error).toBe("failed to load: did not finish loading within 0.2s (a top-level await that never ends?)")
    expect(Date.now() - started).toBeLessThan(3000)
  })
})

describe("a run's extra tools", () => {
  test("plugins are added after the built-ins; failures become problems; hooks are collected in order", async () => {
    const l = layout()
    l.userPlugin("greet.ts")
    l.userPlugin("guard_hooks.ts")
    l.userPlugin("throws_at_import.ts")
    const registry = createRegistry()
    const extras = await addExtraTools({ registry, workspace: l.workspace, cwd: l.workspace, env: l.env, home: l.home, isTrusted: () => false, servers: {} })
    expect(registry.get("greet")?.source).toBe(join(l.env.XDG_CONFIG_HOME, "ccode", "plugins", "greet.ts"))
    expect(registry.get("shell")?.source).toBe("builtin")
    expect(extras.hooks.map((h) => h.source)).toEqual([join(l.env.XDG_CONFIG_HOME, "ccode", "plugins", "guard_hooks.ts")])
    expect(extras.problems).toEqual([`plugin ${join(l.env.XDG_CONFIG_HOME, "ccode", "plugins", "throws_at_import.ts")} failed to load: boom while loading the plugin`])
  })

  test("a plugin tool named like a built-in is an error (exit 2) naming both", async () => {
    const l = layout()
    const file = join(l.env.XDG_CONFIG_HOME, "ccode", "plugins", "shadow.ts")
    writeFileSync(file, 'import { defineTool, z } from "ccode/plugin"\nexport default defineTool({ name: "shell", description: "mine", args: z.object({}), run: async () => ({}) })\n')
    const error = await addExtraTools({ registry: createRegistry(), workspace: l.workspace, cwd: l.workspace, env: l.env, home: l.home, isTrusted: () => false, servers: {} }).catch((e) => e)
    expect(error).toBeInstanceOf(ToolClashError)
    expect((error as ToolClashError & { exitCode: number }).exitCode).toBe(2)
    expect(error.message).toBe(`tool "shell" from ${file} clashes with the one from builtin`)
  })

  test("two plugins defining one tool name: the error names both files", async () => {
    const l = layout()
    const first = l.userPlugin("greet.ts")
    const second = l.workspacePlugin("greet.ts")
    const error = await addExtraTools({ registry: createRegistry(), workspace: l.workspace, cwd: l.workspace, env: l.env, home: l.home, isTrusted: () => true, servers: {} }).catch((e) => e)
    expect(error.message).toBe(`tool "greet" from ${second} clashes with the one from ${first}`)
  })

  test("a task naming a plugin that does not exist is a configuration error at its line", async () => {
    const l = layout()
    const taskFile = join(l.workspace, "task.yaml")
    writeFileSync(taskFile, "version: 1\nplugins:\n  - ./missing.ts\nsteps:\n  - run: echo hi\n")
    const task = loadTask(taskFile)
    const error = await addExtraTools({ registry: createRegistry(), workspace: l.workspace, cwd: l.workspace, env: l.env, home: l.home, isTrusted: () => true, servers: {}, task }).catch((e) => e)
    expect(error.exitCode).toBe(2)
    expect(error.message).toBe(`${taskFile}:3:5: plugin ./missing.ts not found (looked for ${join(l.workspace, "missing.ts")})`)
  })
})

describe("a task's MCP servers are trusted with the text that was parsed", () => {
  test("a task file swapped for its trusted version after it was read does not lend that trust: its servers are not started", async () => {
    const l = layout()
    try {
      const taskFile = join(l.workspace, "task.yaml")
      const marker = join(l.root, "server-ran")
      const good = "version: 1\nsteps:\n  - run: echo hello\n"
      const evil = `${good}mcp:\n  servers:\n    x: { command: /bin/sh, args: [-c, "touch ${marker}"] }\n`
      writeFileSync(taskFile, evil)
      const task = loadTask(taskFile)
      writeFileSync(taskFile, good) // a racer puts the trusted text back before the trust check
      const isTrusted = (path: string, hash: string) => path === taskFile && hash === sha256(good)
      const extras = await addExtraTools({ registry: createRegistry(), workspace: l.workspace, cwd: l.workspace, env: l.env, home: l.home, isTrusted, servers: {}, task })
      await extras.close()
      expect(extras.problems).toEqual([`MCP servers of ${taskFile} (x) not started: the task file is not trusted (\`ccode trust ${taskFile}\` or --trust)`])
      expect(existsSync(marker)).toBe(false)
      expect(task.sha256).toBe(sha256(evil))
    } finally {
      rmSync(l.root, { recursive: true, force: true })
    }
  })
})
