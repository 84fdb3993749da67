// Round 11: in a partial clone, every git command that can read a tree or a file's content fetches what is
// missing from the promisor remote (network): `git reflog -p`, `git rev-parse REV:path`, `git ls-files
// --with-tree=REV`, `git describe --dirty`, `git fast-export`. The commands that read only refs, commits and
// the index stay allowed. Real partial clones over file:// in a temp folder; the fetch is proven by git's
// own count of missing objects.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"

let root: string
let home: string
const ENV = () => ({ ...process.env, GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@x", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@x", GIT_CONFIG_NOSYSTEM: "1", HOME: home })
function git(cwd: string, ...args: string[]): string {
  const r = Bun.spawnSync(["git", "-c", "init.defaultBranch=main", "-c", "protocol.file.allow=always", ...args], { cwd, env: ENV() })
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`)
  return r.stdout.toString().trim()
}
const packs = (ws: string) => Number(/^packs: (\d+)$/m.exec(git(ws, "count-objects", "-v"))![1])
const missing = (ws: string) => git(ws, "rev-list", "--objects", "--all", "--missing=print").split("\n").filter((l) => l.startsWith("?")).length

describe("partial clones: reads outside the old list fetch too", () => {
  let src: string
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-r11lazy-")))
    home = join(root, "home")
    mkdirSync(home)
    src = join(root, "src")
    mkdirSync(src)
    git(src, "init", "-q")
    writeFileSync(join(src, "f"), "one\n")
    git(src, "add", "-A")
    git(src, "commit", "-qm", "one")
    writeFileSync(join(src, "f"), "two\n")
    git(src, "commit", "-qam", "two")
    git(src, "config", "uploadpack.allowFilter", "true")
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const decideIn = async (ws: string, command: string) => {
    const policy = bundledPolicy("default")
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, home, env: { HOME: home }, tmpDirs: [], policy })
    return decide(policy, call, { grants: [] })
  }

  test("the attacks are real: git reflog -p and git rev-parse REV:path fetch", () => {
    const pc = join(root, "pc")
    git(root, "clone", "-q", "--filter=blob:none", `file://${src}`, pc)
    const before = missing(pc)
    git(pc, "reflog", "-p")
    expect({ before: before > 0, after: missing(pc) }).toEqual({ before: true, after: 0 })
    const pc2 = join(root, "pc2")
    git(root, "clone", "-q", "--no-checkout", "--filter=tree:0", `file://${src}`, pc2)
    const before2 = packs(pc2)
    git(pc2, "rev-parse", "HEAD~1:f")
    expect(packs(pc2)).toBeGreaterThan(before2)
  })

  test("each read of a tree or content asks medium naming the partial clone", async () => {
    const ws = join(root, "pc3")
    git(root, "clone", "-q", "--filter=blob:none", `file://${src}`, ws)
    const cmds = ["git reflog -p", "git reflog show -p", "git reflog --patch", "git reflog --stat", "git reflog show HEAD f", "git rev-parse HEAD~1:f", "git rev-parse --verify HEAD:f", "git ls-files --with-tree=HEAD~1", "git ls-files --with-t HEAD~1", "git describe --dirty --always", "git shortlog HEAD"]
    for (const command of cmds) {
      const d = await decideIn(ws, command)
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes("partial clone") }).toEqual({ command, decision: "ask", risk: "medium", named: true })
    }
  })

  test("controls: refs, commits and the index stay allowed", async () => {
    const ws = join(root, "pc3")
    for (const command of ["git reflog", "git reflog show HEAD", "git reflog --date=iso", "git rev-parse HEAD", "git rev-parse --show-toplevel", "git rev-parse :f", "git ls-files", "git ls-files -s", "git branch -a", "git tag -l", "git describe --always", "git worktree list", "git merge-base HEAD HEAD~1", "git for-each-ref"]) {
      const d = await decideIn(ws, command)
      expect({ command, decision: d.decision, reason: d.reason }).toEqual({ command, decision: "allow", reason: d.reason })
    }
    // the index-only commands are judged as they were (a commit changes the repository), not as fetches
    for (const command of ["git commit -m x", "git rm --cached f", "git mv f g"]) expect({ command, fetch: (await decideIn(ws, command)).reason.includes("partial clone") }).toEqual({ command, fetch: false })
  })
})
