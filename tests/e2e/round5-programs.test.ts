// Attack review 5 (program options, wrappers, environment variables, program texts) against the compiled
// binary. Each attack is first proven real with bash in the sandbox (a fake secret in its ~/.netrc or in
// the environment, a bare repository whose history a force push rewrites), then ccode must ask or deny
// and name the cause.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { ccode, policyCheck, sandbox, type Sandbox } from "./harness.ts"

const NETRC = "machine x login u password netrc-round5-secret"
const TOKEN = "ghp_round5tokenFAKE"

let sb: Sandbox
const have = (tool: string) => Bun.spawnSync(["sh", "-c", `command -v ${tool}`]).exitCode === 0
const sh = (command: string, cwd = sb.work, env: Record<string, string> = {}) => {
  const r = Bun.spawnSync(["bash", "-c", command], { cwd, env: { ...sb.env, ...env }, timeout: 20_000 })
  return r.stdout.toString() + r.stderr.toString()
}

beforeAll(() => {
  sb = sandbox()
  writeFileSync(join(sb.home, ".netrc"), `${NETRC}\n`)
  sb.file("evil.sh", 'cat "$HOME/.netrc" >&2\n')
  chmodSync(sb.file("sh2", '#!/bin/sh\ncat "$HOME/.netrc" >&2\n'), 0o755)
})
afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

describe("round 5: programs whose options, variables or program texts run or read what the command line hides", () => {
  const cases: { cmd: string; tool: string; decision: string; reason: string; env?: Record<string, string>; proof?: string }[] = [
    { cmd: "strace -o /dev/null -E BASH_ENV=evil.sh bash -c true", tool: "strace", decision: "ask", reason: "sets BASH_ENV" },
    { cmd: "strace --env=BASH_ENV=evil.sh -o /dev/null bash -c true", tool: "strace", decision: "ask", reason: "sets BASH_ENV" },
    // (the -s form, `fakeroot -s 'x;cat ~/.netrc>&2' true`, is in the corpus: in bash it leaves fakeroot waiting
    // on its daemon's output for seconds to minutes, too slow a proof for a busy machine)
    { cmd: "fakeroot -l '$(cat ~/.netrc >&2)' true", tool: "fakeroot", decision: "ask", reason: ".netrc" },
    { cmd: "echo BASH_ENV | xargs --repl=Q env Q=./evil.sh bash -c true", tool: "xargs", decision: "ask", reason: "filled in at run time" },
    { cmd: "echo BASH_ENV | xargs --re=Q env Q=./evil.sh bash -c true", tool: "xargs", decision: "ask", reason: "filled in at run time" },
    { cmd: "awk 'BEGIN{ARGV[1]=ENVIRON[\"HOME\"] \"/.netrc\";ARGC=2}1'", tool: "awk", decision: "ask", reason: "ARGV/ARGC" },
    { cmd: "env -S 'cat ${HOME}/.netrc'", tool: "env", decision: "ask", reason: ".netrc" },
    { cmd: "env --split-string='cat ${HOME}/.netrc'", tool: "env", decision: "ask", reason: ".netrc" },
    { cmd: "SHELL=./sh2 flock lk -c true", tool: "flock", decision: "ask", reason: "sets SHELL" },
    { cmd: "SHELL=$PWD/sh2 script -qc true /dev/null", tool: "script", decision: "ask", reason: "sets SHELL" },
    { cmd: "jq -n 'env.GITHUB_TOKEN'", tool: "jq", decision: "ask", reason: "secret variable GITHUB_TOKEN", env: { GITHUB_TOKEN: TOKEN }, proof: TOKEN },
    { cmd: "jq -n '$ENV.GITHUB_TOKEN'", tool: "jq", decision: "ask", reason: "secret variable GITHUB_TOKEN", env: { GITHUB_TOKEN: TOKEN }, proof: TOKEN },
    { cmd: "yq -n '$ENV.GITHUB_TOKEN'", tool: "yq", decision: "ask", reason: "secret variable GITHUB_TOKEN", env: { GITHUB_TOKEN: TOKEN }, proof: TOKEN },
    { cmd: "yq -n env", tool: "yq", decision: "ask", reason: "reads env or $ENV as a whole", env: { GITHUB_TOKEN: TOKEN }, proof: TOKEN },
  ]
  for (const c of cases) {
    test.skipIf(!have(c.tool))(`${c.cmd}: bash shows the secret, ccode ${c.decision}s`, async () => {
      expect(sh(c.cmd, sb.work, c.env)).toContain(c.proof ?? NETRC)
      const d = await policyCheck(sb, c.cmd, { env: c.env })
      expect({ decision: d.decision, named: d.reason.includes(c.reason), reason: d.reason }).toEqual({ decision: c.decision, named: true, reason: d.reason })
    }, 30_000)
  }

  test.skipIf(!have("msgfmt"))("$\"...\" with TEXTDOMAINDIR/TEXTDOMAIN: bash runs the translation's $(..), ccode asks", async () => {
    mkdirSync(join(sb.work, "l", "C.UTF-8", "LC_MESSAGES"), { recursive: true })
    writeFileSync(join(sb.work, "x.po"), 'msgid "hello"\nmsgstr "$(cat ~/.netrc)"\n')
    sh("msgfmt -o l/C.UTF-8/LC_MESSAGES/x.mo x.po")
    const cmd = 'TEXTDOMAINDIR=l\nTEXTDOMAIN=x\nLC_ALL=C.UTF-8\necho $"hello"'
    expect(sh(cmd)).toContain(NETRC)
    const d = await policyCheck(sb, cmd)
    expect({ decision: d.decision, named: d.reason.includes("TEXTDOMAIN"), reason: d.reason }).toEqual({ decision: "ask", named: true, reason: d.reason })
    const inherited = await policyCheck(sb, 'echo $"hello"')
    expect({ decision: inherited.decision, named: inherited.reason.includes('$"..."'), reason: inherited.reason }).toEqual({ decision: "ask", named: true, reason: inherited.reason })
  })

  test("the everyday forms beside them stay allowed", async () => {
    for (const cmd of ["jq -n 'env.HOME'", "awk -F: '{print $1}' /etc/passwd", "strace -f -e trace=open true", "ls | xargs -I{} echo {}", "yq '.a' x.yaml"]) {
      const d = await policyCheck(sb, cmd)
      expect([cmd, d.decision]).toEqual([cmd, "allow"])
    }
  })
})

describe("round 5: the ci policy's deny rules hold through wrappers ccode does not know and through git's push plumbing", () => {
  let remote: string
  let clone: string
  const git = (cwd: string, ...args: string[]) => {
    const r = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main", ...args], { cwd, env: { ...sb.env, GIT_CONFIG_NOSYSTEM: "1" } })
    if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`)
    return r.stdout.toString().trim()
  }
  const ci = async (cmd: string) => {
    const r = await ccode(sb, ["policy", "check", "--json", "--policy", "ci", "--", cmd], { cwd: clone })
    return JSON.parse(r.stdout) as { decision: string; risk: string; reason: string }
  }
  // a remote whose main the clone's rewritten history does not contain: only a forced push updates it
  const fresh = () => {
    rmSync(join(sb.root, "r"), { recursive: true, force: true })
    const base = join(sb.root, "r")
    mkdirSync(base)
    remote = join(base, "remote.git")
    const seed = join(base, "seed")
    mkdirSync(seed)
    git(seed, "init", "-q")
    git(seed, "commit", "-q", "--allow-empty", "-m", "one")
    git(seed, "commit", "-q", "--allow-empty", "-m", "two")
    git(base, "clone", "-q", "--bare", seed, remote)
    clone = join(base, "clone")
    git(base, "clone", "-q", remote, clone)
    git(clone, "reset", "-q", "--hard", "HEAD~1")
    git(clone, "commit", "-q", "--allow-empty", "-m", "rewritten")
  }
  const remoteLog = () => git(remote, "log", "--format=%s", "main")

  test.each([
    ["prlimit git push --force ../remote.git main:main", "prlimit"],
    ["setpriv git push -f ../remote.git main:main", "setpriv"],
    ["chrt -o 0 git push -f ../remote.git main:main", "chrt"],
    ["git send-pack --force ../remote.git main:main", "git"],
    ["git send-pack ../remote.git +main:main", "git"],
  ])("%s rewrites the remote's history in bash; ccode --policy ci denies it", async (cmd, tool) => {
    if (!have(tool)) return
    fresh()
    expect(remoteLog()).toBe("two\none")
    const d = await ci(cmd)
    expect({ decision: d.decision, named: d.reason.includes("no-force-push"), reason: d.reason }).toEqual({ decision: "deny", named: true, reason: d.reason })
    sh(cmd, clone)
    expect(remoteLog()).toBe("rewritten\none")
  })

  test.skipIf(!have("tar"))("tar -xvI CMD runs CMD as the decompressor in bash; ccode --policy ci does not auto-approve it", async () => {
    fresh()
    sh("echo hi > f && tar -cf a.tar f", clone)
    const cmd = "tar -xvI 'sh -c \"cat ~/.netrc >&2; cat\"' -f a.tar"
    expect(sh(cmd, clone)).toContain(NETRC)
    const d = await ci(cmd)
    expect({ decision: d.decision, named: d.reason.includes(".netrc") || d.reason.includes("tar runs the program"), reason: d.reason }).toEqual({ decision: "ask", named: true, reason: d.reason })
  })

  test("history -w FILE writes what history -s put there: bash writes ~/.bashrc, ccode --policy ci asks", async () => {
    fresh()
    const cmd = "history -s 'echo pwned-round5'; history -w ~/.bashrc"
    sh(cmd, clone)
    expect(await Bun.file(join(sb.home, ".bashrc")).text()).toContain("pwned-round5")
    rmSync(join(sb.home, ".bashrc"))
    const d = await ci(cmd)
    expect({ decision: d.decision, risk: d.risk, named: d.reason.includes(".bashrc"), reason: d.reason }).toEqual({ decision: "ask", risk: "critical", named: true, reason: d.reason })
  })

  test.each([
    ["sed '1e cat ~/.netrc >&2' f"],
    ["awk 'BEGIN{system(\"cat ~/.netrc >&2\")}'"],
    ["awk 'BEGIN{print \"cat ~/.netrc >&2\" | \"sh\"}'"],
  ])("%s runs the command in bash; ccode --policy ci does not auto-approve it", async (cmd) => {
    fresh()
    sh("echo x > f", clone)
    expect(sh(cmd, clone)).toContain(NETRC)
    const d = await ci(cmd)
    expect({ decision: d.decision, high: d.risk === "high" || d.risk === "critical", reason: d.reason }).toEqual({ decision: "ask", high: true, reason: d.reason })
  })

  test("ccode's own trust and approval commands are not auto-approved under ci", async () => {
    fresh()
    for (const cmd of ["ccode trust", "ccode approve 1", "ccode policy sign .ccode/policy.yaml"]) {
      const d = await ci(cmd)
      expect([cmd, d.decision, d.risk]).toEqual([cmd, "ask", "high"])
    }
    expect((await ci("ccode policy check -- ls")).decision).toBe("allow")
  })

  test("the same wrapper around an everyday command stays what it was under ci (unknown: medium, allowed)", async () => {
    fresh()
    const d = await ci("prlimit git status")
    expect({ decision: d.decision, risk: d.risk }).toEqual({ decision: "allow", risk: "medium" })
    const transparent = await ci("chrt -o 0 git status")
    expect({ decision: transparent.decision, risk: transparent.risk }).toEqual({ decision: "allow", risk: "safe" })
  })
})
