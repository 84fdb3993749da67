// Plugin bundling runs no code before every input is trusted: Bun runs macros while bundling, so the
// first pass bundles only each file's import list; the real build happens once all inputs are trusted.
import { afterAll, describe, expect, test } from "bun:test"
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { bundlePlugin, pluginInputs } from "../../core/plugins/bundle.ts"
import { loadPluginFile } from "../../core/plugins/load.ts"

const root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-bundle-")))
afterAll(() => rmSync(root, { recursive: true, force: true }))

function plugin(name: string, importLine: string): { dir: string; entry: string; marker: string } {
  const dir = join(root, name)
  mkdirSync(dir, { recursive: true })
  const marker = join(dir, "MACRO-RAN")
  writeFileSync(join(dir, "m.ts"), `export function f() { require("node:fs").writeFileSync(${JSON.stringify(marker)}, "x"); return "v" }\n`)
  const entry = join(dir, "p.ts")
  writeFileSync(entry, `${importLine}\nimport { defineTool, z } from "ccode/plugin"\nexport default defineTool({ name: "t_${name}", description: "d", args: z.object({}), async run() { return { text: String(f()) } } })\n`)
  return { dir, entry, marker }
}

describe("bundling an untrusted plugin runs none of its code", () => {
  test("a macro import (quoted key, comments) is listed as an input but never run; an untrusted one is not built", async () => {
    const p = plugin("attr", `import { f } from "./m.ts" /* x */ with { "type": "macro" }`)
    const inputs = await pluginInputs(p.entry)
    expect(inputs.map((i) => i.path)).toEqual([p.entry, join(p.dir, "m.ts")])
    expect(existsSync(p.marker)).toBe(false)
    const cache = join(root, "cache-attr")
    const trustEntryOnly = (path: string) => path === p.entry
    const loaded = await loadPluginFile({ path: p.entry, origin: "workspace" }, { cacheDir: cache, isTrusted: trustEntryOnly })
    expect(loaded.untrusted).toEqual([join(p.dir, "m.ts")])
    expect(loaded.tools).toEqual([])
    expect(existsSync(p.marker)).toBe(false)
  })

  test("a `macro:` specifier is refused", async () => {
    const p = plugin("prefix", `import { f } from "macro:./m.ts"`)
    await expect(pluginInputs(p.entry)).rejects.toThrow("imports the macro macro:./m.ts")
    expect(existsSync(p.marker)).toBe(false)
  })

  test("a trusted plugin is built once and then taken from the cache until an input changes", async () => {
    const dir = join(root, "plain")
    mkdirSync(join(dir, "lib"), { recursive: true })
    writeFileSync(join(dir, "lib", "msg.ts"), `export const msg = "one"\n`)
    const entry = join(dir, "p.ts")
    writeFileSync(entry, `import { msg } from "./lib/msg.ts"\nimport { defineTool, z } from "ccode/plugin"\nexport default defineTool({ name: "plain", description: "d", args: z.object({}), async run() { return { text: msg } } })\n`)
    const cache = join(root, "cache-plain")
    const first = await bundlePlugin(entry, cache, () => true)
    expect([first.cached, first.inputs.length]).toEqual([false, 2])
    const second = await bundlePlugin(entry, cache, () => true)
    expect([second.cached, second.file]).toEqual([true, first.file])
    writeFileSync(join(dir, "lib", "msg.ts"), `export const msg = "two, longer"\n`)
    const third = await bundlePlugin(entry, cache, (path) => !path.endsWith("msg.ts"))
    expect([third.cached, third.file, third.untrusted]).toEqual([false, undefined, [join(dir, "lib", "msg.ts")]])
  })
})
