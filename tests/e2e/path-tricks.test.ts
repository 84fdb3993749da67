// Spellings of a credential path that bash resolves and the analysis once did not: `..` after a link
// the repository ships (the kernel goes up from where the link leads), POSIX classes and `?` in a glob
// matched on disk (a link name with an emoji), and `~` in an assignment's value. Each attack is first
// proved real with bash in the sandbox, then `policy check` must ask and name the real file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { policyCheck, ccode, sandbox, type Sandbox } from "./harness.ts"

describe("path tricks around links, globs and tilde", () => {
  let sb: Sandbox
  const SECRET = "aws_secret_access_key = wJalrXUtnFEMI-path-tricks"
  beforeAll(() => {
    sb = sandbox()
    mkdirSync(join(sb.home, ".aws"))
    writeFileSync(join(sb.home, ".aws", "credentials"), `[default]\n${SECRET}\n`)
    writeFileSync(join(sb.home, ".bashrc"), "# rc\n")
    mkdirSync(join(sb.work, "src"))
    writeFileSync(join(sb.work, "src", "a.ts"), "export {}\n")
    // what a cloned repository can carry: links to where the user's credentials are
    symlinkSync(join(sb.home, ".aws"), join(sb.work, "docs"))
    symlinkSync(join(sb.home, ".aws"), join(sb.work, "d😀cs"))
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  const bash = (command: string, env: Record<string, string> = {}) =>
    Bun.spawnSync(["bash", "-c", command], { cwd: sb.work, env: { ...sb.env, ...env } }).stdout.toString()
  const check = (command: string) => policyCheck(sb, command)

  test.each([
    // .. after a link is resolved on disk (review finding 12)
    ["cat docs/../.aws/credentials", {}],
    ["cd -P docs/..; cat .aws/credentials", {}],
    ["set -P; cd docs/..; cat .aws/credentials", {}],
    ["cd docs; cat ../.aws/credentials", {}],
    // bracket expressions and ? matched on disk through a link (findings 1, 16)
    ["cat [[:lower:]]*/cred*", {}],
    ["cat [[:alpha:]]ocs/credentials", {}],
    ["cat d?cs/credentials", {}],
    ["cat ??cs/credentials", {}],
    ["cat d????cs/credentials", { LANG: "C", LC_ALL: "C" }],
    // ~ in an assignment (finding 2)
    ["x=~; cat $x/.aws/credentials", {}],
    ["f=~/.aws/credentials; cat \"$f\"", {}],
    ["declare d=~/.aws; cat $d/credentials", {}],
    // an unquoted expansion's value is globbed
    ["f=~/.aws/cred*; cat $f", {}],
  ] as [string, Record<string, string>][])("%s prints the secret in bash, and ccode asks naming the real file", async (command, env) => {
    expect(bash(command, env)).toContain(SECRET)
    const d = await check(command)
    expect(d.decision).toBe("ask")
    expect(["high", "critical"]).toContain(d.risk)
    expect(d.reason).toContain(`${sb.home}/.aws`)
  })

  test("a write through docs/.. is a write to the home's .bashrc, and the prompt says so (finding 20)", async () => {
    const d = await check("echo '#x' >> docs/../.bashrc")
    expect(d.decision).toBe("ask")
    expect(d.risk).toBe("critical")
    expect(d.reason).toContain(`${sb.home}/.bashrc`)
    bash("echo '#x' >> docs/../.bashrc")
    expect(readFileSync(join(sb.home, ".bashrc"), "utf8")).toContain("#x")
  })

  test("~- and the directory stack are not dropped: bash reads through them, ccode asks (finding 3)", async () => {
    expect(bash(`pushd -n ${sb.home}/.aws >/dev/null; cat ~1/credentials`)).toContain(SECRET)
    for (const command of [`pushd -n ${sb.home}/.aws >/dev/null; cat ~1/credentials`, "cat ~-/credentials", `OLDPWD=${sb.home}/.aws; cat ~-/credentials`]) {
      const d = await check(command)
      expect([command, d.decision]).toEqual([command, "ask"])
    }
  })

  test("another process's directory (/proc/PID/cwd) is not known: bash reads through it, ccode asks (finding 4)", async () => {
    const other = Bun.spawn(["sleep", "30"], { cwd: join(sb.home, ".aws") })
    try {
      for (const command of [`cat /proc/${other.pid}/cwd/credentials`, `cat /proc/${other.pid}/task/${other.pid}/cwd/credentials`]) {
        expect(bash(command)).toContain(SECRET)
        const d = await check(command)
        expect([command, d.decision, d.risk, d.reason.includes("another process's directory")]).toEqual([command, "ask", "medium", true])
      }
    } finally {
      other.kill()
      await other.exited
    }
  })

  test.each(["cat src/*.ts", "ls src/*", "cd src && ls", "cd docs/.. && ls", "cat src/../src/a.ts", "x=~/notes.txt; echo $x"])("%s stays allowed", async (command) => {
    const d = await check(command)
    expect([command, d.decision, d.risk]).toEqual([command, "allow", "safe"])
  })
})

describe("a host's file tool given a path through a link and ..", () => {
  let sb: Sandbox
  beforeAll(() => {
    sb = sandbox()
    mkdirSync(join(sb.home, ".aws"))
    writeFileSync(join(sb.home, ".aws", "credentials"), "[default]\nkey = x\n")
    symlinkSync(join(sb.home, ".aws"), join(sb.work, "docs"))
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  // core/policy/prepare.ts still normalises a declared path lexically (path.resolve) before the now
  // physical realpathExisting sees it: failing until that line leaves `..` to the realpath
  test("claude Read of docs/../.aws/credentials is a read of the home's credentials: asks", async () => {
    const payload = { hook_event_name: "PreToolUse", session_id: "s1", tool_use_id: "t1", cwd: sb.work, tool_name: "Read", tool_input: { file_path: `${sb.work}/docs/../.aws/credentials` } }
    const r = await ccode(sb, ["hook", "claude"], { stdin: JSON.stringify(payload) })
    expect(r.code).toBe(0)
    const answer = r.stdout.trim() ? (JSON.parse(r.stdout) as Record<string, any>) : undefined
    expect(answer?.hookSpecificOutput?.permissionDecision).toBe("ask")
  })
})
