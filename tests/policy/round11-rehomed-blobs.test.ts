// Round 11: a committed .env's blob kept under another name — a note (`git notes add -C ID`), an index
// entry (`git update-index --cacheinfo …,ID,leak.txt`) — is printed by reads that never name it: `git log`,
// `git show -s`, `git log --format=%N` print notes; `git diff --cached`, `git grep --cached` print the
// index. Each asks high naming the credential file; a repository whose notes are ordinary stays allowed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"
import { gitIn } from "./helpers.ts"

describe("credential blobs under another name", () => {
  let root: string
  const git = gitIn
  const repo = (name: string) => {
    const dir = join(root, name)
    Bun.spawnSync(["mkdir", "-p", dir])
    git(dir, "init", "-q")
    writeFileSync(join(dir, ".env"), "API_KEY=FAKESECRET-hist\n")
    writeFileSync(join(dir, "a.txt"), "a\n")
    git(dir, "add", "-A")
    git(dir, "commit", "-qm", "one")
    const blob = git(dir, "rev-parse", "HEAD:.env")
    git(dir, "rm", "-q", ".env")
    git(dir, "commit", "-qm", "two")
    return { dir, blob }
  }
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-rehomed-")))
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const decideIn = async (ws: string, command: string) => {
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, home: join(root, "nohome"), tmpDirs: [], env: { HOME: join(root, "nohome") } })
    return decide(bundledPolicy("default"), call, { grants: [] })
  }

  test("a note that is .env's blob: git log, git show -s, --format=%N ask high naming .env", async () => {
    const { dir, blob } = repo("notes")
    git(dir, "notes", "add", "-C", blob, "HEAD")
    expect(git(dir, "log", "-1")).toContain("FAKESECRET-hist")
    for (const command of ["git log -1", "git show -s HEAD", "git log --oneline -1 --notes", "git log -1 --format=%N"]) {
      const d = await decideIn(dir, command)
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes(".env") }).toEqual({ command, decision: "ask", risk: "high", named: true })
    }
    expect((await decideIn(dir, "git log -1 --no-notes")).decision).toBe("allow")
  })

  test("an index entry holding .env's blob: git diff --cached and git grep --cached ask high naming .env", async () => {
    const { dir, blob } = repo("index")
    git(dir, "update-index", "--add", "--cacheinfo", `100644,${blob},leak.txt`)
    expect(git(dir, "diff", "--cached")).toContain("FAKESECRET-hist")
    for (const command of ["git diff --cached", "git diff --cached -- leak.txt", "git grep --cached KEY"]) {
      const d = await decideIn(dir, command)
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes(".env") }).toEqual({ command, decision: "ask", risk: "high", named: true })
    }
  })

  test("controls: ordinary notes and a staged ordinary file stay allowed", async () => {
    const { dir } = repo("plain")
    git(dir, "notes", "add", "-m", "reviewed", "HEAD")
    writeFileSync(join(dir, "b.txt"), "b\n")
    git(dir, "add", "b.txt")
    for (const command of ["git log -1", "git show -s HEAD", "git diff --cached", "git grep --cached a"]) {
      const d = await decideIn(dir, command)
      expect({ command, decision: d.decision, reason: d.reason }).toEqual({ command, decision: "allow", reason: d.reason })
    }
  })
})
