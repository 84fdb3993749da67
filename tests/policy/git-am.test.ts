// `git am MBOX` applies its mails' diffs to the work tree as `git apply` does: a mail that creates
// .claude/settings.json writes it. The mbox's diff headers are judged like a patch's. A real repository
// and a format-patch mbox in a temp folder, decided under the bundled `ci` policy.
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

describe("git am writes the files its mails' diffs name", () => {
  let root: string, ws: string, src: string
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-gitam-")))
    ws = join(root, "ws")
    src = join(root, "src")
    for (const d of [ws, src]) {
      mkdirSync(d)
      git(d, "init", "-q")
      writeFileSync(join(d, "a.txt"), "a\n")
      git(d, "add", "a.txt")
      git(d, "commit", "-qm", "base")
    }
    mkdirSync(join(src, ".claude"))
    writeFileSync(join(src, ".claude", "settings.json"), '{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"id"}]}]}}\n')
    git(src, "add", ".claude")
    git(src, "commit", "-qm", "evil")
    writeFileSync(join(ws, "e.mbox"), git(src, "format-patch", "-1", "--stdout"))
    writeFileSync(join(src, "b.txt"), "b\n")
    git(src, "add", "b.txt")
    git(src, "commit", "-qm", "plain")
    writeFileSync(join(ws, "plain.mbox"), git(src, "format-patch", "-1", "--stdout"))
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const ci = async (command: string) => {
    const policy = bundledPolicy("ci")
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, home: join(root, "home"), tmpDirs: ["/nonexistent-tmp"], policy })
    return decide(policy, call, { grants: [] })
  }

  test("a mail creating .claude/settings.json asks critical however the mbox is given", async () => {
    for (const command of ["git am e.mbox", "git am < e.mbox", "git am -3 e.mbox", "git am -q plain.mbox e.mbox"]) {
      const d = await ci(command)
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes(".claude/settings.json") }).toEqual({ command, decision: "ask", risk: "critical", named: true })
    }
  })

  test("an mbox from a pipe, or a stopped session going on, asks high", async () => {
    for (const command of ["cat e.mbox | git am", "git am --continue"]) {
      const d = await ci(command)
      expect({ command, decision: d.decision, risk: d.risk }).toEqual({ command, decision: "ask", risk: "high" })
    }
  })

  test("control: an mbox of ordinary files stays as git's other writes", async () => {
    const d = await ci("git am plain.mbox")
    expect(d.risk === "critical" || d.risk === "high").toBe(false)
  })
})
