// ccode's own files (the user's policy folder, its data folder and database, the managed policy folder):
// a write there changes what ccode allows next. With the workspace at the home (an agent started in ~)
// they are workspace files, and the bundled `ci` policy must still not auto-approve writing them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"

describe("ccode's own files when the workspace is the home", () => {
  let home: string
  beforeAll(async () => {
    await loadParser()
    home = realpathSync(mkdtempSync(join(tmpdir(), "ccode-own-")))
    mkdirSync(join(home, "proj"))
  })
  afterAll(() => rmSync(home, { recursive: true, force: true }))
  const ci = async (tool: string, args: Record<string, unknown>, env: Record<string, string> = {}) => {
    const call = await prepareCall(tool, args, { cwd: home, workspace: home, home, env: { HOME: home, ...env }, tmpDirs: ["/nonexistent-tmp"], toolRisk: tool === "shell" ? undefined : "medium", policy: bundledPolicy("ci") })
    return decide(bundledPolicy("ci"), call, { grants: [] })
  }

  test("writing the user policy, the data folder or the database asks critical (shell and host tools)", async () => {
    for (const command of ["mkdir -p .config/ccode && cp p.yaml .config/ccode/policy.yaml", "echo 'rules: []' >> .config/ccode/policy.yaml", "cp x .local/share/ccode/ccode.db", "echo x > .local/share/ccode/ccode.db-wal", "rm -rf .local/share/ccode/runs"]) {
      const d = await ci("shell", { command })
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes("ccode's own") }).toEqual({ command, decision: "ask", risk: "critical", named: true })
    }
    const w = await ci("write_file", { path: ".config/ccode/policy.yaml", content: "approval: { threshold: critical }" })
    expect([w.decision, w.risk]).toEqual(["ask", "critical"])
  })

  test("they move with XDG_CONFIG_HOME, CCODE_HOME and CCODE_DB", async () => {
    const env = { XDG_CONFIG_HOME: join(home, "cfg"), CCODE_HOME: join(home, "data"), CCODE_DB: join(home, "proj", "my.db") }
    for (const command of ["echo x > cfg/ccode/policy.yaml", "touch data/grants", "cp y proj/my.db"]) {
      const d = await ci("shell", { command }, env)
      expect({ command, risk: d.risk }).toEqual({ command, risk: "critical" })
    }
  })

  test("a database client opening ccode's database asks (critical: sqlite3 writes it); listing and other files stay allowed", async () => {
    const d = await ci("shell", { command: "sqlite3 .local/share/ccode/ccode.db 'delete from grants'" })
    // sqlite3 opens the database it is given for writing: a write to ccode's own files is critical
    expect([d.decision, d.risk]).toEqual(["ask", "critical"])
    expect(d.reason).toContain("ccode's own database")
    for (const command of ["ls .local/share/ccode", "cat .config/ccode/policy.yaml", "echo hi > proj/notes.txt"]) expect((await ci("shell", { command })).decision).toBe("allow")
  })
})
