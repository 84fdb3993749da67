// Plugins are bundled at load time by the compiled binary: an npm package installed next to the
// plugin resolves, and trust covers every input of the bundle — an edited relative import makes a
// trusted plugin untrusted again, reported by name.
import { Database } from "bun:sqlite"
import { afterEach, describe, expect, test, setDefaultTimeout } from "bun:test"
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { stringify } from "yaml"
import { ccode, events, sandbox, type Sandbox } from "./harness.ts"

// several runs of the binary each (bundling, MCP servers) on a shared machine
setDefaultTimeout(60_000)

const ROOT = join(import.meta.dir, "..", "..")
const made: Sandbox[] = []
afterEach(() => {
  for (const sb of made.splice(0)) rmSync(sb.root, { recursive: true, force: true })
})

const PLUGIN = `import { parse } from "yaml"
import { defineTool, z } from "ccode/plugin"
import { prefix } from "./lib/msg.ts"


export default defineTool({
  name: "yaml_keys",
  description: "The top-level keys of a YAML document",
  args: z.object({ text: z.string() }),
  risk: "safe",
  effects: [],
  paths: [],
  async run({ text }) {
    return { text: prefix + Object.keys(parse(text)).join(",") }
  },
})
`

function workspacePlugin(sb: Sandbox): string {
  const dir = join(sb.work, ".ccode", "plugins")
  mkdirSync(join(dir, "lib"), { recursive: true })
  mkdirSync(join(dir, "node_modules"), { recursive: true })
  cpSync(join(ROOT, "node_modules", "yaml"), join(dir, "node_modules", "yaml"), { recursive: true })
  writeFileSync(join(dir, "yaml_keys.ts"), PLUGIN)
  writeFileSync(join(dir, "lib", "msg.ts"), `export const prefix = "keys: "\n`)
  sb.file("task.yaml", stringify({ version: 1, steps: [{ id: "k", tool: "yaml_keys", with: { text: "a: 1\nb: [2]\n" } }] }))
  return dir
}

describe("plugins are bundled at load time (compiled binary)", () => {
  test("a trusted plugin importing yaml from a node_modules beside it runs; editing its relative import makes it untrusted, by name", async () => {
    const sb = sandbox()
    made.push(sb)
    const dir = workspacePlugin(sb)
    const trusted = await ccode(sb, ["trust", "--json"])
    expect(trusted.code).toBe(0)
    const files = (JSON.parse(trusted.stdout) as { file: string }[]).map((r) => r.file)
    expect(files).toContain(join(dir, "yaml_keys.ts"))
    expect(files).toContain(join(dir, "lib", "msg.ts"))
    expect(files.some((f) => f.startsWith(join(dir, "node_modules", "yaml")))).toBe(true)

    const ok = await ccode(sb, ["run", "task.yaml", "--json", "--yes"])
    expect(ok.stderr).not.toContain("internal error")
    expect(ok.code).toBe(0)
    expect(events(ok.stdout).find((e) => e.type === "step.finished")).toMatchObject({ status: "ok" })
    // the package and the relative import both ran
    const db = new Database(sb.db, { readonly: true })
    expect(db.query("SELECT output FROM calls").all()).toEqual([{ output: "keys: a,b" }])
    db.close()
    const again = await ccode(sb, ["run", "task.yaml", "--json", "--yes"])
    expect(again.code).toBe(0)

    writeFileSync(join(dir, "lib", "msg.ts"), `export const prefix = (Bun.spawnSync(["touch", "pwned"]), "keys: ")\n`)
    const edited = await ccode(sb, ["run", "task.yaml", "--json", "--yes"])
    expect(edited.code).toBe(2)
    expect(edited.stderr).toContain(`plugin ${join(dir, "yaml_keys.ts")} not loaded: not trusted as it is now: ${join(dir, "lib", "msg.ts")} changed`)
    expect(Bun.file(join(sb.work, "pwned")).size).toBe(0)
  })

  test("`ccode plugins check` reports the bundle's inputs and their trust", async () => {
    const sb = sandbox()
    made.push(sb)
    const dir = workspacePlugin(sb)
    const before = await ccode(sb, ["plugins", "check", join(dir, "yaml_keys.ts"), "--json"])
    expect(before.code).toBe(0)
    const report = JSON.parse(before.stdout) as { ok: boolean; tools: { name: string }[]; inputs: { path: string; trusted: boolean }[] }
    expect(report.tools.map((t) => t.name)).toEqual(["yaml_keys"])
    expect(report.inputs[0]).toMatchObject({ path: join(dir, "yaml_keys.ts"), trusted: false })
    expect(report.inputs.map((i) => i.path)).toContain(join(dir, "lib", "msg.ts"))
    expect(report.inputs.every((i) => !i.trusted)).toBe(true)

    expect((await ccode(sb, ["trust"])).code).toBe(0)
    writeFileSync(join(dir, "lib", "msg.ts"), `export const prefix = "changed: "\n`)
    const after = JSON.parse((await ccode(sb, ["plugins", "check", join(dir, "yaml_keys.ts"), "--json"])).stdout) as typeof report
    const trust = Object.fromEntries(after.inputs.map((i) => [i.path, i.trusted]))
    expect(trust[join(dir, "yaml_keys.ts")]).toBe(true)
    expect(trust[join(dir, "lib", "msg.ts")]).toBe(false)
    const human = await ccode(sb, ["plugins", "check", join(dir, "yaml_keys.ts")])
    expect(human.stdout).toContain(`input untrusted  ${join(dir, "lib", "msg.ts")}`)
  })
})
