// Paths the second attack review found decided `allow safe` under the default policy, on a real disk:
// `~` after NAME= in an argument (bash expands it, and a repository link `x= -> /` then leads to the
// home's secrets), and a glob whose matches are files named like options (`sort *` with files
// `--compress-program=sh` and `-S1` runs sh; `git grep -e foo *` with a file `-Osh` runs sh). Each
// attack is first run with bash in the sandbox to prove it real.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { policyCheck, sandbox, type Sandbox } from "./harness.ts"

describe("round 2 paths", () => {
  let sb: Sandbox
  const NETRC = "machine example.com login dev password netrc-test-secret"
  const KEY = "-----BEGIN OPENSSH PRIVATE KEY----- ssh-test-secret"
  beforeAll(() => {
    sb = sandbox()
    writeFileSync(join(sb.home, ".netrc"), `${NETRC}\n`)
    mkdirSync(join(sb.home, ".ssh"))
    writeFileSync(join(sb.home, ".ssh", "id_ed25519"), `${KEY}\n`)
    // what a cloned repository can carry: a link named `x=` to the root
    symlinkSync("/", join(sb.work, "x="))
    // files named like options, beside data the option makes a program run
    mkdirSync(join(sb.work, "sorted"))
    writeFileSync(join(sb.work, "sorted", "--compress-program=sh"), "")
    writeFileSync(join(sb.work, "sorted", "-S1"), "")
    const marker = join(sb.root, "pwned-sort")
    writeFileSync(join(sb.work, "sorted", "a.txt"), Array.from({ length: 3000 }, (_, i) => `touch ${marker} # ${i}\n`).join(""))
    mkdirSync(join(sb.work, "repo"))
    const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: join(sb.work, "repo"), env: sb.env })
    git("init", "-q", ".")
    writeFileSync(join(sb.work, "repo", "a.sh"), `touch ${join(sb.root, "pwned-git")} # foo\n`)
    writeFileSync(join(sb.work, "repo", "-Osh"), "")
    git("add", "a.sh")
    // a folder with ordinary names: globs there stay allowed
    mkdirSync(join(sb.work, "plain"))
    writeFileSync(join(sb.work, "plain", "names.txt"), "b\na\n")
    writeFileSync(join(sb.work, "plain", "input.txt"), "x\n")
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  const check = (command: string, dir = sb.work) => policyCheck(sb, command, { cwd: dir })
  const bash = (command: string, dir = sb.work) => Bun.spawnSync(["bash", "-c", command], { cwd: dir, env: sb.env, stdin: "ignore" })

  test("the attack is real: bash expands ~ after x= and the link x= leads to the home", () => {
    expect(bash("cat x=~/.netrc").stdout.toString()).toContain(NETRC)
    expect(bash("grep -r . x=~/.ssh").stdout.toString()).toContain(KEY)
  })

  test.each([
    ["cat x=~/.netrc", "/.netrc"],
    ["grep -r . x=~/.ssh", "/.ssh"],
    ["cat < x=~/.netrc", "/.netrc"],
  ])("%s reads the home's secret through the link: asks", async (command, target) => {
    const d = await check(command)
    expect(d.decision).toBe("ask")
    expect(["high", "critical"]).toContain(d.risk)
    expect(d.reason).toContain(target)
  })

  test("the attack is real: an input redirect named at run time and a /proc pid known at run time read secrets", () => {
    expect(bash("cat < $(echo ~/.netrc)").stdout.toString()).toContain(NETRC)
    expect(bash("X=$(echo ~/.ssh/id_ed25519); cat < $X").stdout.toString()).toContain(KEY)
    expect(bash(`tr "\\0" "\\n" < /proc/$PPID/environ`).stdout.toString()).toContain("PATH=")
  })

  test.each([
    ["cat < $(echo ~/.netrc)", "medium", "reads a file named only at run time"],
    ["X=$(echo ~/.ssh/id_ed25519); cat < $X", "medium", "reads a file named only at run time"],
    ["cat < `echo ~/.netrc`", "medium", "reads a file named only at run time"],
    [`tr "\\0" "\\n" < /proc/$PPID/environ`, "high", "/proc/*/environ matches risk.paths"],
  ])("%s: asks", async (command, risk, reason) => {
    const d = await check(command)
    expect(d).toMatchObject({ decision: "ask", risk })
    expect(d.reason).toContain(reason)
  })

  test("the attack is real: mktemp puts its file where TMPDIR (inherited, then assigned) or -t -p say", () => {
    const made = bash("TMPDIR=~/.ssh; mktemp -d; env -u TMPDIR mktemp -t -p ~/.ssh").stdout.toString().trim().split("\n")
    expect(made).toHaveLength(2)
    for (const m of made) expect(m.startsWith(join(sb.home, ".ssh") + "/")).toBe(true)
    for (const m of made) rmSync(m, { recursive: true, force: true })
  })

  test.each([
    ["TMPDIR=~/.ssh; mktemp -d", "critical", "/.ssh/tmp.XXXXXXXXXX"],
    ["TMPDIR=~/.ssh mktemp -d", "critical", "/.ssh/tmp.XXXXXXXXXX"],
    ["mktemp -t -p ~/.ssh", "critical", "/.ssh matches risk.paths"],
    // the sandbox's home is below /tmp: outside it, a folder elsewhere
    ["export TMPDIR=/etc; mktemp", "critical", "mktemp creates a file there: writes to the system file /etc/tmp.XXXXXXXXXX"],
    ["TMPDIR=/var/lib/x mktemp -t -p /tmp", "critical", "mktemp creates a file there: writes to the system path /var/lib/x/tmp.XXXXXXXXXX"],
  ])("%s creates a file outside the temp dirs: asks", async (command, risk, reason) => {
    const d = await check(command)
    expect(d).toMatchObject({ decision: "ask", risk })
    expect(d.reason).toContain(reason)
  })

  test("mktemp in the inherited TMPDIR stays allowed", async () => {
    expect(await check("f=$(mktemp -d); echo $f")).toMatchObject({ decision: "allow", risk: "safe" })
  })

  test("the attack is real: sort * passes --compress-program=sh and sort runs sh", () => {
    bash("sort * > /dev/null 2>&1", join(sb.work, "sorted"))
    expect(existsSync(join(sb.root, "pwned-sort"))).toBe(true)
  })

  test("the attack is real: git grep -e foo * passes -Osh and git runs sh", () => {
    bash("git grep -e foo * > /dev/null 2>&1", join(sb.work, "repo"))
    expect(existsSync(join(sb.root, "pwned-git"))).toBe(true)
  })

  test.each([
    ["sort *", "sorted", "which sort reads as an option"],
    ["sort -u *", "sorted", "which sort reads as an option"],
    ["git grep -e foo *", "repo", "matches -Osh, which git reads as an option"],
  ])("%s in a folder with option-like names: asks", async (command, dir, reason) => {
    const d = await check(command, join(sb.work, dir))
    expect(d).toMatchObject({ decision: "ask", risk: "medium" })
    expect(d.reason).toContain(reason)
  })

  test.each([
    ["sort -- *", "sorted"],
    ["cat ./*", "sorted"],
    ["sort *", "plain"],
    ["ls *", "plain"],
    ["sort -u names.txt", "plain"],
    ["cat < input.txt", "plain"],
  ])("%s (in %s) stays allowed", async (command, dir) => {
    const d = await check(command, join(sb.work, dir))
    expect(d).toMatchObject({ decision: "allow", risk: "safe" })
  })
})
