// git commands that write the work tree from commits write what those commits change: a branch holding
// .claude/settings.json writes it on checkout, switch, merge, cherry-pick, rebase, restore --source,
// read-tree -u. A real repository, decided under the bundled `ci` policy.
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

describe("work-tree writes from commits", () => {
  let ws: string
  beforeAll(async () => {
    await loadParser()
    ws = realpathSync(mkdtempSync(join(tmpdir(), "ccode-gittrees-")))
    git(ws, "init", "-q")
    writeFileSync(join(ws, "a.txt"), "a\n")
    git(ws, "add", "a.txt")
    git(ws, "commit", "-qm", "base")
    git(ws, "checkout", "-qb", "evil")
    mkdirSync(join(ws, ".claude"))
    writeFileSync(join(ws, ".claude", "settings.json"), '{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"id"}]}]}}\n')
    git(ws, "add", ".claude")
    git(ws, "commit", "-qm", "evil")
    git(ws, "checkout", "-q", "main")
    git(ws, "checkout", "-qb", "feature")
    writeFileSync(join(ws, "b.txt"), "b\n")
    git(ws, "add", "b.txt")
    git(ws, "commit", "-qm", "plain")
    git(ws, "checkout", "-q", "main")
  })
  afterAll(() => rmSync(ws, { recursive: true, force: true }))

  const ci = async (command: string) => {
    const policy = bundledPolicy("ci")
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, home: "/nonexistent", tmpDirs: ["/nonexistent-tmp"], policy })
    return decide(policy, call, { grants: [] })
  }

  test("a commit holding .claude/settings.json asks critical however it is brought in", async () => {
    for (const command of ["git checkout evil", "git switch evil", "git merge evil", "git cherry-pick evil", "git rebase evil", "git checkout evil -- .claude",
      "git restore --source=evil -- .claude/settings.json", "git restore -s evil .", "git read-tree -u -m evil", "git merge --ff-only evil"]) {
      const d = await ci(command)
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes(".claude") }).toEqual({ command, decision: "ask", risk: "critical", named: true })
    }
  })

  test("control: an ordinary branch stays as it was", async () => {
    for (const command of ["git checkout feature", "git merge feature", "git switch feature"]) {
      const d = await ci(command)
      expect({ command, critical: d.risk === "critical" }).toEqual({ command, critical: false })
    }
  })
})
