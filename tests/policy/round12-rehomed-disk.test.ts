// Round 12: a .env never committed (gitignored, only on disk) stored as a note (`git notes add -C ID`) or
// as an index entry under another name (`update-index --cacheinfo`): git log / git show print the note,
// git diff --cached / git grep --cached / git show :name the entry. The blob ids of the working tree's
// credential files are compared too: each asks high naming .env. Controls: a committed .env.example with
// the same bytes as .env, ordinary notes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"
import { gitIn } from "./helpers.ts"

describe("a never-committed credential file's blob under another name", () => {
  let root: string
  const git = gitIn
  const repo = (name: string) => {
    const dir = join(root, name)
    Bun.spawnSync(["mkdir", "-p", dir])
    git(dir, "init", "-q")
    writeFileSync(join(dir, ".gitignore"), ".env\n")
    writeFileSync(join(dir, ".env"), "SECRET=FAKESECRET-env8\n")
    writeFileSync(join(dir, "a.txt"), "a\n")
    git(dir, "add", "-A")
    git(dir, "commit", "-qm", "one")
    return dir
  }
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-rehomed12-")))
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const decideIn = async (ws: string, command: string) => {
    const policy = bundledPolicy("default")
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, policy, home: join(root, "nohome"), tmpDirs: [], env: { HOME: join(root, "nohome") } })
    return decide(policy, call, { grants: [] })
  }

  test("a note holding the on-disk .env's blob: git log, git show ask high naming .env", async () => {
    const dir = repo("notes")
    git(dir, "notes", "add", "-C", git(dir, "hash-object", "-w", ".env"), "HEAD")
    expect(git(dir, "log", "-1")).toContain("FAKESECRET-env8")
    for (const command of ["git log", "git log -1 --notes", "git show HEAD", "git show -s"]) {
      const d = await decideIn(dir, command)
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes(".env") }).toEqual({ command, decision: "ask", risk: "high", named: true })
    }
  })

  test("an index entry holding the on-disk .env's blob: git diff --cached, git grep --cached ask high naming .env", async () => {
    const dir = repo("index")
    git(dir, "update-index", "--add", "--cacheinfo", `100644,${git(dir, "hash-object", "-w", ".env")},notes.txt`)
    expect(git(dir, "diff", "--cached")).toContain("FAKESECRET-env8")
    for (const command of ["git diff --cached", "git diff --staged", "git grep --cached FAKE"]) {
      const d = await decideIn(dir, command)
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes(".env") }).toEqual({ command, decision: "ask", risk: "high", named: true })
    }
  })

  test("controls: a committed .env.example with .env's bytes, an ordinary note", async () => {
    const dir = repo("controls")
    writeFileSync(join(dir, ".env.example"), "SECRET=FAKESECRET-env8\n")
    writeFileSync(join(dir, "b.txt"), "b\n")
    git(dir, "add", ".env.example", "b.txt")
    git(dir, "commit", "-qm", "two")
    git(dir, "notes", "add", "-m", "reviewed", "HEAD")
    for (const command of ["git log -1", "git diff --cached", "git diff --cached --stat", "git show HEAD --stat"]) {
      const d = await decideIn(dir, command)
      expect({ command, decision: d.decision, reason: d.reason }).toEqual({ command, decision: "allow", reason: d.reason })
    }
  })
})
