// Counts what a test run leaves in the temp dir: a nested `bun test` with a private, empty TMPDIR over
// representative files (unit tests that mkdtemp and never clean, an e2e file whose binary writes
// its own temp dirs, a careless fixture that leaves a read-only folder) must leave it empty.
import { expect, test } from "bun:test"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { binary } from "./e2e/harness.ts"

const ROOT = join(import.meta.dir, "..")
const FILES = [
  "./tests/task/load.test.ts",
  "./tests/tools/shell.test.ts",
  "./tests/plugins/load.test.ts",
  "./tests/runner/reconcile.test.ts",
  "./tests/e2e/plugin-hooks.test.ts",
  "./tests/fixtures/tmp/leaves-everything.ts",
]

test("a test run leaves nothing in the temp dir", async () => {
  const bin = await binary()
  const privateTmp = mkdtempSync(join(tmpdir(), "ccode-count-"))
  try {
    const proc = Bun.spawn(["bun", "test", ...FILES], {
      cwd: ROOT,
      env: { ...process.env, TMPDIR: privateTmp, CCODE_BIN: bin },
      stdout: "pipe",
      stderr: "pipe",
    })
    const timer = setTimeout(() => proc.kill("SIGKILL"), 110_000)
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
    clearTimeout(timer)
    expect(code, out + err).toBe(0)
    expect(err).toContain(`across ${FILES.length} files`)
    expect(readdirSync(privateTmp)).toEqual([])
  } finally {
    rmSync(privateTmp, { recursive: true, force: true })
  }
}, 120_000)
