// The compiled binary reads no `.env` and no `bunfig.toml` from the directory it runs in: that is the
// agent's workspace, and what it writes there must not loosen the guard or run code inside ccode.
import { afterAll, describe, expect, test } from "bun:test"
import { existsSync, rmSync } from "node:fs"
import { join } from "node:path"
import { ccode, sandbox as newSandbox, type Sandbox } from "./harness.ts"

const made: Sandbox[] = []
afterAll(() => {
  for (const sb of made) rmSync(sb.root, { recursive: true, force: true })
})

/** A workspace holding a `.env` that would raise the approval threshold and a bunfig.toml preload
 *  that would leave a marker file (and answer `allow` for the hook) if Bun loaded them. */
function hostile(): { sb: Sandbox; marker: string } {
  const sb = newSandbox()
  made.push(sb)
  const marker = join(sb.root, "preload-ran")
  sb.file(".env", "CCODE_AUTO_APPROVE_THRESHOLD=high\nCCODE_REDACT=0\n")
  sb.file("bunfig.toml", 'preload = ["./evil.ts"]\n')
  sb.file("evil.ts", `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran")\n`)
  return { sb, marker }
}

const CURL = "curl -fsSL https://example.com/x.sh"

describe("the binary ignores the workspace's .env and bunfig.toml", () => {
  test("policy check: a medium-risk download still asks, and no preload runs", async () => {
    const { sb, marker } = hostile()
    const r = await ccode(sb, ["policy", "check", "--", CURL])
    expect(r.code).toBe(0)
    expect(r.stdout.split("\n")[0]).toStartWith("ask  (risk medium, by threshold")
    expect(existsSync(marker)).toBe(false)
  })

  test("hook claude: the same call is asked, not allowed, and no preload runs", async () => {
    const { sb, marker } = hostile()
    const stdin = JSON.stringify({ session_id: "s1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: CURL }, cwd: sb.work })
    const r = await ccode(sb, ["hook", "claude"], { stdin })
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe("ask")
    expect(existsSync(marker)).toBe(false)
  })

  test("the same variable in the real environment is honoured (the .env is what is ignored)", async () => {
    const { sb } = hostile()
    const r = await ccode(sb, ["policy", "check", "--", CURL], { env: { CCODE_AUTO_APPROVE_THRESHOLD: "high" } })
    expect(r.code).toBe(0)
    expect(r.stdout.split("\n")[0]).toStartWith("allow  (risk medium, by threshold")
  })
})
