// Blobs read by id that no commit holds (attack review 11): a `.env` staged and then unstaged is a
// dangling blob (`git fsck --dangling` lists it), a staged `.env.prod` an index-only one; `git cat-file -p
// ID`, `git show ID`, `git cat-file blob ID` printed them while the history held no credential file. Each
// named blob is now placed (index, history, reflogs): a credential file's asks high naming it, a blob
// nothing holds asks high, an ordinary file's stays allowed. Real repositories.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"
import { placeObjects } from "../../core/policy/gitobjects.ts"

const ENV = { ...process.env, GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@x", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@x", GIT_CONFIG_NOSYSTEM: "1", HOME: "/nonexistent" }
function git(cwd: string, ...args: string[]): string {
  const r = Bun.spawnSync(["git", "-c", "init.defaultBranch=main", ...args], { cwd, env: ENV })
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`)
  return r.stdout.toString().trim()
}

describe("git objects named by id", () => {
  let root: string
  let ws: string
  const id: Record<string, string> = {}
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-gitobjects-")))
    ws = join(root, "ws")
    mkdirSync(ws)
    git(ws, "init", "-q")
    writeFileSync(join(ws, "x.txt"), "x\n")
    git(ws, "add", "x.txt")
    git(ws, "commit", "-qm", "one")
    // staged, then unstaged and deleted: a dangling blob
    writeFileSync(join(ws, ".env"), "API_KEY=FAKESECRET-dangling2\n")
    git(ws, "add", "-f", ".env")
    id.dangling = git(ws, "rev-parse", ":.env")
    git(ws, "reset", "-q", ".env")
    rmSync(join(ws, ".env"))
    // staged only
    writeFileSync(join(ws, ".env.prod"), "API_KEY=FAKESECRET-staged\n")
    git(ws, "add", "-f", ".env.prod")
    id.staged = git(ws, "rev-parse", ":.env.prod")
    // an ordinary staged file and a committed one
    writeFileSync(join(ws, "notes.md"), "hello\n")
    git(ws, "add", "notes.md")
    id.notes = git(ws, "rev-parse", ":notes.md")
    id.x = git(ws, "rev-parse", "HEAD:x.txt")
    id.commit = git(ws, "rev-parse", "HEAD")
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const decideIn = async (command: string) => {
    const policy = bundledPolicy("default")
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, home: join(root, "home"), tmpDirs: [], policy })
    return decide(policy, call, { grants: [] })
  }

  test("a blob is placed by the index and the history; one nothing holds is not", () => {
    expect(placeObjects(ws, [id.staged!])).toEqual({ paths: [".env.prod"] })
    expect(placeObjects(ws, [id.x!.slice(0, 8)])).toEqual({ paths: ["x.txt"] })
    expect(placeObjects(ws, [id.commit!, "HEAD", "blob"])).toEqual({ paths: [] })
    expect(placeObjects(ws, [id.dangling!]).unplaced).toContain("held by no commit")
  })

  test("the dangling blob read by its id (full or short) asks high", async () => {
    const d7 = id.dangling!.slice(0, 7)
    for (const command of [`git cat-file -p ${id.dangling}`, `git show ${id.dangling}`, `git cat-file -p ${d7}`, `git show ${id.dangling!.slice(0, 12)}`, `git cat-file blob ${d7}`, `git --no-pager show ${d7}`, `git diff ${id.x} ${d7}`, `git cat-file -p ${d7}^{blob}`,
      // git show prints a blob whole whatever the diff options
      `git show -s ${d7}`, `git show --stat ${d7}`, `git show --name-only ${d7}`]) {
      const d = await decideIn(command)
      expect({ command, decision: d.decision, risk: d.risk }).toEqual({ command, decision: "ask", risk: "high" })
      expect(d.reason).toContain("held by no commit")
    }
  })

  test("a staged credential file's blob asks high naming the file", async () => {
    for (const command of [`git cat-file -p ${id.staged}`, `git show ${id.staged!.slice(0, 10)}`, `git cat-file blob ${id.staged}`]) {
      const d = await decideIn(command)
      expect({ command, decision: d.decision, risk: d.risk }).toEqual({ command, decision: "ask", risk: "high" })
      expect(d.reason).toContain(".env.prod")
    }
  })

  test("ordinary objects and the listings stay allowed", async () => {
    for (const command of [`git cat-file -p ${id.x}`, `git show ${id.notes!.slice(0, 7)}`, `git cat-file -p ${id.commit}`, "git show HEAD", "git show -s HEAD", "git show --stat HEAD", `git diff --stat ${id.x} ${id.dangling}`, "git cat-file -p HEAD", "git fsck --dangling", "git ls-files -s", `git cat-file -t ${id.dangling}`]) {
      const d = await decideIn(command)
      expect({ command, decision: d.decision }).toEqual({ command, decision: "allow" })
    }
  })
})
