// Programs that reach a secret without the analysis seeing the path (third attack review): recursion
// spelled the way getopt reads it, git diff --no-index, build tools' credential files below a searched
// folder, a walk root that is a link, git config includes, jq modules, files named at run time through
// options, other processes' environments, mktemp's files. Each attack is first proven real with bash in
// the sandbox, then the compiled binary must ask.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { policyCheck, ccode, sandbox, type Sandbox } from "./harness.ts"

describe("program tricks that read secrets", () => {
  let sb: Sandbox
  const AWS = "aws_secret_access_key = wJalrXUtnFEMI-tricks-secret"
  const PGPASS = "db.example:5432:app:app:pg-tricks-secret"
  const MAVEN = "<password>maven-tricks-secret</password>"
  const DOCKER = "docker-tricks-secret"
  const PYPI = "pypi-tricks-secret"
  beforeAll(() => {
    sb = sandbox()
    mkdirSync(join(sb.home, ".aws"))
    writeFileSync(join(sb.home, ".aws", "credentials"), `[default]\n${AWS}\n`)
    writeFileSync(join(sb.home, ".pgpass"), `${PGPASS}\n`)
    mkdirSync(join(sb.home, ".m2"))
    writeFileSync(join(sb.home, ".m2", "settings.xml"), `<settings><server>${MAVEN}</server></settings>\n`)
    mkdirSync(join(sb.home, ".docker"))
    writeFileSync(join(sb.home, ".docker", "config.json"), JSON.stringify({ auths: { "registry.example": { auth: DOCKER } } }))
    writeFileSync(join(sb.home, ".pypirc"), `[pypi]\npassword = ${PYPI}\n`)
    mkdirSync(join(sb.work, "empty"))
    writeFileSync(join(sb.work, "README.md"), "hello\n")
    // what an unpacked archive can carry: a link to the home directory, a git config that includes a secret
    symlinkSync(sb.home, join(sb.work, "h"))
    writeFileSync(join(sb.work, "cfg"), `[include]\n\tpath = ${join(sb.home, ".pypirc")}\n`)
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  const check = (command: string) => policyCheck(sb, command)
  const bash = (command: string) => {
    const r = Bun.spawnSync(["bash", "-c", command], { cwd: sb.work, env: sb.env })
    return r.stdout.toString() + r.stderr.toString()
  }

  // [command, the secret bash prints, the risks the decision may have, words the reason holds]
  const attacks: [string, string, string[], string][] = [
    // 5: recursion by prefix, --directories ACTION and its abbreviations
    ["grep --recurs aws_secret ~/", AWS, ["critical"], "matches risk.paths"],
    ["grep --directories recurse aws_secret ~/", AWS, ["critical"], "matches risk.paths"],
    ["grep -d rec aws_secret ~/", AWS, ["critical"], "matches risk.paths"],
    ["grep --dir=rec aws_secret ~/", AWS, ["critical"], "matches risk.paths"],
    ["grep --dereference-r aws_secret ~/", AWS, ["critical"], "matches risk.paths"],
    ["diff --recur -N ~/.m2 empty", MAVEN, ["high", "critical"], "/.m2/settings.xml"],
    // 6: git diff walks both folders
    ["git diff --no-index ~ empty", AWS, ["critical"], "matches risk.paths"],
    ["git diff --stat -p --no-index -- empty ~", AWS, ["critical"], "matches risk.paths"],
    ["git diff ~ empty", AWS, ["critical"], "matches risk.paths"],
    // 11: the build tools' credential files below a searched folder
    ["grep -rh password ~/.m2 --include=*.xml", MAVEN, ["high"], "/.m2/settings.xml"],
    // 13: a walk root that is a link to the home directory
    ["grep -r aws_secret h", AWS, ["critical"], "matches risk.paths"],
    ["grep -r aws_secret h/", AWS, ["critical"], "matches risk.paths"],
    ["rg -uuu aws_secret h", AWS, ["critical"], "matches risk.paths"],
    // 10: a list file named at run time shows its lines in the errors
    ["date -f $(echo ~/.pgpass)", PGPASS, ["medium"], "date -f"],
    ["wc --files0-from=$(echo ~/.pgpass)", PGPASS, ["medium"], "wc --files0-from"],
    ["du --files0-from=$(echo ~/.pgpass)", PGPASS, ["medium"], "du --files0-from"],
    // 17: git config reads another file through an include
    ["git config --file=cfg --list --includes", PYPI, ["medium"], "git config --file"],
    ["git config --fil cfg --list --includes", PYPI, ["medium"], "git config --fil"],
    // 8: jq imports a JSON file from a search path
    [`jq -nc -L / 'import "HOME_RELATIVE/.docker/config" as $c; $c'`, DOCKER, ["medium"], "jq -L"],
  ]

  test.each(attacks.map((a, i) => [a[0], i] as const))("%s is real and asks", async (_, i) => {
    const [command, secret, risks, reason] = attacks[i]!
    // the jq path names the sandbox's home, known only once it exists
    const cmd = command.replace("HOME_RELATIVE", sb.home.slice(1))
    if (!cmd.startsWith("rg ") || Bun.which("rg")) expect(bash(cmd)).toContain(secret)
    const d = await check(cmd)
    expect({ decision: d.decision, risk: risks.includes(d.risk), reason: d.reason.includes(reason) }).toEqual({ decision: "ask", risk: true, reason: true })
  })

  // The analysis marks a glob a recursive read walks ({glob, recursive}); core/policy/prepare.ts must
  // apply credentialsBelow to the link targets its disk expansion finds. Todo until it does.
  test.each(["grep -r aws_secret *", "grep -rh aws_secret ./*/", "grep -r aws_secret [h]"])("%s walks a matched link where it leads: asks", async (command) => {
    expect(bash(command)).toContain(AWS)
    const d = await check(command)
    expect({ decision: d.decision, risk: d.risk }).toEqual({ decision: "ask", risk: "critical" })
  })

  test("ps e shows another process's environment, and asks", async () => {
    const child = Bun.spawn(["sleep", "30"], { env: { ...sb.env, TRICKS_API_KEY: "ps-tricks-secret" } })
    try {
      expect(bash("ps eww -e")).toContain("ps-tricks-secret")
      for (const cmd of ["ps eww -e", "ps axe", "ps -ef e", "ps e"]) {
        const d = await check(cmd)
        expect({ cmd, decision: d.decision, risk: d.risk, named: d.reason.includes("ps e") }).toEqual({ cmd, decision: "ask", risk: "high", named: true })
      }
    } finally {
      child.kill()
      await child.exited
    }
  })

  test("getent shadow reads password hashes: asks (as root it prints them)", async () => {
    if (process.getuid?.() === 0) expect(bash("getent shadow root")).toContain("root:")
    for (const cmd of ["getent shadow", "getent gshadow root", "getent -s files shadow"]) {
      const d = await check(cmd)
      expect({ cmd, decision: d.decision, risk: d.risk }).toEqual({ cmd, decision: "ask", risk: "high" })
    }
  })

  test("mktemp creates its file where its template says: under ~/.ssh is critical, outside the workspace high", async () => {
    mkdirSync(join(sb.home, ".ssh"), { recursive: true })
    bash("mktemp ~/.ssh/authorized_keysXXX")
    expect(readdirSync(join(sb.home, ".ssh")).some((f) => f.startsWith("authorized_keys"))).toBe(true)
    const ssh = await check("mktemp ~/.ssh/authorized_keysXXX")
    expect({ decision: ssh.decision, risk: ssh.risk }).toEqual({ decision: "ask", risk: "critical" })
    const away = await check("mktemp --tmpdir=/opt/ccode-tricks atkXXX")
    expect({ decision: away.decision, risk: away.risk, reason: away.reason.includes("/opt/ccode-tricks/atkXXX") }).toEqual({ decision: "ask", risk: "high", reason: true })
    expect(existsSync("/opt/ccode-tricks")).toBe(false)
  })

  test.each(["grep -r aws_secret .", "grep -rn hello README.md", "git diff --stat", "jq -n 1", "mktemp", "mktemp -d", "ps aux", "ps -eo pid,user,cmd", "getent passwd root", "date -f README.md"])(
    "%s stays allowed",
    async (command) => {
      const d = await check(command)
      expect({ command, decision: d.decision }).toEqual({ command, decision: "allow" })
    },
  )

  test("a workspace repository whose .git/config sets core.fsmonitor runs it on git status: asks", async () => {
    const repo = join(sb.root, "repo")
    mkdirSync(repo)
    expect(Bun.spawnSync(["git", "init", "-q", repo], { env: sb.env }).exitCode).toBe(0)
    writeFileSync(join(repo, ".git", "config"), `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = cat ~/.pgpass >&2; false #\n`)
    const r = Bun.spawnSync(["bash", "-c", "git status --short"], { cwd: repo, env: sb.env })
    expect(r.stderr.toString()).toContain(PGPASS)
    const out = await ccode(sb, ["policy", "check", "--json", "--", "git status --short"], { cwd: repo })
    const d = JSON.parse(out.stdout) as { decision: string; risk: string; reason: string }
    expect({ decision: d.decision, risk: d.risk, named: d.reason.includes("core.fsmonitor") }).toEqual({ decision: "ask", risk: "medium", named: true })
    // the same repository with a plain config: git status stays allowed
    writeFileSync(join(repo, ".git", "config"), "[core]\n\trepositoryformatversion = 0\n\tbare = false\n")
    const plain = JSON.parse((await ccode(sb, ["policy", "check", "--json", "--", "git status --short"], { cwd: repo })).stdout) as { decision: string }
    expect(plain.decision).toBe("allow")
  })
})
