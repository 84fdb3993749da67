// Review 8: credentials kept where the path rules did not look: workspace files by name (a PuTTY key,
// terraform values, an Ansible vault password), git configs holding a token under other keys, blobs read by
// id that no commit holds (a .env staged and unstaged), Kerberos ticket caches and systemd credentials
// named through their variables. Each attack is first run for real in the sandbox (a fake secret), then the
// compiled binary must ask and name the cause; the everyday reads beside them stay allowed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { bashIn, gitIn, policyCheck, sandbox, type Sandbox } from "./harness.ts"

const TOKEN = "ghp_FAKESECRETaskpass0123456789abcdefABCD"

describe("round 8 credential files", () => {
  let sb: Sandbox
  beforeAll(() => {
    sb = sandbox()
    for (const name of ["x.ppk", "terraform.tfvars", "token.pickle", "sftp-config.json", ".vault_pass", "serviceAccountKey.json"]) sb.file(`cfg/${name}`, `FAKESECRET-${name}\n`)
    sb.file("infra/variables.tf", 'variable "region" {}\n')
    gitIn(sb, sb.work, ["init", "-q"])
    sb.file("x.txt", "x\n")
    gitIn(sb, sb.work, ["add", "x.txt"])
    gitIn(sb, sb.work, ["commit", "-qm", "one"])
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))
  const run = (command: string, env: Record<string, string> = {}) => bashIn(sb, command, sb.work, env)

  test("workspace credential files by name: cat, a glob, grep -r ask; variables.tf stays allowed", async () => {
    expect(run("cat cfg/*")).toContain("FAKESECRET-x.ppk")
    for (const [command, named] of [["cat cfg/x.ppk", "x.ppk"], ["cat cfg/*", "cfg/"], ["grep -r FAKESECRET cfg", "cfg/"], ["head cfg/terraform.tfvars", "terraform.tfvars"], ["cat cfg/.vault_pass", ".vault_pass"]] as const) {
      const d = await policyCheck(sb, command)
      expect({ command, decision: d.decision, risk: d.risk }).toEqual({ command, decision: "ask", risk: "high" })
      expect(d.reason).toContain(named)
    }
    expect((await policyCheck(sb, "cat infra/variables.tf")).decision).toBe("allow")
  })

  test("a git config's core.askPass, github.oauth-token and credential username tokens: reads ask, never quoting them", async () => {
    const home = join(sb.root, "home8")
    mkdirSync(home, { recursive: true })
    writeFileSync(join(home, ".gitconfig"), `[github]\n\toauth-token = ${TOKEN}\n[credential "https://github.com"]\n\tusername = ${TOKEN}x\n`)
    gitIn(sb, sb.work, ["config", "core.askPass", `echo ${TOKEN}`])
    const env = { HOME: home }
    expect(run("git config -l", env)).toContain(TOKEN)
    for (const command of ["git config -l", "cat .git/config", "git config core.askpass", "cat ~/.gitconfig", "git config --global --get-regexp 'github|credential'"]) {
      const d = await policyCheck(sb, command, { env })
      expect({ command, decision: d.decision, risk: d.risk }).toEqual({ command, decision: "ask", risk: "high" })
      expect(d.reason).toContain("holds a credential")
      expect(d.reason).not.toContain("FAKESECRET")
    }
    gitIn(sb, sb.work, ["config", "--unset", "core.askPass"])
    expect((await policyCheck(sb, "git config -l")).decision).toBe("allow")
  })

  test("a .env staged then unstaged is a dangling blob: git cat-file -p / git show by id ask high", async () => {
    sb.file(".env", "API_KEY=FAKESECRET-dangling\n")
    gitIn(sb, sb.work, ["add", "-f", ".env"])
    const id = gitIn(sb, sb.work, ["rev-parse", ":.env"])
    gitIn(sb, sb.work, ["reset", "-q", ".env"])
    rmSync(join(sb.work, ".env"))
    expect(run("git fsck --dangling")).toContain(id)
    expect(run(`git cat-file -p ${id.slice(0, 7)}`)).toContain("FAKESECRET-dangling")
    expect((await policyCheck(sb, "git fsck --dangling")).decision).toBe("allow")
    for (const command of [`git cat-file -p ${id}`, `git show ${id.slice(0, 7)}`, `git cat-file blob ${id.slice(0, 10)}`]) {
      const d = await policyCheck(sb, command)
      expect({ command, decision: d.decision, risk: d.risk }).toEqual({ command, decision: "ask", risk: "high" })
      expect(d.reason).toContain("no commit, reflog entry or index entry names")
    }
    // git fsck --lost-found writes it out by id: reading those files asks too
    run("git fsck --lost-found")
    expect(run("cat .git/lost-found/other/*")).toContain("FAKESECRET-dangling")
    for (const command of ["cat .git/lost-found/other/*", "grep -r API_KEY .git/lost-found"]) {
      const d = await policyCheck(sb, command)
      expect({ command, decision: d.decision, risk: d.risk }).toEqual({ command, decision: "ask", risk: "high" })
    }
    // an ordinary blob by id stays allowed
    expect((await policyCheck(sb, `git cat-file -p ${gitIn(sb, sb.work, ["rev-parse", "HEAD:x.txt"])}`)).decision).toBe("allow")
  })

  test("a staged .env.prod read by its blob id asks high, naming it", async () => {
    sb.file(".env.prod", "API_KEY=FAKESECRET-staged\n")
    gitIn(sb, sb.work, ["add", "-f", ".env.prod"])
    const id = gitIn(sb, sb.work, ["rev-parse", ":.env.prod"])
    expect(run(`git cat-file -p ${id}`)).toContain("FAKESECRET-staged")
    const d = await policyCheck(sb, `git cat-file -p ${id}`)
    expect([d.decision, d.risk]).toEqual(["ask", "high"])
    expect(d.reason).toContain(".env.prod")
    gitIn(sb, sb.work, ["rm", "-q", "--cached", ".env.prod"])
  })

  test("a Kerberos ticket cache and systemd credentials through their variables ask high", async () => {
    const cache = join(sb.root, "tmp", "krb5cc_1000")
    writeFileSync(cache, "FAKESECRET-krb5cc\n")
    const creds = join(sb.root, "creds")
    mkdirSync(creds)
    writeFileSync(join(creds, "db-password"), "FAKESECRET-credential\n")
    const env = { KRB5CCNAME: `FILE:${cache}`, CREDENTIALS_DIRECTORY: creds }
    expect(run('cat "${KRB5CCNAME#FILE:}"', env)).toContain("FAKESECRET-krb5cc")
    expect(run("cat $CREDENTIALS_DIRECTORY/db-password", env)).toContain("FAKESECRET-credential")
    for (const [command, named] of [['cat "${KRB5CCNAME#FILE:}"', "KRB5CCNAME"], ["cat $CREDENTIALS_DIRECTORY/db-password", "CREDENTIALS_DIRECTORY"], [`strings ${cache}`, "krb5cc_1000"]] as const) {
      const d = await policyCheck(sb, command, { env })
      expect({ command, decision: d.decision, risk: d.risk }).toEqual({ command, decision: "ask", risk: "high" })
      expect(d.reason).toContain(named)
    }
    expect((await policyCheck(sb, "echo $KRB5CCNAME", { env })).decision).toBe("allow")
  })
})
