// Attack review 2, section D, against the compiled binary: repository configs git reads differently
// from a naive line reader (a comment or an escaped backslash at the end of a line), submodule configs,
// a work tree elsewhere, the man viewer, blame's and fsck's list files, the attributes file; and the
// environment printed by jq and awk. Each attack is first proven real with bash (a fake secret in the
// sandbox's ~/.netrc or environment), then ccode must ask with a reason naming the key or construct.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, rmSync, writeFileSync, appendFileSync } from "node:fs"
import { join } from "node:path"
import { gitIn, bashIn, policyCheck, sandbox, type Sandbox } from "./harness.ts"

describe("round 2 table attacks are real and ask", () => {
  let sb: Sandbox
  const NETRC = "machine x login u password netrc-round2-secret"
  const ENV_SECRET = "env-round2-secret"
  beforeAll(() => {
    sb = sandbox()
    writeFileSync(join(sb.home, ".netrc"), `${NETRC}\n`)
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  const env = () => ({ GIT_CONFIG_NOSYSTEM: "1", ROUND2_TOKEN: ENV_SECRET })
  const sh = (command: string, cwd: string) => bashIn(sb, command, cwd, env())
  const git = (cwd: string, ...args: string[]) => gitIn(sb, cwd, args, env())
  // a repository with one committed file f, as the workspace
  const repo = (name: string) => {
    const dir = join(sb.root, name)
    mkdirSync(dir)
    git(dir, "init", "-q")
    writeFileSync(join(dir, "f"), "hello\n")
    git(dir, "add", "f")
    git(dir, "commit", "-qm", "init")
    return dir
  }
  const check = (command: string, cwd: string) => policyCheck(sb, command, { cwd, env: { ROUND2_TOKEN: ENV_SECRET } })
  const asks = async (command: string, cwd: string, named: string) => {
    const d = await check(command, cwd)
    expect({ command, decision: d.decision, risk: d.risk, named: d.reason.toLowerCase().includes(named.toLowerCase()), reason: d.reason }).toEqual({ command, decision: "ask", risk: "medium", named: true, reason: d.reason })
  }
  const allows = async (command: string, cwd: string) => {
    const d = await check(command, cwd)
    expect({ command, decision: d.decision, reason: d.reason }).toEqual({ command, decision: "allow", reason: d.reason })
  }

  test.each([
    ["a comment ending in a backslash", "\teditor = vi ; see docs \\\n"],
    ["an escaped backslash at the end of a value", "\tx = a\\\\\n"],
  ])("D4: core.fsmonitor after %s runs on git status: asks", async (_, line) => {
    const dir = repo(`d4-${_.replace(/\W+/g, "-")}`)
    appendFileSync(join(dir, ".git", "config"), `[core]\n${line}\tfsmonitor = "cat ~/.netrc >&2; false"\n`)
    expect(sh("git status --short", dir)).toContain(NETRC)
    await asks("git status --short", dir, "core.fsmonitor")
  })

  test("D4: a real continuation makes the next line value: git runs nothing, git status stays allowed", async () => {
    const dir = repo("d4-continued")
    appendFileSync(join(dir, ".git", "config"), `[user]\n\tnote = a \\\n\tfsmonitor = "cat ~/.netrc >&2; false"\n`)
    expect(sh("git status --short", dir)).not.toContain(NETRC)
    await allows("git status --short", dir)
  })

  test("D5: core.fsmonitor in a submodule's config runs on git status and git diff in the superproject: asks", async () => {
    const src = repo("d5-subsrc")
    const dir = repo("d5-super")
    git(dir, "-c", "protocol.file.allow=always", "submodule", "add", "-q", src, "sub")
    git(dir, "commit", "-qm", "sub")
    await allows("git status --short", dir)
    appendFileSync(join(dir, ".git", "modules", "sub", "config"), `[core]\n\tfsmonitor = "cat ~/.netrc >&2; false"\n`)
    expect(sh("git status --short", dir)).toContain(NETRC)
    expect(sh("git diff", dir)).toContain(NETRC)
    await asks("git status --short", dir, "core.fsmonitor")
    await asks("git diff", dir, "core.fsmonitor")
  })

  test("D5: a submodule recorded in the index with a .git folder of its own: its core.fsmonitor runs on git status, asks", async () => {
    const dir = repo("d5-nested")
    const sub = join(dir, "sub")
    mkdirSync(sub)
    git(sub, "init", "-q")
    git(sub, "commit", "-q", "--allow-empty", "-m", "i")
    git(dir, "add", "sub")
    await allows("git status --short", dir)
    appendFileSync(join(sub, ".git", "config"), `[core]\n\tfsmonitor = "cat ~/.netrc >&2; false"\n`)
    expect(sh("git status --short", dir)).toContain(NETRC)
    await asks("git status --short", dir, "core.fsmonitor")
  })

  test("D5: core.worktree in the home with index entries for .netrc: git diff prints it, asks", async () => {
    const dir = repo("d5-worktree")
    const blob = git(dir, "hash-object", "-w", "f")
    git(dir, "update-index", "--add", "--cacheinfo", `100644,${blob},.netrc`)
    git(dir, "config", "core.worktree", sb.home)
    expect(sh("git diff", dir)).toContain(NETRC)
    // either reason stops it: the work tree outside the workspace, or the tracked .netrc git diff prints
    const d = await check("git diff", dir)
    expect({ decision: d.decision, named: /core\.worktree|\.netrc/.test(d.reason), reason: d.reason }).toEqual({ decision: "ask", named: true, reason: d.reason })
  })

  test("D5: man.viewer and man.<tool>.cmd run on git help and git log --help: ask; git status stays allowed", async () => {
    const dir = repo("d5-man")
    appendFileSync(join(dir, ".git", "config"), `[man]\n\tviewer = x\n[man "x"]\n\tcmd = cat ~/.netrc >&2; false #\n`)
    expect(sh("git help log", dir)).toContain(NETRC)
    await asks("git help log", dir, "man.viewer")
    await asks("git log --help", dir, "man.viewer")
    await allows("git status", dir)
  })

  test("D5: core.hooksPath outside the workspace: git status runs its post-index-change hook, asks", async () => {
    const dir = repo("d5-hooks")
    const hooks = join(sb.root, "hooks-elsewhere")
    mkdirSync(hooks)
    writeFileSync(join(hooks, "post-index-change"), "#!/bin/sh\ncat ~/.netrc >&2\n", { mode: 0o755 })
    git(dir, "config", "core.hooksPath", hooks)
    // a changed stat makes git status rewrite the index, which raises post-index-change
    sh("touch -d '2001-01-01' f", dir)
    expect(sh("git status --short", dir)).toContain(NETRC)
    await asks("git status --short", dir, "core.hooksPath")
  })

  test.each([
    ["blame.ignoreRevsFile", "git blame f"],
    ["fsck.skipList", "git fsck"],
    ["core.attributesFile", "git check-attr -a machine"],
  ])("D5: %s naming ~/.netrc leaks its lines through %s: asks; git log stays allowed", async (key, command) => {
    const dir = repo(`d5-${key.replace(/\W+/g, "-")}`)
    git(dir, "config", key, join(sb.home, ".netrc"))
    expect(sh(command, dir)).toContain(key === "core.attributesFile" ? "netrc-round2-secret: set" : NETRC)
    await asks(command, dir, key)
    await allows("git log --oneline", dir)
  })

  test.each([
    ["jq -n env", "jq program reads env or $ENV"],
    ["jq -n '$ENV'", "jq program reads env or $ENV"],
    ["awk 'BEGIN{for(k in ENVIRON) print k\"=\"ENVIRON[k]}'", "reads ENVIRON as a whole"],
    ["declare -x", "prints the environment"],
    ["export -p", "prints the environment"],
    ["make -p", "make -p prints its database"],
  ])("D1: %s prints the environment's secrets: asks", async (command, named) => {
    expect(sh(command, sb.work)).toContain(ENV_SECRET)
    await asks(command, sb.work, named)
  })

  test.each(["jq -n env.HOME", "awk 'BEGIN{print ENVIRON[\"HOME\"]}'", "git status", "git blame f", "git help -a"])("%s in a plain repository stays allowed", async (command) => {
    const dir = join(sb.root, "plain")
    if (!Bun.file(join(dir, "f")).size) repo("plain")
    await allows(command, dir)
  })
})
