// Texts bash reads unlike the parser, brace expansion bash does (or does not), history expansion: each
// attack is first run with bash in the sandbox (a fake secret in its HOME, a marker file), then the
// compiled binary must ask and name the cause.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { existsSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { ccode, policyCheck, sandbox, type Sandbox } from "./harness.ts"

const SECRET = "FAKESECRET-netrc"

describe("round 5 parsing and expansions", () => {
  let sb: Sandbox
  beforeAll(() => {
    sb = sandbox()
    sb.file("evil.sh", "echo pwned > marker\n")
    sb.file("src/a", "a\n")
    // a repository may ship entries with brace characters in their names
    symlinkSync(sb.home, join(sb.work, "d{x,y}"))
    symlinkSync(join(sb.home, ".netrc"), join(sb.work, "{a,b}"))
    writeFileSync(join(sb.home, ".netrc"), `machine x login y password ${SECRET}\n`)
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  const bash = (script: string) => Bun.spawnSync(["bash", "-c", script], { cwd: sb.work, env: sb.env }).stdout.toString()

  const cases: [string, string, string][] = [
    // [command, risk, words of the reason]
    ["echo x\n\\cat ~/.netrc", "critical", "a word the parser reads across a line end"],
    ["echo x\n\\\ncat ~/.netrc", "critical", "reads on past a line end"],
    ["cat x `` ~/.netrc", "critical", "across a blank"],
    ["echo `echo \\`cat ~/.netrc\\``", "critical", "backquoted substitution"],
    ["echo `cat \\$HOME/.netrc`", "critical", "backquoted substitution"],
    ["echo ${x:=`cat ~/.netrc`}", "critical", "backquoted substitution the parser reads as text"],
    ["cat <<EOF\n`cat ~/.netrc`\nEOF", "critical", "backquoted substitution the parser reads as text"],
    ["cat <<EOF\nhi\nEO\\\nF\ncat ~/.netrc\nEOF", "critical", "here-document whose body has a line continuation"],
    ["cat ~/.netr{c..c}", "high", ".netrc"],
    ["cat ~/.netr{a..c..2}", "high", ".netrc"],
    ["x={a,b}; cat \"$x\"", "high", ".netrc"],
    ["set +B; cat d{x,y}/.netrc", "high", ".netrc"],
    ["set -o history -H\necho ~/.netrc\ncat !$", "high", "history expansion"],
  ]

  test.each(cases)("bash reads the secret with %j", (command) => {
    expect(bash(command)).toContain(SECRET)
  })

  test.each(cases)("ccode asks for %j and names the cause", async (command, risk, words) => {
    const d = await policyCheck(sb, command)
    expect([d.decision, d.risk]).toEqual(["ask", risk])
    expect(d.reason).toContain(words)
  })

  test("a glued line runs an unseen script in bash; ccode asks", async () => {
    const command = "echo x\n\\sh evil.sh"
    bash(command)
    expect(existsSync(join(sb.work, "marker"))).toBe(true)
    rmSync(join(sb.work, "marker"))
    const d = await policyCheck(sb, command)
    expect([d.decision, d.risk]).toEqual(["ask", "critical"])
  })

  test("a Claude Read of d{x,y}/.netrc (opened as written) is not left to the host", async () => {
    const path = join(sb.work, "d{x,y}", ".netrc")
    expect(await Bun.file(path).text()).toContain(SECRET)
    const stdin = JSON.stringify({ session_id: "s1", hook_event_name: "PreToolUse", tool_name: "Read", tool_input: { file_path: path }, cwd: sb.work })
    const r = await ccode(sb, ["hook", "claude"], { stdin })
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout).hookSpecificOutput as { permissionDecision: string; permissionDecisionReason: string }
    expect(out.permissionDecision).toBe("ask")
    expect(out.permissionDecisionReason).toContain(".netrc")
  })

  test.each(["ls src/{a,b}", "echo {1..3}", "echo `date`", "ls \\\n  -la", "set -euo pipefail; ls"])("everyday %j stays allowed", async (command) => {
    const d = await policyCheck(sb, command)
    expect(d.decision).toBe("allow")
  })
})
