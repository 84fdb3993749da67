// plugins/ccode-plugin.d.ts repeats the Tool contract by hand (plugins type-check with nothing
// installed); this keeps the two from drifting apart.
import { expect, test } from "bun:test"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const ROOT = join(import.meta.dir, "..", "..")

test("the plugin type declarations match the binary's tool and hook contract", () => {
  const dir = mkdtempSync(join(tmpdir(), "ccode-dts-"))
  const project = join(dir, "tsconfig.json")
  writeFileSync(project, JSON.stringify({
    extends: join(ROOT, "tsconfig.json"),
    compilerOptions: { noEmit: true, typeRoots: [join(ROOT, "node_modules", "@types")] },
    include: [join(ROOT, "types"), join(ROOT, "plugins", "ccode-plugin.d.ts"), join(ROOT, "tests", "plugins", "fixtures", "dts-drift.ts")],
  }))
  const tsc = Bun.spawnSync([join(ROOT, "node_modules", ".bin", "tsc"), "-p", project], { cwd: ROOT, stdout: "pipe", stderr: "pipe" })
  expect(`${tsc.stdout.toString()}${tsc.stderr.toString()}`).toBe("")
  expect(tsc.exitCode).toBe(0)
}, 60_000)
