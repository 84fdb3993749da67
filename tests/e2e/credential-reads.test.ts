// Reading where credentials live sends them to the model with the output. Two ways that used to be
// `allow safe` under the default policy: a credential store the policy's risk.paths did not list
// (~/.vault-token, ~/.azure, /etc/shadow, shell histories), and a glob whose match is a symlink the
// repository ships (`docs -> ~/.aws`): the analysis matched the glob against names only, bash matches
// it on disk and follows the link.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { policyCheck, ccode, sandbox, type Sandbox } from "./harness.ts"

describe("reads of credentials", () => {
  let sb: Sandbox
  const SECRET = "aws_secret_access_key = wJalrXUtnFEMI-test-secret"
  beforeAll(() => {
    sb = sandbox()
    mkdirSync(join(sb.home, ".aws"))
    writeFileSync(join(sb.home, ".aws", "credentials"), `[default]\n${SECRET}\n`)
    writeFileSync(join(sb.home, ".vault-token"), "hvs.test-token\n")
    mkdirSync(join(sb.work, "src"))
    writeFileSync(join(sb.work, "src", "a.ts"), "export {}\n")
    writeFileSync(join(sb.work, "README.md"), "hello\n")
    // what a cloned repository can carry: links to where the user's credentials are
    symlinkSync(join(sb.home, ".aws"), join(sb.work, "docs"))
    symlinkSync("../home/.vault-token", join(sb.work, "notes"))
    symlinkSync("/proc/self/cwd", join(sb.work, "here"))
    mkdirSync(join(sb.work, "sub", "deep"), { recursive: true })
    symlinkSync("../../../home/.aws/credentials", join(sb.work, "sub", "deep", "k"))
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  const check = (command: string) => policyCheck(sb, command)

  test("the attack is real: bash expands the glob through the shipped link and prints the secret", () => {
    const r = Bun.spawnSync(["bash", "-c", "cat */credentials"], { cwd: sb.work, env: sb.env })
    expect(r.stdout.toString()).toContain(SECRET)
  })

  test.each([
    ["cat */credentials", "/.aws/credentials"],
    ["cat **/credentials", "/.aws/credentials"],
    ["head -n 3 d*/cred*", "/.aws/credentials"],
    ["grep -h key ?ocs/*", "/.aws"],
    ["wc -c *", "/home/."],
    ["wc -c no*", "/.vault-token"],
    ["cat n[o]tes", "/.vault-token"],
  ])("%s reads through a link in the workspace: asks", async (command, target) => {
    const d = await check(command)
    expect(d.decision).toBe("ask")
    expect(["high", "critical"]).toContain(d.risk)
    expect(d.reason).toContain(target)
  })

  // a walk that follows the links it meets reads through `docs`; one that does not (grep -r, rg) does not
  test.each([
    ["grep -R key .", "/.aws"],
    ["grep -Rn key", "/.aws"],
    ["grep --deref key .", "/.aws"],
    ["rg -L key", "/.aws"],
    ["rg --follow key .", "/.aws"],
    ["ag -f key", "/.aws"],
    ["diff -r . src", "/.aws"],
    ["diff -rN src .", "/.aws"],
    ["grep -R key ./*", "/.aws"],
    ["grep -R key s*", "/.aws"],
    ["rg -L key [s]ub", "/.aws"],
  ])("%s walks through the link: asks", async (command, target) => {
    const d = await check(command)
    expect(d.decision).toBe("ask")
    expect(["high", "critical"]).toContain(d.risk)
    expect(d.reason).toContain(target)
  })

  test("the attack is real: grep -R prints the secret through the link, grep -r does not", () => {
    const follow = Bun.spawnSync(["grep", "-R", "aws_secret", "."], { cwd: sb.work, env: sb.env })
    expect(follow.stdout.toString()).toContain(SECRET)
    const plain = Bun.spawnSync(["grep", "-r", "aws_secret", "."], { cwd: sb.work, env: sb.env })
    expect(plain.stdout.toString()).not.toContain(SECRET)
  })

  test.each(["cd ~/.aws && cat WORK/here/credentials", "cat here/x", "echo x > here/y"])("%s goes through a link to /proc/self/cwd: asks", async (command) => {
    const d = await check(command.replace("WORK", sb.work))
    expect(d.decision).toBe("ask")
    expect(d.reason).toContain("a link into /proc or /dev/fd")
  })

  test.each([
    "cat ~/.vault-token",
    "cat ~/.azure/accessTokens.json",
    "cat ~/.bash_history",
    "tail ~/.config/rclone/rclone.conf",
    "cat ~/.pgpass",
    "cat ~/.claude/.credentials.json",
    "cat /etc/shadow",
    "cat /etc/sh*dow",
    "cat /etc/ssh/ssh_host_ed25519_key",
  ])("%s reads a credential store: asks, saying where credentials are kept", async (command) => {
    const d = await check(command)
    expect(d.decision).toBe("ask")
    expect(d.risk).toBe("high")
    expect(d.reason).toContain("is where credentials are kept")
  })

  test.each([
    "cat src/*.ts", "ls", "cat README.md", "wc -l src/*", "cat /etc/ssh/ssh_host_ed25519_key.pub", "cat /etc/passwd",
    "grep -r key .", "grep -rn key", "rg key", "grep -R export src", "rg -L export src", "diff -r --no-dereference . src", "diff -r src src",
  ])(
    "%s stays allowed",
    async (command) => {
      const d = await check(command)
      expect(d.decision).toBe("allow")
      expect(d.risk).toBe("safe")
    },
  )

  // the hosts' own tools: a glob in Gemini's read_many_files, a search below a folder holding credentials
  const hook = async (host: "claude" | "gemini", tool: string, input: Record<string, unknown>) => {
    const event = host === "claude" ? "PreToolUse" : "BeforeTool"
    const payload = { hook_event_name: event, session_id: "s1", tool_use_id: "t1", cwd: sb.work, tool_name: tool, tool_input: input }
    const r = await ccode(sb, ["hook", host], { stdin: JSON.stringify(payload) })
    expect(r.code).toBe(0)
    return r.stdout.trim() ? (JSON.parse(r.stdout) as Record<string, any>) : undefined
  }

  test.each([
    [{ include: ["*/credentials"] }, "/.aws/credentials"],
    [{ include: ["**"] }, "/.aws"],
    [{ include: ["~/.a*/cred*"] }, "/.a*/cred*"],
    [{ paths: ["README.md", "n?tes"] }, "/.vault-token"],
    [{ include: ["{docs,x}/credentials"] }, "/.aws/credentials"],
    [{ include: ["@(docs)/credentials"] }, "extended glob"],
    [{ include: ["/etc/{shadow,x}"] }, "/etc/shadow"],
  ])("gemini read_many_files %j asks", async (input, target) => {
    const answer = await hook("gemini", "read_many_files", input)
    expect(answer?.decision).toBe("ask")
    expect(answer?.reason).toContain(target)
  })

  test("gemini read_many_files of the workspace's own files is left to the host", async () => {
    expect(await hook("gemini", "read_many_files", { include: ["src/*.ts", "README.md"] })).toBeUndefined()
  })

  test.each([
    ["gemini", "grep_search", { pattern: "key", dir_path: "~" }],
    ["claude", "Grep", { pattern: "key", path: "/etc" }],
  ] as const)("%s %s below a folder holding credentials asks", async (host, tool, input) => {
    const answer = await hook(host, tool, input)
    const decision = host === "claude" ? answer?.hookSpecificOutput?.permissionDecision : answer?.decision
    expect(decision).toBe("ask")
  })

  test("claude Grep in the workspace is left to the host", async () => {
    expect(await hook("claude", "Grep", { pattern: "export", path: "src" })).toBeUndefined()
  })
})
