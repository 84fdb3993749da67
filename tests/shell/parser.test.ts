// tree-sitter is woken only when a command needs it, once per process, and its WASM files travel
// inside a compiled binary (checked by building one and running it far from node_modules).
import { afterAll, describe, expect, test } from "bun:test"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"

const root = resolve(import.meta.dir, "../..")
const work = mkdtempSync(join(tmpdir(), "ccode-shell-"))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const probe = `
import { analyzeShell, parserReady } from ${JSON.stringify(join(root, "core/shell/index.ts"))}
const ctx = { cwd: "/w", workspace: "/w", home: "/h", env: {} }
const plain = await analyzeShell("git status --short", ctx)
const before = parserReady()
const compound = await analyzeShell("git status && echo $(rm -rf /) | head", ctx)
console.log(JSON.stringify({ before, after: parserReady(), plain: plain.commands.map((c) => c.program), compound: compound.commands.map((c) => c.program), risk: compound.risk }))
`

describe("the bash parser", () => {
  test("plain commands never load it; the first compound command does", () => {
    const file = join(work, "probe.ts")
    writeFileSync(file, probe)
    const run = Bun.spawnSync(["bun", "run", file], { cwd: work })
    expect(run.stderr.toString()).toBe("")
    expect(JSON.parse(run.stdout.toString())).toEqual({ before: false, after: true, plain: ["git"], compound: ["git", "rm", "echo", "head"], risk: "critical" })
  })

  test("a compiled binary parses compound commands with no node_modules around", () => {
    const entry = join(work, "entry.ts")
    writeFileSync(entry, probe)
    const bin = join(work, "probe-bin")
    const build = Bun.spawnSync(["bun", "build", "--compile", "--outfile", bin, entry], { cwd: root })
    expect(build.exitCode === 0 ? "built" : build.stderr.toString()).toBe("built")
    const elsewhere = mkdtempSync(join(tmpdir(), "ccode-run-"))
    try {
      const run = Bun.spawnSync([bin], { cwd: elsewhere, env: { PATH: "/usr/bin:/bin" } })
      expect(run.stderr.toString()).toBe("")
      expect(JSON.parse(run.stdout.toString()).compound).toEqual(["git", "rm", "echo", "head"])
    } finally {
      rmSync(elsewhere, { recursive: true, force: true })
    }
  }, 120_000)
})
