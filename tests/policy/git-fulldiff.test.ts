// `git log --full-diff -p -- f`: the pathspec picks the commits that touch f, and git prints each one's
// whole diff: a committed .env beside f is printed. With --full-diff the pathspec narrows nothing.
// `git log -p ..feat2` likewise: an empty end of a range is HEAD, not a path that narrows the diff.
// A real repository, decided under the bundled default policy.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
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

describe("git --full-diff prints every file of the commits a pathspec picks", () => {
  let ws: string
  beforeAll(async () => {
    await loadParser()
    ws = realpathSync(mkdtempSync(join(tmpdir(), "ccode-fulldiff-")))
    git(ws, "init", "-q")
    writeFileSync(join(ws, "g"), "g\n")
    git(ws, "add", "g")
    git(ws, "commit", "-qm", "base")
    git(ws, "checkout", "-qb", "feat2")
    writeFileSync(join(ws, "f"), "f\n")
    writeFileSync(join(ws, ".env"), "API_KEY=FAKESECRET-env2\n")
    git(ws, "add", "-f", "f", ".env")
    git(ws, "commit", "-qm", "both")
    git(ws, "rm", "-q", ".env")
    git(ws, "commit", "-qm", "drop")
    git(ws, "checkout", "-q", "main")
  })
  afterAll(() => rmSync(ws, { recursive: true, force: true }))

  const decideDefault = async (command: string) => {
    const policy = bundledPolicy("default")
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, home: "/nonexistent", tmpDirs: ["/nonexistent-tmp"], policy })
    return decide(policy, call, { grants: [] })
  }

  test("the attack is real: git prints the .env line", () => {
    expect(git(ws, "log", "--all", "--full-diff", "-p", "--", "f")).toContain("FAKESECRET-env2")
  })

  test("every spelling asks", async () => {
    for (const command of ["git log --all --full-diff -p -- f", "git log --full-diff -p feat2 -- f", "git log --all --full-diff --format= -p -- f", "git log --all --full-diff -U0 -- f",
      "git whatchanged --all --full-diff -p -- f", "git log --all --full-diff --patch-with-raw -- f", "git log --all --full-diff --cc -- f", "git show feat2~1 --full-diff -- f"]) {
      const d = await decideDefault(command)
      expect({ command, decision: d.decision }).toEqual({ command, decision: "ask" })
    }
  })

  test("a range with an empty left end (`..REV`, `...REV`: HEAD is the other end) is a revision, not a path", async () => {
    expect(git(ws, "log", "-p", "..feat2")).toContain("FAKESECRET-env2")
    for (const command of ["git log -p ..feat2", "git log -p ...feat2", "git log -p ..feat2~1", "git show ..feat2", "git show ...feat2", "git whatchanged -p ...feat2", "git diff ...feat2~1", "git diff ..feat2~1", "git log -p --left-right ...feat2"]) {
      const d = await decideDefault(command)
      expect({ command, decision: d.decision }).toEqual({ command, decision: "ask" })
    }
  })

  test("control: without --full-diff the pathspec narrows the printed diff to f", async () => {
    expect(git(ws, "log", "--all", "-p", "--", "f")).not.toContain("FAKESECRET")
    expect((await decideDefault("git log --all -p -- f")).decision).toBe("allow")
  })
})
