// A folder that is a home by its contents (a shell start-up file, a .ssh folder) but no account's: its
// home-only credential locations ask like the caller's own; the same names in a project folder do not.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"
import { homeLikeCredential } from "../../core/policy/homelike.ts"

describe("home-only credential names in a folder that is a home by its contents", () => {
  let root: string
  let ws: string
  let other: string
  let project: string
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-homelike-")))
    ws = join(root, "ws")
    other = join(root, "other")
    project = join(ws, "proj")
    mkdirSync(join(other, ".config", "gh"), { recursive: true })
    mkdirSync(join(other, ".kube"), { recursive: true })
    mkdirSync(project, { recursive: true })
    writeFileSync(join(other, ".bashrc"), "# rc\n")
    for (const f of [".bash_history", ".config/gh/hosts.yml", ".kube/config"]) writeFileSync(join(other, f), "FAKESECRET\n")
    writeFileSync(join(project, ".bash_history"), "ls\n")
    writeFileSync(join(project, "notes.txt"), "x\n")
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const decideShell = async (command: string) => {
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, home: join(root, "home"), tmpDirs: [] })
    return decide(bundledPolicy("default"), call, { grants: [] })
  }

  test("the pure lookup names the folder, the location and the mark", () => {
    expect(homeLikeCredential(join(other, ".bash_history"), [])).toEqual({ base: other, rest: ".bash_history", mark: ".bashrc" })
    expect(homeLikeCredential(join(other, ".config/gh/hosts.yml"), [])?.rest).toBe(".config/gh")
    expect(homeLikeCredential(join(project, ".bash_history"), [])).toBeUndefined()
    expect(homeLikeCredential(join(other, "notes.txt"), [])).toBeUndefined()
    // a folder already judged as a home is left to the home rules
    expect(homeLikeCredential(join(other, ".bash_history"), [other])).toBeUndefined()
  })

  test("cat of a home-only credential in a home-like folder asks high, naming why", async () => {
    for (const f of [".bash_history", ".config/gh/hosts.yml", ".kube/config"]) {
      const d = await decideShell(`cat ${join(other, f)}`)
      expect({ f, decision: d.decision, risk: d.risk, named: d.reason.includes("holds .bashrc") || d.reason.includes("credentials are kept") }).toEqual({ f, decision: "ask", risk: "high", named: true })
    }
  })

  test("the same names in a project folder without a home's marks stay allowed", async () => {
    for (const command of [`cat ${join(project, ".bash_history")}`, "cat proj/notes.txt", `cat ${join(other, ".bashrc")}`]) {
      const d = await decideShell(command)
      expect({ command, decision: d.decision }).toEqual({ command, decision: "allow" })
    }
  })
})
