// What a script's own state does to what runs: $PWD after cd, a trap handler that fires after the script
// moved, a mapfile callback that evaluates the lines it reads, a secret variable read through a nameref,
// `jobs -x` running a command.
// Each attack is first run with bash in the sandbox (a fake secret in its HOME, a marker printed), then
// `ccode policy check` must ask and name the cause.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { policyCheck, sandbox, type Sandbox } from "./harness.ts"

const NETRC = "FAKESECRET-netrc-r5"
const TOKEN = "FAKESECRET-token-r5"

describe("round 5: scope, traps, callbacks and namerefs", () => {
  let sb: Sandbox
  let env: Record<string, string>
  beforeAll(() => {
    sb = sandbox()
    writeFileSync(join(sb.home, ".netrc"), `machine x login u password ${NETRC}\n`)
    sb.file("lines.txt", `;cat ${join(sb.home, ".netrc")}\n`)
    // as a shell started in the workspace would have it: PWD is the workspace, a token is exported
    env = { PWD: sb.work, GITHUB_TOKEN: TOKEN }
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  const bash = (script: string): string => {
    const r = Bun.spawnSync(["bash", "-c", script], { cwd: sb.work, env: { ...sb.env, ...env } })
    return r.stdout.toString() + r.stderr.toString()
  }

  test.each([
    ["cd && cat \"$PWD/.netrc\"", NETRC, "high", ".netrc"],
    ["cd ~ && head $PWD/.netrc", NETRC, "high", ".netrc"],
    ["trap 'cat .netrc' EXIT; cd ~", NETRC, "high", ".netrc"],
    ["trap 'cat .netrc' DEBUG; cd; :", NETRC, "high", ".netrc"],
    ["mapfile -C eval -c 1 < lines.txt", NETRC, "critical", "mapfile -C eval runs eval with the data it reads appended"],
    ["declare -n r=GITHUB_TOKEN; echo $r", TOKEN, "medium", "uses the secret variable $GITHUB_TOKEN"],
    ["x=GITHUB; declare -p ${x}_TOKEN", TOKEN, "medium", "uses the secret variable $GITHUB_TOKEN"],
    ["jobs -x eval 'cat ~/.netrc'", NETRC, "high", ".netrc"],
  ])("%s is real in bash and asks (%s)", async (command, secret, risk, reason) => {
    expect(bash(command)).toContain(secret)
    const d = await policyCheck(sb, command, { env })
    expect([d.decision, d.risk]).toEqual(["ask", risk])
    expect(d.reason).toContain(reason)
  })

  test.each([
    "cat \"$PWD/lines.txt\"",
    "trap 'cat lines.txt' EXIT; ls",
    "mapfile -t a < lines.txt",
  ])("the everyday form %s stays allowed", async (command) => {
    const d = await policyCheck(sb, command, { env })
    expect(d.decision).toBe("allow")
  })
})
