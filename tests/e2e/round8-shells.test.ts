// Review 8: shells other than bash, a program run under another name, listings, lock files and the
// environment xargs gives its command. Each attack is first run for real in the sandbox (a fake secret in
// its HOME, a marker file), then the compiled binary must ask and name the cause.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { bashIn, policyCheck, sandbox, type Sandbox } from "./harness.ts"

const SECRET = "FAKESECRET-netrc"
// the shift below needs a POSIX sh that is not bash (Debian's and Ubuntu's /bin/sh)
const dash = Bun.which("dash")

describe("round 8 shells and environments", () => {
  let sb: Sandbox
  beforeAll(() => {
    sb = sandbox()
    writeFileSync(join(sb.home, ".netrc"), `machine x login y password ${SECRET}\n`)
    // a program in the workspace folder `0`: what xargs --process-slot-var=PATH makes ls mean
    mkdirSync(join(sb.work, "0"))
    writeFileSync(join(sb.work, "0/ls"), "#!/bin/sh\necho pwned > marker\n")
    chmodSync(join(sb.work, "0/ls"), 0o755)
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))
  const run = (command: string, env: Record<string, string> = {}) => bashIn(sb, command, sb.work, env)

  test.if(dash !== null)("dash ends a $'\\' quote early and runs the next line: bash's reading sees text, ccode asks", async () => {
    const command = "dash <<'EOF'\necho $'\\'\ncat ~/.netrc\necho '\nEOF"
    expect(run(command)).toContain(SECRET)
    const d = await policyCheck(sb, command)
    expect([d.decision, d.risk]).toEqual(["ask", "high"])
    expect(d.reason).toContain("dash reads $'…'")
  })

  test.if(dash !== null)("((cmd)) is two subshells in dash: it runs the program; ccode asks", async () => {
    const command = "echo 'cat ~/.netrc' | dash -c '((sh))'"
    expect(run(command)).toContain(SECRET)
    const d = await policyCheck(sb, command)
    expect([d.decision, d.risk]).toEqual(["ask", "high"])
    expect(d.reason).toContain("reads ((…))")
  })

  test.if(dash !== null)("[[ a > FILE ]] in dash truncates FILE; ccode asks", async () => {
    const target = sb.file(".claude/settings.json", '{"hooks":{}}')
    run("dash -c '[[ a > .claude/settings.json ]]'")
    expect(readFileSync(target, "utf8")).toBe("")
    const d = await policyCheck(sb, "dash -c '[[ a > .claude/settings.json ]]'")
    expect([d.decision, d.risk]).toEqual(["ask", "high"])
    expect(d.reason).toContain("reads [[ … ]]")
  })

  test("POSIX text given to sh stays allowed", async () => {
    expect(run("sh -c 'echo $((1+2))'")).toBe("3\n")
    expect((await policyCheck(sb, "sh -c 'echo $((1+2))'")).decision).toBe("allow")
    expect((await policyCheck(sb, "sh -c 'cd 0 && ls'")).decision).toBe("allow")
  })

  test("xargs --process-slot-var=PATH runs ./0/ls; ccode asks and names PATH", async () => {
    const command = "xargs --process-slot-var=PATH ls < /dev/null"
    run(command)
    expect(existsSync(join(sb.work, "marker"))).toBe(true)
    rmSync(join(sb.work, "marker"))
    const d = await policyCheck(sb, command)
    expect([d.decision, d.risk]).toEqual(["ask", "high"])
    expect(d.reason).toContain("sets PATH")
  })

  test("declare +x prints an exported token; ccode asks", async () => {
    const env = { GITHUB_TOKEN: "FAKESECRET-ghtoken" }
    expect(run("declare +x", env)).toContain("FAKESECRET-ghtoken")
    const d = await policyCheck(sb, "declare +x", { env: { ...sb.env, ...env } })
    expect([d.decision, d.risk]).toEqual(["ask", "medium"])
    expect(d.reason).toContain("prints the environment")
  })

  test("flock FILE -c CMD creates FILE in a protected folder; ccode asks", async () => {
    mkdirSync(join(sb.work, ".git/hooks"), { recursive: true })
    const command = "flock .git/hooks/pre-commit -c true"
    run(command)
    expect(existsSync(join(sb.work, ".git/hooks/pre-commit"))).toBe(true)
    const d = await policyCheck(sb, command)
    expect([d.decision, d.risk]).toEqual(["ask", "critical"])
    expect(d.reason).toContain(join(realpathSync(sb.work), ".git/hooks/pre-commit"))
  })

  test("exec -a NAME makes a multi-call program run as NAME (xz as xzcat); ccode asks and names the name", async () => {
    writeFileSync(join(sb.work, "notes"), "hello\n")
    expect(Bun.spawnSync(["xz", "-k", "notes"], { cwd: sb.work }).exitCode).toBe(0)
    // xz given an .xz file refuses to compress it again; under the name xzcat it prints it
    expect(run("exec -a xzcat xz notes.xz")).toBe("hello\n")
    const d = await policyCheck(sb, "exec -a xzcat xz notes.xz")
    expect([d.decision, d.risk]).toEqual(["ask", "high"])
    expect(d.reason).toContain("under the name xzcat")
  })

  test("exec -a git-remote git show origin is judged as git remote show origin (network)", async () => {
    const d = await policyCheck(sb, "exec -a git-remote git show origin")
    expect(d.decision).toBe("ask")
    expect(d.reason).toContain("network")
  })
})
