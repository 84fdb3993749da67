// Review 6B, git state: what git prints of a repository without naming the files (a committed .env in
// the history, a tracked one in the index), a git config token reached by a recursive read, `git var -l`,
// a config.worktree and a linked worktree. Each attack is first proven in bash in the sandbox (a fake
// secret), then `ccode policy check` must ask and name the cause; the everyday forms stay allowed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { ccode, policyCheck, sandbox, type Sandbox } from "./harness.ts"

describe("round 6 git", () => {
  let sb: Sandbox
  let repo: string
  let cfg: string
  const bash = (script: string, cwd: string) => Bun.spawnSync(["bash", "-c", script], { cwd, env: { ...sb.env, GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@x", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@x" }, stdin: "ignore" })
  const out = (script: string, cwd: string) => bash(script, cwd).stdout.toString()

  beforeAll(() => {
    sb = sandbox()
    // the "oops, committed .env" state: in HEAD~1, removed from the index in HEAD, still on disk untracked
    repo = join(sb.work, "app")
    mkdirSync(join(repo, "src"), { recursive: true })
    writeFileSync(join(repo, ".env"), "TOKEN=FAKESECRET-env\n")
    writeFileSync(join(repo, "src", "a.ts"), "export const a = 1\n")
    const past = new Date(Date.now() - 120_000)
    for (const f of [".env", "src/a.ts"]) utimesSync(join(repo, f), past, past)
    expect(bash("git init -q -b main . && git add -A && git commit -qm one && git rm -q --cached .env && echo .env > .gitignore && git add .gitignore && git commit -qm two", repo).exitCode).toBe(0)
    // a repository whose config holds a token in the remote URL
    cfg = join(sb.work, "cfg")
    mkdirSync(cfg)
    expect(bash("git init -q . && git remote add origin https://user:FAKESECRET-ghtoken@127.0.0.1/x.git", cfg).exitCode).toBe(0)
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  test("the history's patches, a tree grep and a blob by hash print the committed .env: proven, and ccode asks", async () => {
    const blob = out("git rev-parse --short HEAD~1:.env", repo).trim()
    for (const command of ["git show HEAD~1", "git log -p", "git diff HEAD~1", "git grep TOKEN HEAD~1", `git cat-file -p ${blob}`, "git grep TOKEN HEAD~1:", "git grep --untracked --no-exclude-standard TOKEN", "git show"]) {
      expect({ command, out: out(command, repo).includes("FAKESECRET-env") }).toEqual({ command, out: true })
      const d = await policyCheck(sb, command, { cwd: repo })
      expect({ command, decision: d.decision, named: d.reason.includes(".env") }).toEqual({ command, decision: "ask", named: true })
    }
  })

  test("the everyday git commands of the same repository stay allowed", async () => {
    // (git show: HEAD is the commit that removed .env from the index, so it prints the .env's lines)
    for (const command of ["git status", "git log", "git log --oneline", "git show --stat", "git diff", "git diff HEAD", "git log -p -- src", "git grep export", "git show HEAD:src/a.ts"]) {
      const d = await policyCheck(sb, command, { cwd: repo })
      expect({ command, decision: d.decision, reason: d.reason }).toEqual({ command, decision: "allow", reason: d.reason })
    }
  })

  test("a token in .git/config read by grep -r, cat .git/*, git var -l: proven, and ccode asks high naming the key", async () => {
    for (const command of ["grep -r FAKESECRET .", "cat .git/*", "git var -l"]) {
      expect({ command, out: out(`${command} 2>/dev/null`, cfg).includes("FAKESECRET-ghtoken") }).toEqual({ command, out: true })
      const d = await policyCheck(sb, command, { cwd: cfg })
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes("remote.origin.url"), leaked: d.reason.includes("FAKESECRET") }).toEqual({ command, decision: "ask", risk: "high", named: true, leaked: false })
    }
  })

  test("Claude's Grep over .git (ripgrep: an explicitly named hidden folder is searched) asks", async () => {
    const stdin = JSON.stringify({ session_id: "s1", hook_event_name: "PreToolUse", tool_name: "Grep", tool_input: { pattern: "FAKESECRET", path: join(cfg, ".git") }, cwd: cfg })
    const r = await ccode(sb, ["hook", "claude"], { stdin, cwd: cfg })
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout).hookSpecificOutput as { permissionDecision: string; permissionDecisionReason: string }
    expect(out.permissionDecision).toBe("ask")
    expect(out.permissionDecisionReason).toContain("remote.origin.url")
  })

  test("a linked worktree: git remote -v is judged (no crash) and a config.worktree token asks", async () => {
    const main = join(sb.work, "wtmain")
    const wt = join(sb.work, "wtlinked")
    mkdirSync(main)
    expect(bash(`git init -q -b main . && git commit -q --allow-empty -m x && git config extensions.worktreeConfig true && git worktree add -q ${wt} -b side`, main).exitCode).toBe(0)
    let d = await policyCheck(sb, "git remote -v", { cwd: wt })
    expect(d.decision).toBe("allow")
    expect(bash("git config --worktree remote.up.url https://u:FAKESECRET-wt@127.0.0.1/y", wt).exitCode).toBe(0)
    expect(out("git remote -v", wt)).toContain("FAKESECRET-wt")
    d = await policyCheck(sb, "git remote -v", { cwd: wt })
    expect([d.decision, d.risk]).toEqual(["ask", "high"])
    expect(d.reason).toContain("remote.up.url")
  })
})
