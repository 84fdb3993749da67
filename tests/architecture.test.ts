// The import rule of docs/architecture.md, read from the source: a room imports only rooms on a lower
// level (its own files freely). A new room, or an import against the rule, fails here until it is
// either fixed or listed in EXCEPTIONS with its reason.
import { describe, expect, test } from "bun:test"
import { Glob } from "bun"
import { readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"

const ROOT = join(import.meta.dir, "..")

/** Lower levels are imported by higher ones, never the other way; rooms on one level do not import each other. */
const LEVELS: Record<string, number> = {
  base: 0,
  shell: 1, store: 1, git: 1,
  redact: 2,
  policy: 3,
  sandbox: 4,
  tools: 5,
  guards: 6, audit: 6,
  snapshot: 7, hosts: 7, task: 7, runstore: 7,
  plugins: 8,
  runner: 9,
  agent: 10, mcp: 10,
  cli: 11,
}

/** Imports against the levels, each with the reason it stays for now. Keep this list short. */
const EXCEPTIONS: { from: string; to: string; reason: string }[] = [
  { from: "core/policy/prepare.ts", to: "tools", reason: "a proposed call's paths come from the tool's own declaration (built-ins' declarations and declaredPaths)" },
  { from: "core/sandbox/session.ts", to: "tools", reason: "type only: the sandbox explains a failed tool result (ToolResult)" },
  { from: "core/plugins/extras.ts", to: "mcp", reason: "lazy: a plugin's MCP servers are connected with the MCP client, which lives beside the MCP server in core/mcp" },
  { from: "core/runner/drivers.ts", to: "agent", reason: "driverFor() picks the agent driver for a task with an `agent:` section; the one place the runner names a driver" },
  { from: "core/runner/state.ts", to: "agent", reason: "type only: a run's checkpointed state carries the agent driver's state (AgentState)" },
]

interface Edge { from: string; to: string; spec: string }

function roomOf(path: string): string | undefined {
  const parts = relative(ROOT, path).split("/")
  if (parts[0] === "cli") return "cli"
  if (parts[0] === "core" && parts.length > 2) return parts[1]
  return undefined // data outside the code (package.json, policies/, drizzle/): not a room
}

// Type-only and lazy imports count too: they tie the rooms together just the same.
const IMPORT = /\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm

function imports(): Edge[] {
  const edges: Edge[] = []
  for (const file of new Glob("{core,cli}/**/*.ts").scanSync(ROOT)) {
    const abs = join(ROOT, file)
    for (const m of readFileSync(abs, "utf8").matchAll(IMPORT)) {
      const spec = (m[1] ?? m[2] ?? m[3])!
      if (!spec.startsWith(".")) continue
      const to = roomOf(resolve(dirname(abs), spec))
      if (to) edges.push({ from: file, to, spec })
    }
  }
  return edges
}

describe("architecture: the import rule", () => {
  const edges = imports()

  test("every room of core/ and cli has a level", () => {
    const rooms = new Set([...new Glob("core/*/*.ts").scanSync(ROOT)].map((f) => f.split("/")[1]!))
    expect([...rooms].filter((r) => LEVELS[r] === undefined)).toEqual([])
    expect(edges.length).toBeGreaterThan(100)
  })

  test("a room imports only rooms on a lower level, or is a listed exception", () => {
    const broken = edges
      .filter((e) => {
        const from = roomOf(join(ROOT, e.from))!
        return from !== e.to && LEVELS[e.to]! >= LEVELS[from]!
      })
      .filter((e) => !EXCEPTIONS.some((x) => x.from === e.from && x.to === e.to))
      .map((e) => `${e.from} imports ${e.spec} (${e.to})`)
    expect(broken).toEqual([])
  })

  test("the base room imports nothing of the project's other rooms", () => {
    expect(edges.filter((e) => e.from.startsWith("core/base/") && e.to !== "base")).toEqual([])
  })

  test("nothing in core imports the command line", () => {
    expect(edges.filter((e) => e.from.startsWith("core/") && e.to === "cli")).toEqual([])
  })

  test("every exception names a real file and a reason", () => {
    for (const x of EXCEPTIONS) {
      expect(readFileSync(join(ROOT, x.from), "utf8").length).toBeGreaterThan(0)
      expect(LEVELS[x.to]).toBeDefined()
      expect(x.reason.length).toBeGreaterThan(20)
    }
  })
})

describe("architecture: start-up", () => {
  // The bundler puts many modules' top-level code into one function per chunk; a loop there runs
  // often enough for the engine to JIT-compile that whole function (the shell analyser's chunk:
  // ~5 ms of compiling on every start of `ccode hook`). Tables are built in functions instead.
  test("no module runs a loop at its top level", () => {
    const loops: string[] = []
    for (const file of new Glob("{core,cli}/**/*.ts").scanSync(ROOT)) {
      const lines = readFileSync(join(ROOT, file), "utf8").split("\n")
      lines.forEach((line, i) => {
        if (/^(?:for|while|do)\b/.test(line)) loops.push(`${file}:${i + 1}: ${line.trim()}`)
      })
    }
    expect(loops).toEqual([])
  })
})
