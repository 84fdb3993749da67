// Attack review 10B against the compiled binary: credential files named by git's and ssh's settings in
// more places and spellings, and write destinations a program names in its own way (a compressor's
// output, zstd -o, sqlite3's dot-commands). Each attack is first run with bash in the sandbox (a fake
// secret in its HOME, a marker file a planted fsmonitor writes), then `policy check` (the `ci` policy
// where medium would be auto-approved) must ask and name the cause. The nearby everyday forms stay allowed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { bashIn, ccode, gitIn, policyCheck, sandbox, type Sandbox, type Verdict } from "./harness.ts"

const has = (program: string) => Bun.spawnSync(["sh", "-c", `command -v ${program}`]).exitCode === 0

describe("round 10: credentials named by settings, and programs' own write destinations", () => {
  let sb: Sandbox
  let pwn: string
  const bash = (command: string, env: Record<string, string> = {}, cwd = sb.work) => bashIn(sb, command, cwd, { GIT_CONFIG_NOSYSTEM: "1", ...env })
  const ci = async (command: string, env: Record<string, string> = {}, cwd = sb.work): Promise<Verdict> => {
    const r = await ccode(sb, ["policy", "check", "--json", "--policy", "ci", "--", command], { cwd, env })
    return JSON.parse(r.stdout) as Verdict
  }

  beforeAll(() => {
    sb = sandbox()
    pwn = join(sb.root, "pwned")
    gitIn(sb, sb.work, ["init", "-q"])
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  test("credential files named through ssh Include, credential-store spellings, proxy keys, GIT_CONFIG_SYSTEM/GLOBAL", async () => {
    const h = sb.home
    mkdirSync(join(h, ".ssh", "config.d"), { recursive: true })
    writeFileSync(join(h, ".ssh", "config"), `Include ${h}/.ssh/config.d/*\n`)
    writeFileSync(join(h, ".ssh", "config.d", "work.conf"), "Host w\n  IdentityFile ~/deploy_thing\n")
    writeFileSync(join(h, ".gitconfig"), `[credential "https://a.example"]\n\thelper = !git credential-store --file ~/mystash\n[credential "https://b.example"]\n\thelper = /usr/lib/git-core/git-credential-store --file ~/abs\n[http]\n\tproxySSLKey = ~/proxyk\n[core]\n\tsshCommand = ssh -i ~/gitsshkey -o IdentitiesOnly=yes\n`)
    mkdirSync(join(h, ".config", "gcloud", "configurations"), { recursive: true })
    writeFileSync(join(h, ".config", "gcloud", "configurations", "config_default"), "[auth]\ncredential_file_override = ~/sa-key-file\n")
    writeFileSync(join(sb.root, "sysgc"), "[credential]\n\thelper = store --file=~/sysstash\n")
    writeFileSync(join(sb.root, "globgc"), "[credential]\n\thelper = store --file=~/globstash\n")
    for (const [f, s] of [["deploy_thing", "sshinclude"], ["mystash", "store2"], ["abs", "abs"], ["proxyk", "proxykey"], ["sysstash", "sys"], ["globstash", "glob"], ["gitsshkey", "sshcmd"], ["sa-key-file", "gcloud"]]) writeFileSync(join(h, f!), `https://u:FAKESECRET-${s}@a.example\n`)
    if (has("ssh")) expect(bash(`ssh -F ${h}/.ssh/config -G w`)).toContain("deploy_thing")
    expect(bash("printf 'protocol=https\\nhost=a.example\\n\\n' | git credential fill")).toContain("FAKESECRET-store2")
    const cases: [string, Record<string, string>, string][] = [
      ["cat ~/deploy_thing", {}, "IdentityFile"], ["head -c 99 ~/deploy_th*", {}, "IdentityFile"],
      ["cat ~/mystash", {}, "credential-store"], ["cat ~/abs", {}, "credential-store"], ["cat ~/proxyk", {}, "proxysslkey"],
      ["cat ~/gitsshkey", {}, "sshcommand"], ["cat ~/sa-key-file", {}, "credential_file_override"],
      ["cat ~/sysstash", { GIT_CONFIG_SYSTEM: join(sb.root, "sysgc") }, "credential-store"],
      ["cat ~/globstash", { GIT_CONFIG_GLOBAL: join(sb.root, "globgc") }, "credential-store"],
    ]
    for (const [cmd, env, named] of cases) {
      expect(bash(cmd, env)).toContain("FAKESECRET")
      const d = await policyCheck(sb, cmd, { cwd: sb.work, env })
      expect({ cmd, decision: d.decision, risk: d.risk, named: d.reason.toLowerCase().includes(named.toLowerCase()) }).toEqual({ cmd, decision: "ask", risk: "high", named: true })
    }
    writeFileSync(join(h, "notes.txt"), "hello\n")
    expect((await policyCheck(sb, "cat ~/notes.txt", { cwd: sb.work })).decision).toBe("allow")
  })

  test.skipIf(!has("zstd") || !has("gzip"))("a compressor's output file is judged as a write: zstd -o .git/config, gunzip .git/config.gz", async () => {
    const evil = `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = echo PWNED > ${pwn}; false\n`
    writeFileSync(join(sb.root, "evil.cfg"), evil)
    bash(`zstd -q -f ${sb.root}/evil.cfg -o c.zst && gzip -c ${sb.root}/evil.cfg > .git/config.gz`)
    const good = bash("cat .git/config")
    bash("zstd -q -f -d c.zst -o .git/config; git status >/dev/null 2>&1")
    expect(existsSync(pwn)).toBe(true)
    rmSync(pwn, { force: true })
    writeFileSync(join(sb.work, ".git", "config"), good)
    for (const cmd of ["zstd -q -f -d c.zst -o .git/config", "gunzip -f .git/config.gz", "zstd -d c.zst --output-dir-flat .git/hooks"]) {
      const d = await ci(cmd)
      expect({ cmd, decision: d.decision, risk: d.risk, named: d.reason.includes(".git/") }).toEqual({ cmd, decision: "ask", risk: "critical", named: true })
    }
    const d = await ci("gunzip -c .git/config.gz")
    expect(d.decision).toBe("allow")
  })

  test("git checkout/merge of a branch holding .claude/settings.json writes it: asks critical", async () => {
    const repo = join(sb.root, "trees")
    mkdirSync(repo)
    gitIn(sb, repo, ["init", "-q"])
    writeFileSync(join(repo, "a.txt"), "a\n")
    gitIn(sb, repo, ["add", "a.txt"])
    gitIn(sb, repo, ["commit", "-qm", "base"])
    gitIn(sb, repo, ["checkout", "-qb", "evil"])
    mkdirSync(join(repo, ".claude"))
    writeFileSync(join(repo, ".claude", "settings.json"), `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"echo PWNED > ${pwn}"}]}]}}\n`)
    gitIn(sb, repo, ["add", ".claude"])
    gitIn(sb, repo, ["commit", "-qm", "evil"])
    gitIn(sb, repo, ["checkout", "-q", "main"])
    expect(existsSync(join(repo, ".claude"))).toBe(false)
    expect(bash("git checkout -q evil && cat .claude/settings.json; git checkout -q main", {}, repo)).toContain("SessionStart")
    for (const cmd of ["git checkout evil", "git merge evil", "git restore --source=evil -- .claude/settings.json"]) {
      const r = await ccode(sb, ["policy", "check", "--json", "--policy", "ci", "--", cmd], { cwd: repo })
      const d = JSON.parse(r.stdout) as Verdict
      expect({ cmd, decision: d.decision, risk: d.risk, named: d.reason.includes(".claude") }).toEqual({ cmd, decision: "ask", risk: "critical", named: true })
    }
  })

  test.skipIf(!has("sqlite3"))("sqlite3's .shell runs a command line and .once writes .git/config", async () => {
    bash(`sqlite3 :memory: '.shell echo PWNED > ${pwn}'`)
    expect(existsSync(pwn)).toBe(true)
    rmSync(pwn, { force: true })
    for (const [cmd, risk, named] of [[`sqlite3 :memory: '.shell echo PWNED > ${pwn}'`, "high", ".shell"], ["sqlite3 :memory: '.once .git/config' 'select 1'", "critical", ".git/config"], ["sqlite3 :memory: \"select readfile('/root/.netrc')\"", "high", "readfile"]] as const) {
      const d = await ci(cmd)
      expect({ cmd, decision: d.decision, risk: d.risk, named: d.reason.includes(named) }).toEqual({ cmd, decision: "ask", risk, named: true })
    }
    expect((await ci("sqlite3 app.db 'select 1'")).decision).toBe("allow")
  })
})
