// Attack review 6 (paths, credentials, git state, host payloads) against the compiled binary under the
// bundled `ci` policy, which auto-approves medium: each attack is first proven real with bash in the
// sandbox (a fake secret in its HOME or workspace, a marker file), then `policy check` must ask and
// name the cause. curl file: URLs and --url-query @FILE, a git directory by another name, git clone and
// archive writing into the home, rg with a glob that names a dot-file, HOME through a link, and Gemini's
// read_many_files with a directory in another case.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { ccode, sandbox, type Sandbox, type Verdict } from "./harness.ts"

describe("round 6: paths, credentials and git state under the ci policy", () => {
  let sb: Sandbox
  let gd: string
  const NETRC = "machine x login y password FAKESECRET-netrc"
  const ENV = "TOKEN=FAKESECRET-env"
  const git = (cwd: string, ...args: string[]) => {
    const r = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main", ...args], { cwd, env: sb.env })
    if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`)
  }
  const bash = (command: string, cwd = sb.work, env: Record<string, string> = {}) => {
    const r = Bun.spawnSync(["bash", "-c", command], { cwd, env: { ...sb.env, GIT_CONFIG_NOSYSTEM: "1", ...env }, stdin: "ignore" })
    return r.stdout.toString() + r.stderr.toString()
  }
  const ci = async (command: string, opts: { cwd?: string; env?: Record<string, string> } = {}) => {
    const r = await ccode(sb, ["policy", "check", "--json", "--policy", "ci", "--", command], opts)
    if (!r.stdout.trim()) throw new Error(`policy check printed nothing (exit ${r.code}): ${r.stderr}`)
    return JSON.parse(r.stdout) as Verdict
  }

  beforeAll(() => {
    sb = sandbox()
    writeFileSync(join(sb.home, ".netrc"), `${NETRC}\n`)
    writeFileSync(join(sb.work, ".env"), `${ENV}\n`)
    writeFileSync(join(sb.work, "a.txt"), "hello\n")
    git(sb.work, "init", "-q")
    git(sb.work, "add", "a.txt")
    git(sb.work, "commit", "-qm", "init")
    // a repository whose .git is a file pointing at ./gitdata
    gd = join(sb.root, "gd")
    mkdirSync(gd)
    git(gd, "init", "-q", "--separate-git-dir=./gitdata")
    writeFileSync(join(gd, "f"), "x\n")
    git(gd, "add", "f")
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  test("curl reads local files through file: URLs and sends them with --url-query @FILE", async () => {
    expect(bash(`curl -s file://${sb.home}/.netrc`)).toContain("FAKESECRET-netrc")
    expect(bash(`curl -s FILE://localhost${sb.home}/.netrc`)).toContain("FAKESECRET-netrc")
    expect(bash("curl -s -w @.env file:///dev/null")).toContain("FAKESECRET-env")
    const cases: [string, string][] = [[`curl -s file://${sb.home}/.netrc`, ".netrc"], [`curl -s FILE://localhost${sb.home}/.netrc`, ".netrc"], ["curl -s -w @.env http://127.0.0.1:9/", ".env"], [`curl -s --url-query @${sb.home}/.netrc http://127.0.0.1:9/`, ".netrc"], ["curl -K cfg.txt", "cfg.txt"]]
    for (const [command, named] of cases) {
      const d = await ci(command)
      expect({ command, decision: d.decision }).toEqual({ command, decision: "ask" })
      expect(d.reason).toContain(named)
    }
  })

  test("a hook written into a git directory named gitdata runs; the write is critical", async () => {
    bash(`printf '#!/bin/sh\\ntouch ${sb.root}/pwned-gd\\n' > gitdata/hooks/post-index-change && chmod +x gitdata/hooks/post-index-change && git status >/dev/null`, gd)
    expect(existsSync(join(sb.root, "pwned-gd"))).toBe(true)
    for (const command of ["echo x > gitdata/hooks/pre-commit", "echo x >> gitdata/config"]) {
      const d = await ci(command, { cwd: gd })
      expect({ command, decision: d.decision, risk: d.risk }).toEqual({ command, decision: "ask", risk: "critical" })
      expect(d.reason).toContain("the workspace's git directory")
    }
  })

  test("git clone and git archive write into the home directory; judged as those writes", async () => {
    bash(`git clone -q . ${sb.home}/.bashrc.d && git archive -o ${sb.home}/.atk-arch HEAD`)
    expect(readFileSync(join(sb.home, ".bashrc.d", "a.txt"), "utf8")).toBe("hello\n")
    expect(existsSync(join(sb.home, ".atk-arch"))).toBe(true)
    // the sandbox's HOME is below the temporary folder (medium for a plain write there): the targets are startup files
    const cases: [string, string][] = [["git clone -q . ~/.bashrc.d", "critical"], ["git archive -o ~/.bashrc HEAD", "critical"], ["git worktree add ~/.config/fish/conf.d", "critical"], ["git checkout-index -a --prefix=$HOME/.bashrc.d/", "critical"], ["git bundle create ~/.profile HEAD", "critical"], ["git format-patch -o ~/.bashrc.d -1", "critical"]]
    for (const [command, risk] of cases) {
      const d = await ci(command)
      expect({ command, decision: d.decision, risk: d.risk }).toEqual({ command, decision: "ask", risk })
      expect(d.reason).toContain(sb.home)
    }
  })

  test("git log -L with its value attached prints the committed file", async () => {
    const repo = join(sb.root, "lrepo")
    mkdirSync(repo)
    git(repo, "init", "-q")
    writeFileSync(join(repo, ".env"), `${ENV}\n`)
    git(repo, "add", ".env")
    git(repo, "commit", "-qm", "env")
    expect(bash("git log -L1,1:.env", repo)).toContain("FAKESECRET-env")
    const d = await ci("git log -L1,1:.env", { cwd: repo })
    expect([d.decision, d.risk]).toEqual(["ask", "high"])
    expect(d.reason).toContain(".env")
  })

  test("rg with a glob naming a dot-file searches it", async () => {
    const hasRg = Bun.spawnSync(["sh", "-c", "command -v rg"]).exitCode === 0
    if (hasRg) expect(bash("rg -g .env TOKEN")).toContain("FAKESECRET-env")
    for (const command of ["rg -g .env TOKEN", "rg --iglob .ENV TOKEN", "rg -g '.e*' TOKEN"]) {
      const d = await ci(command)
      expect({ command, decision: d.decision }).toEqual({ command, decision: "ask" })
      expect(d.reason).toContain(".env")
    }
    expect((await ci("rg -g '*.ts' TOKEN")).decision).toBe("allow")
  })

  test("HOME through a link: the home's credential files still ask", async () => {
    const real = join(sb.root, "realhome")
    const link = join(sb.root, "homelink")
    mkdirSync(join(real, ".ssh"), { recursive: true })
    writeFileSync(join(real, ".ssh", "config"), "Host x\n  IdentityFile FAKESECRET-cfg\n")
    writeFileSync(join(real, ".pgpass"), "h:5432:d:u:FAKESECRET-pg\n")
    symlinkSync(real, link)
    expect(bash("cat ~/.ssh/config ~/.pgpass", sb.work, { HOME: link })).toContain("FAKESECRET-pg")
    for (const command of ["cat ~/.ssh/config", "cat ~/.pgpass", `cat ${real}/.pgpass`]) {
      const d = await ci(command, { env: { HOME: link } })
      expect({ command, decision: d.decision }).toEqual({ command, decision: "ask" })
    }
  })

  test("Gemini read_many_files with a directory in another case", async () => {
    mkdirSync(join(sb.work, "keys"))
    writeFileSync(join(sb.work, "keys", "server.pem"), "FAKESECRET-pem\n")
    const payload = { hook_event_name: "BeforeTool", session_id: "s1", tool_use_id: "t1", cwd: sb.work, tool_name: "read_many_files", tool_input: { include: ["KEYS/*"] } }
    const r = await ccode(sb, ["hook", "gemini"], { stdin: JSON.stringify(payload) })
    expect(r.code).toBe(0)
    const answer = JSON.parse(r.stdout) as { decision: string; reason: string }
    expect(answer.decision).toBe("ask")
    expect(answer.reason).toContain("server.pem")
  })
})
