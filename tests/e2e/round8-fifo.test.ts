// Review 8: a named pipe where ccode reads git metadata or an ignore file on the way to a decision
// (.git/commondir, the commondir of the git directory a .git file names, .ignore) made every check hang;
// a host that gives up on a slow hook then runs the call unchecked. The compiled binary must answer.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { ccode, gitIn, policyCheck, sandbox, type Sandbox } from "./harness.ts"

describe("round 8: named pipes in the workspace's metadata", () => {
  let sb: Sandbox
  const fifo = (path: string) => expect(Bun.spawnSync(["mkfifo", path]).exitCode).toBe(0)
  beforeAll(() => {
    sb = sandbox()
    writeFileSync(join(sb.home, ".netrc"), "machine x login y password FAKESECRET-netrc\n")
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  test("a .git file naming a git directory whose commondir is a pipe: checks answer (the credential read asks)", async () => {
    const ws = join(sb.root, "ff7")
    mkdirSync(join(ws, "gd"), { recursive: true })
    gitIn(sb, join(ws, "gd"), ["init", "-q", "--bare"])
    writeFileSync(join(ws, ".git"), "gitdir: gd\n")
    fifo(join(ws, "gd/commondir"))
    const d = await policyCheck(sb, "cat ~/.netrc", { cwd: ws })
    expect([d.decision, d.risk]).toEqual(["ask", "high"])
    const r = await ccode(sb, ["hook", "claude"], { cwd: ws, stdin: JSON.stringify({ session_id: "s", hook_event_name: "PreToolUse", tool_name: "Read", tool_input: { file_path: join(sb.home, ".netrc") }, cwd: ws }) })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('"permissionDecision":"ask"')
  }, 30_000)

  test("a pipe as .git/commondir and as an rg ignore file: git status and rg are still decided", async () => {
    const ws = join(sb.root, "ff")
    mkdirSync(join(ws, "src"), { recursive: true })
    gitIn(sb, ws, ["init", "-q"])
    fifo(join(ws, ".git/commondir"))
    fifo(join(ws, "src/.ignore"))
    expect((await policyCheck(sb, "git status", { cwd: ws })).decision).toBeDefined()
    expect((await policyCheck(sb, "rg x", { cwd: ws })).decision).toBe("allow")
  }, 30_000)
})
