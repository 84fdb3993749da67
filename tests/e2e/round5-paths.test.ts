// Review 5B, paths: what bash really reaches through a command's own descriptors (/dev/fd/N reopens the
// file the command redirected there), below a folder opened on a descriptor, past PATH_MAX, in another
// account's home and in credential stores that were not listed. Each attack is first proven in bash in
// the sandbox (a fake secret, a marker), then `ccode policy check` (and a Claude hook call) must ask.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { ccode, policyCheck, sandbox, type Sandbox } from "./harness.ts"

describe("round 5 paths", () => {
  let sb: Sandbox
  const bash = (script: string, cwd = sb.work) => Bun.spawnSync(["bash", "-c", script], { cwd, env: sb.env, stdin: "ignore" })

  beforeAll(() => {
    sb = sandbox()
    writeFileSync(join(sb.home, ".netrc"), "machine x login y password FAKESECRET-netrc\n")
    mkdirSync(join(sb.home, ".aws"))
    writeFileSync(join(sb.home, ".aws", "credentials"), "aws_secret_access_key = FAKESECRET-aws\n")
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  const hookBash = async (command: string) => {
    const stdin = JSON.stringify({ session_id: "s1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, cwd: sb.work })
    const r = await ccode(sb, ["hook", "claude"], { stdin })
    expect(r.code).toBe(0)
    return r.stdout.trim() ? (JSON.parse(r.stdout).hookSpecificOutput as { permissionDecision: string; permissionDecisionReason: string }) : undefined
  }

  test("a write to /dev/fd/0 after 0<FILE rewrites FILE: proven in bash, and ccode asks", async () => {
    const rc = join(sb.home, ".bashrc")
    for (const command of ["echo evil 0<~/.bashrc 1>/dev/fd/0", "echo evil <~/.bashrc >/proc/self/fd/0", "echo evil 2<~/.bashrc 1>/dev/stderr"]) {
      writeFileSync(rc, "# rc\n")
      expect(bash(command).exitCode).toBe(0)
      expect(readFileSync(rc, "utf8")).toBe("evil\n")
      // the verdict follows the command's descriptors, not ccode's own (stdin /dev/null, stderr a pipe)
      const d = await policyCheck(sb, command)
      expect([d.decision, d.risk]).toEqual(["ask", "critical"])
      expect(d.reason).toContain(`${sb.home}/.bashrc`)
      const hook = await hookBash(command)
      expect(hook?.permissionDecision).toBe("ask")
    }
  })

  test("the repository's .git/config written through /dev/fd/0 makes the next git status run a program", async () => {
    const repo = join(sb.root, "r1")
    mkdirSync(repo)
    expect(bash("git init -q . && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m x", repo).exitCode).toBe(0)
    const marker = join(sb.root, "PWNED")
    const command = `printf '[core]\\n\\tfsmonitor=touch ${marker}\\n' 0<.git/config 1>>/dev/fd/0`
    expect(bash(command, repo).exitCode).toBe(0)
    bash("git status >/dev/null 2>&1", repo)
    expect(Bun.file(marker).size).toBe(0) // exists (an empty file from touch)
    expect(await Bun.file(marker).exists()).toBe(true)
    const d = await policyCheck(sb, command, { cwd: repo })
    expect([d.decision, d.risk]).toEqual(["ask", "critical"])
    expect(d.reason).toContain(".git/config")
  })

  test("a read below a folder opened on a descriptor reads the secret: proven in bash, and ccode asks high", async () => {
    for (const command of ["cat /dev/fd/9/.netrc 9<~", "cat /dev/stdin/.netrc <~", "cat /proc/self/fd/3/.netrc 3<~", "{ cat /dev/fd/9/.netrc; } 9<~"]) {
      expect(bash(command).stdout.toString()).toContain("FAKESECRET-netrc")
      const d = await policyCheck(sb, command)
      expect([d.decision, d.risk]).toEqual(["ask", "high"])
      expect(d.reason).toContain(`${sb.home}/.netrc`)
    }
    expect(bash("cat /dev/fd/7/.aws/credentials 7<~").stdout.toString()).toContain("FAKESECRET-aws")
    const d = await policyCheck(sb, "cat /dev/fd/7/.aws/credentials 7<~")
    expect(d.decision).toBe("ask")
    expect(d.reason).toContain(".aws")
  })

  test("a descriptor the command does not open is not known: medium below it, high for a write", async () => {
    const read = await policyCheck(sb, "cat /dev/fd/9/notes")
    expect([read.decision, read.risk]).toEqual(["ask", "medium"])
    expect(read.reason).toContain("/dev/fd/9/notes")
    expect(read.reason).toContain("descriptor")
    const write = await policyCheck(sb, "echo x >/dev/fd/0")
    expect([write.decision, write.risk]).toEqual(["ask", "high"])
    expect(write.reason).toContain("/dev/fd/0")
  })

  test("the caller's own output and a pipe stay allowed", async () => {
    for (const command of ["echo done >/dev/stderr", "echo done 1>&2", "ls 2>&1 | head -n 1", "echo x | cat /dev/stdin", "diff <(echo a) <(echo a)"]) {
      const d = await policyCheck(sb, command)
      expect({ command, decision: d.decision }).toEqual({ command, decision: "allow" })
    }
  })

  test("a path past PATH_MAX whose link/.. leads out: proven in bash, and ccode does not call it missing", async () => {
    const ws = join(sb.root, "deep")
    mkdirSync(ws)
    mkdirSync(join(sb.home, "sub"))
    // 2041 folders `a` (the relative path fits in PATH_MAX, the absolute one does not), then a link out
    const deep = "a/".repeat(2041)
    try {
      expect(bash(`mkdir -p ${deep} && ln -s ${sb.home}/sub ${deep}l`, ws).exitCode).toBe(0)
      // .pause: a credential only in a home (short: the path must fit in PATH_MAX; a workspace's .netrc or
      // .boto would ask by its name alone)
      writeFileSync(join(sb.home, ".pause"), "*:*:*:*:FAKESECRET-pgpass\n")
      const rel = `${deep}l/../.pause`
      expect(bash(`cat ${rel}`, ws).stdout.toString()).toContain("FAKESECRET-pgpass")
      const d = await policyCheck(sb, `cat ${rel}`, { cwd: ws })
      expect(d.decision).toBe("ask")
      expect(d.risk).toBe("medium")
      expect(d.reason).toContain("ENAMETOOLONG")
    } finally {
      // rm walks the tree with relative steps; a recursive rm by absolute paths would fail past PATH_MAX
      bash(`rm -rf ${ws}`)
    }
  }, 60_000)

  test("credential stores named by review 5B ask (a workspace's .npmrc, ~/.claude.json, an SSH key by name, /proc/PID/mem)", async () => {
    writeFileSync(join(sb.home, ".claude.json"), '{"mcpServers":{"gh":{"env":{"GITHUB_TOKEN":"FAKESECRET-mcp"}}}}')
    sb.file(".npmrc", "//registry.npmjs.org/:_authToken=FAKESECRET-npm\n")
    sb.file("deploy/id_ed25519", "FAKESECRET-key\n")
    for (const [command, secret] of [["cat ~/.claude.json", "FAKESECRET-mcp"], ["cat .npmrc", "FAKESECRET-npm"], ["cat deploy/id_ed25519", "FAKESECRET-key"]] as const) {
      expect(bash(command).stdout.toString()).toContain(secret)
      const d = await policyCheck(sb, command)
      expect({ command, decision: d.decision, risk: d.risk }).toEqual({ command, decision: "ask", risk: "high" })
      expect(d.reason).toContain("is where credentials are kept")
    }
    const mem = await policyCheck(sb, "strings /proc/1/mem")
    expect([mem.decision, mem.risk]).toEqual(["ask", "high"])
  })

  test("a repository's .git/config holding actions/checkout's token: git config -l asks, an ordinary one stays allowed", async () => {
    const repo = join(sb.root, "r2")
    mkdirSync(repo)
    expect(bash("git init -q .", repo).exitCode).toBe(0)
    const plain = await policyCheck(sb, "git config -l", { cwd: repo })
    expect(plain.decision).toBe("allow")
    expect(bash("git config http.https://github.com/.extraheader 'AUTHORIZATION: basic RkFLRVNFQ1JFVC1naHRva2Vu'", repo).exitCode).toBe(0)
    expect(bash("git config --get-regexp extraheader", repo).stdout.toString()).toContain("RkFLRVNFQ1JFVC1naHRva2Vu")
    for (const command of ["git config -l", "git config --get-regexp extraheader", "cat .git/config"]) {
      const d = await policyCheck(sb, command, { cwd: repo })
      expect({ command, decision: d.decision, risk: d.risk }).toEqual({ command, decision: "ask", risk: "high" })
      expect(d.reason).toContain("extraheader")
      expect(d.reason).not.toContain("RkFLRVNF")
    }
  })

  test("another account's home: ~root and /root while HOME is elsewhere", async () => {
    // the bundled policy's ~/.aws/** and ~/.ssh/** (critical) count below every home, as the built-in list (high)
    for (const [command, risk] of [["cat ~root/.netrc", "high"], ["cat /root/.aws/credentials", "critical"], ["cat /home/*/.ssh/id_ed25519", "critical"]] as const) {
      const d = await policyCheck(sb, command)
      expect({ command, decision: d.decision, risk: d.risk }).toEqual({ command, decision: "ask", risk })
    }
  })

  test("a link in the workspace into /dev/fd is judged, never resolved in ccode's process", async () => {
    symlinkSync("/dev/fd/0", join(sb.work, "in"))
    try {
      const d = await policyCheck(sb, "echo x > in")
      expect(d.decision).toBe("ask")
      expect(d.reason).toContain("/dev/fd")
    } finally {
      rmSync(join(sb.work, "in"))
    }
  })
})
