// A plain read of an archive prints its bytes: an archive stored inside it (a tar in a tar, a tar in a
// stored zip, a stored zip in a tar) prints its members as they are, and so does an ar archive. A member
// named like a credential in any of them makes the read ask. Real archives made with tar, python's
// zipfile and ar in a temp folder, decided under the bundled default policy.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"

const has = (program: string) => Bun.spawnSync(["sh", "-c", `command -v ${program}`]).exitCode === 0

describe("archives inside archives, and ar archives", () => {
  let ws: string
  const run = (cmd: string[], cwd: string) => {
    const r = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" })
    if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")}: ${r.stderr.toString()}`)
  }
  beforeAll(async () => {
    await loadParser()
    ws = realpathSync(mkdtempSync(join(tmpdir(), "ccode-nested-")))
    const src = join(ws, "src")
    mkdirSync(join(src, "t"), { recursive: true })
    writeFileSync(join(src, "t", ".env"), "API_KEY=FAKESECRET-arch\n")
    writeFileSync(join(src, "t", "a.txt"), "a\n")
    run(["tar", "cf", join(ws, "inner.tar"), "t/.env"], src)
    run(["tar", "cf", join(ws, "innerplain.tar"), "t/a.txt"], src)
    run(["tar", "cf", join(ws, "outer.tar"), "inner.tar"], ws)
    run(["tar", "cf", join(ws, "outerplain.tar"), "innerplain.tar"], ws)
    const zip = (out: string, file: string, name: string) => run(["python3", "-c", `import zipfile,sys; z=zipfile.ZipFile(sys.argv[1],'w',zipfile.ZIP_STORED); z.write(sys.argv[2], sys.argv[3]); z.close()`, out, file, name], ws)
    zip(join(ws, "outerz.zip"), join(ws, "inner.tar"), "inner.tar")
    zip(join(ws, "inner0.zip"), join(src, "t", ".env"), "s/.env")
    run(["tar", "cf", join(ws, "outer2.tar"), "inner0.zip"], ws)
    if (has("ar")) run(["ar", "rc", join(ws, "c.a"), "t/.env"], src)
    rmSync(src, { recursive: true, force: true })
    for (const f of ["inner.tar", "inner0.zip", "innerplain.tar"]) rmSync(join(ws, f))
  })
  afterAll(() => rmSync(ws, { recursive: true, force: true }))

  const decideDefault = async (command: string) => {
    const policy = bundledPolicy("default")
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, home: "/nonexistent", tmpDirs: ["/nonexistent-tmp"], policy })
    return decide(policy, call, { grants: [] })
  }

  test("a credential member of a nested or ar archive makes a plain read ask", async () => {
    const cmds = ["cat outer.tar", "strings outer.tar", "grep -a KEY outer.tar", "cat outer2.tar", "cat outerz.zip", ...(has("ar") ? ["cat c.a", "strings c.a"] : [])]
    for (const command of cmds) {
      const d = await decideDefault(command)
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes(".env") }).toEqual({ command, decision: "ask", risk: "high", named: true })
    }
  })

  test("control: a nested archive of ordinary files stays allowed", async () => {
    expect((await decideDefault("cat outerplain.tar")).decision).toBe("allow")
  })
})
