// Gemini CLI's read_many_files expands its globs with `nocase: true` (glob 13 in its read-many-files.ts):
// `KEYS/*` reads keys/server.pem. The pattern's literal names are looked up on disk in any case; the
// working directory's own path is taken as it is. Real files in a temp folder.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"
import { prepareCall } from "../../core/policy/prepare.ts"

describe("read_many_files globs match names in any case", () => {
  let root: string, ws: string
  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-nocase-")))
    ws = join(root, "ws")
    mkdirSync(join(ws, "keys"), { recursive: true })
    mkdirSync(join(ws, "config"))
    mkdirSync(join(ws, "src"))
    writeFileSync(join(ws, "keys", "server.pem"), "FAKESECRET-pem\n")
    writeFileSync(join(ws, "keys", "readme.md"), "x\n")
    writeFileSync(join(ws, "config", "id_rsa"), "FAKESECRET-idrsa\n")
    writeFileSync(join(ws, "src", "main.ts"), "x\n")
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const readMany = async (paths: string[]) => {
    const call = await prepareCall("read_file", { paths }, { cwd: ws, workspace: ws, home: join(root, "home"), tmpDirs: ["/nonexistent-tmp"], toolRisk: "safe", reads: paths, policy: bundledPolicy("default") })
    return decide(bundledPolicy("default"), call, { grants: [] })
  }

  test("a literal directory in another case", async () => {
    for (const [include, file] of [["KEYS/*", "server.pem"], ["Keys/**", "server.pem"], ["KEYS/**/*", "server.pem"], ["**/KEYS/*", "server.pem"], ["CONFIG/*", "id_rsa"], ["{CONFIG,x}/*", "id_rsa"], [`${ws}/CONFIG/*`, "id_rsa"]] as const) {
      const d = await readMany([include])
      expect({ include, decision: d.decision }).toEqual({ include, decision: "ask" })
      expect(d.reason).toContain(file)
    }
  })

  test("controls: globs that reach no secret stay allowed", async () => {
    for (const include of ["SRC/*.ts", "src/**/*.ts", "docs/*.md"]) {
      const d = await readMany([include])
      expect({ include, decision: d.decision, reason: d.reason }).toEqual({ include, decision: "allow", reason: d.reason })
    }
  })
})
