// Attack review 6 (nested-script environments, tracers, jq's two-word options, translated strings) against
// the compiled binary. Each attack is first proven real with bash in the sandbox (a fake secret in its
// ~/.netrc or in the environment, a file bash creates in a protected folder), then ccode must ask and
// name the cause.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { policyCheck, sandbox, type Sandbox } from "./harness.ts"

// no hyphens: man's formatter turns them into U+2010
const NETRC = "machine x login u password netrcroundsixsecret"
const TOKEN = "ghp_round6tokenFAKE"

let sb: Sandbox
const have = (tool: string) => Bun.spawnSync(["sh", "-c", `command -v ${tool}`]).exitCode === 0
const sh = (command: string, env: Record<string, string> = {}) => {
  const r = Bun.spawnSync(["bash", "-c", command], { cwd: sb.work, env: { ...sb.env, ...env } })
  return r.stdout.toString() + r.stderr.toString()
}

beforeAll(() => {
  sb = sandbox()
  writeFileSync(join(sb.home, ".netrc"), `${NETRC}\n`)
  // a workspace man page whose .so request reads the credential file
  sb.file("mp/man1/atk6.1", `.so ${join(sb.home, ".netrc")}\n`)
  mkdirSync(join(sb.work, ".claude"), { recursive: true })
})
afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

async function expectAsks(cmd: string, reason: string, env: Record<string, string> = {}): Promise<void> {
  const d = await policyCheck(sb, cmd, { env })
  expect({ cmd, decision: d.decision, named: d.reason.includes(reason), reason: d.reason }).toEqual({ cmd, decision: "ask", named: true, reason: d.reason })
}

describe("round 6: a prefix assignment before a nested-script runner reaches the nested script's checks", () => {
  const pager = { MANPAGER: "cat", PAGER: "cat" }
  for (const cmd of ["MANPATH=./mp bash -c 'man atk6'", "MANPATH=./mp eval man atk6", "MANPATH=./mp bash <<< 'man atk6'", "MANPATH=./mp timeout 9 sh -c 'man atk6'"]) {
    test.skipIf(!have("man"))(`${cmd}: bash prints the secret through the page's .so, ccode asks`, async () => {
      expect(sh(cmd, pager)).toContain("netrcroundsixsecret")
      await expectAsks(cmd, "MANPATH", pager)
    }, 30_000)
  }

  test("TMPDIR=.claude bash -c mktemp: bash creates a file in .claude, ccode names the protected path", async () => {
    sh("TMPDIR=.claude bash -c mktemp")
    expect(readdirSync(join(sb.work, ".claude")).some((f) => f.startsWith("tmp."))).toBe(true)
    for (const cmd of ["TMPDIR=.claude bash -c mktemp", "TMPDIR=.claude eval mktemp", "TMPDIR=.git/hooks sh -c 'mktemp'"]) await expectAsks(cmd, "protected path")
  })
})

describe("round 6: jq's two-word options no longer hide the program", () => {
  for (const cmd of ["jq -n --arg a b env", "jq -rn --argjson a 1 'env.GITHUB_TOKEN'", "jq -n --arg k GITHUB_TOKEN 'env[$k]'"]) {
    test.skipIf(!have("jq"))(`${cmd}: bash prints the token, ccode asks`, async () => {
      expect(sh(cmd, { GITHUB_TOKEN: TOKEN })).toContain(TOKEN)
      await expectAsks(cmd, "the jq program reads", { GITHUB_TOKEN: TOKEN })
    })
  }
})

describe("round 6: strace attaching to a running process", () => {
  test.skipIf(!have("strace"))("strace -p PID prints what another process reads; ccode asks and says it attaches", async () => {
    const proof = "(while :; do cat ~/.netrc >/dev/null; sleep 0.05; done) & L=$!; timeout 2 strace -f -s 200 -e trace=read -p $L 2>&1; kill $L"
    const out = sh(proof)
    // ptrace may be refused (a container without CAP_SYS_PTRACE): the decision is checked all the same
    if (!/Operation not permitted|ptrace/.test(out)) expect(out).toContain("netrcroundsixsecret")
    await expectAsks("strace -f -s 200 -e trace=read -p 4242", "attaches to a running process")
    await expectAsks("strace -o /dev/null -e inject=all:retval=0 true", "fault injection")
  }, 30_000)
})

describe("round 6: $\"...\" as an expansion's pattern", () => {
  test.skipIf(!have("msgfmt"))("${x#$\"h\"} with an inherited catalogue: bash runs the translation's $(..), ccode asks", async () => {
    mkdirSync(join(sb.work, "l", "C.UTF-8", "LC_MESSAGES"), { recursive: true })
    writeFileSync(join(sb.work, "x.po"), 'msgid "h"\nmsgstr "$(cat ~/.netrc >&2)"\n')
    sh("msgfmt -o l/C.UTF-8/LC_MESSAGES/x.mo x.po")
    const env = { TEXTDOMAINDIR: join(sb.work, "l"), TEXTDOMAIN: "x", LC_ALL: "C.UTF-8" }
    for (const cmd of ['x=1; echo ${x#$"h"}', 'x=1; echo "${x%$"h"}"', 'x=1; echo ${x/$"h"/}']) {
      expect(sh(cmd, env)).toContain("netrcroundsixsecret")
      await expectAsks(cmd, '$"..."', env)
    }
  }, 30_000)
})

test("the everyday forms beside them stay allowed", async () => {
  for (const cmd of ["jq -r --arg v 1 '.a' x.json", "LANG=C bash -c 'git status'", "strace -f -e trace=open true", "x=a.b; echo ${x%.*}", "TMPDIR=/tmp bash -c mktemp"]) {
    const d = await policyCheck(sb, cmd)
    expect([cmd, d.decision]).toEqual([cmd, "allow"])
  }
})
