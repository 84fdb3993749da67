// A .env committed and then renamed (`git mv .env notes.txt`) is printed by its new name: `git show
// REV:notes.txt` and `git cat-file -p REV:notes.txt` look the blob up, and a blob ever committed under a
// credential's name is the credential. A real repository, decided under the bundled default policy.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"

const ENV = { ...process.env, GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@x", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@x", GIT_CONFIG_NOSYSTEM: "1", HOME: "/nonexistent" }
function git(cwd: string, ...args: string[]): string {
  const r = Bun.spawnSync(["git", "-c", "init.defaultBranch=main", ...args], { cwd, env: ENV })
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`)
  return r.stdout.toString()
}

describe("a credential renamed in history", () => {
  let ws: string
  beforeAll(async () => {
    await loadParser()
    ws = realpathSync(mkdtempSync(join(tmpdir(), "ccode-renamed-")))
    git(ws, "init", "-q")
    mkdirSync(join(ws, "src"))
    writeFileSync(join(ws, "src", "a.ts"), "export {}\n")
    writeFileSync(join(ws, ".env"), "API_KEY=FAKESECRET-ren\n")
    git(ws, "add", "-f", "src", ".env")
    git(ws, "commit", "-qm", "e")
    git(ws, "mv", ".env", "notes.txt")
    git(ws, "commit", "-qm", "mv")
    writeFileSync(join(ws, "notes.txt"), "clean\n")
    git(ws, "commit", "-qam", "clean")
  })
  afterAll(() => rmSync(ws, { recursive: true, force: true }))

  const decideDefault = async (command: string) => {
    const policy = bundledPolicy("default")
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, home: "/nonexistent", tmpDirs: ["/nonexistent-tmp"], policy })
    return decide(policy, call, { grants: [] })
  }

  test("show and cat-file of the renamed blob ask", async () => {
    expect(git(ws, "show", "HEAD~1:notes.txt")).toContain("FAKESECRET-ren")
    for (const command of ["git show HEAD~1:notes.txt", "git cat-file -p HEAD~1:notes.txt"]) {
      const d = await decideDefault(command)
      expect({ command, decision: d.decision }).toEqual({ command, decision: "ask" })
    }
  })

  test("controls: the file as it is now, another file and a folder stay allowed", async () => {
    for (const command of ["git show HEAD:notes.txt", "git show HEAD:src/a.ts", "git cat-file -p HEAD:src/a.ts", "git show HEAD:src"]) {
      const d = await decideDefault(command)
      expect({ command, decision: d.decision, reason: d.reason }).toEqual({ command, decision: "allow", reason: d.reason })
    }
  })
})
