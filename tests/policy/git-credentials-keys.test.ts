// Tokens a git config keeps under keys other than URLs and password keys (attack review 11): a program
// line with the secret inline (`core.askPass = echo ghp_…`), hyphenated token keys (`github.oauth-token`),
// a token stored as `credential.<url>.username`. `git config -l`, `cat .git/config`, `cat ~/.gitconfig`
// printed them; now each asks high naming the key, never the value. Ordinary values stay allowed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"
import { gitConfigCredential } from "../../core/base/gitcreds.ts"

const TOKEN = "ghp_FAKESECRETaskpass0123456789abcdefABCD"

describe("git config keys that hold a token", () => {
  let root: string
  let ws: string
  let home: string
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-gitkeys-")))
    ws = join(root, "ws")
    home = join(root, "home")
    mkdirSync(join(ws, ".git"), { recursive: true })
    mkdirSync(home)
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const decideIn = async (command: string) => {
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, home, tmpDirs: ["/tmp"] })
    return decide(bundledPolicy("default"), call, { grants: [] })
  }

  test("the keys, never their values", () => {
    const file = join(root, "c")
    const cases: [string, string | undefined][] = [
      [`[core]\n\taskPass = echo ${TOKEN}\n`, "core.askpass (a program line that holds a secret)"],
      ["[core]\n\taskPass = printf %s hunter2\n", "core.askpass (a program line that holds a secret)"],
      [`[core]\n\tsshCommand = sshpass -p hunter2 ssh\n`, "core.sshcommand (a program line that holds a secret)"],
      [`[github]\n\toauth-token = ${TOKEN}\n`, "github.oauth-token"],
      [`[gitlab]\n\tapi-key = abc\n`, "gitlab.api-key"],
      [`[foo]\n\tclient-secret = abc\n`, "foo.client-secret"],
      [`[credential "https://github.com"]\n\tusername = ${TOKEN}\n`, "credential.https://github.com.username (a token as the user name)"],
      [`[credential]\n\tusername = 0123456789abcdef0123456789abcdef01234567\n`, "credential.username (a token as the user name)"],
      // ordinary values
      ["[core]\n\taskPass = /usr/lib/git-core/git-gui--askpass\n", undefined],
      ["[core]\n\tsshCommand = ssh -i ~/.ssh/id_ed25519_github_deploy_key -o IdentitiesOnly=yes\n", undefined],
      ['[credential "https://github.com"]\n\tusername = octocat\n', undefined],
      ["[credential]\n\tusername = jane.doe-1984@example-company.com\n", undefined],
      ["[user]\n\tsigningkey = 3AA5C34371567BD2\n", undefined],
      ["[commit]\n\tgpgsign = true\n[gpg]\n\tformat = ssh\n", undefined],
    ]
    for (const [text, key] of cases) {
      writeFileSync(file, text)
      expect({ text, key: gitConfigCredential(file) }).toEqual({ text, key })
    }
  })

  test("git config -l, cat .git/config and the user's ~/.gitconfig ask high", async () => {
    writeFileSync(join(ws, ".git", "config"), `[core]\n\tbare = false\n\taskPass = echo ${TOKEN}\n`)
    for (const command of ["git config -l", "cat .git/config", "git config core.askpass", "git config --get core.askPass"]) {
      const d = await decideIn(command)
      expect({ command, decision: d.decision, risk: d.risk }).toEqual({ command, decision: "ask", risk: "high" })
      expect(d.reason).toContain("core.askpass")
      expect(d.reason).not.toContain("FAKESECRET")
    }
    writeFileSync(join(ws, ".git", "config"), "[core]\n\tbare = false\n")
    for (const body of [`[github]\n\toauth-token = ${TOKEN}\n`, `[credential "https://github.com"]\n\tusername = ${TOKEN}\n`]) {
      writeFileSync(join(home, ".gitconfig"), body)
      for (const command of ["cat ~/.gitconfig", "git config --global --get-regexp 'github|credential'", "git config -l"]) {
        const d = await decideIn(command)
        expect({ command, body, decision: d.decision, risk: d.risk }).toEqual({ command, body, decision: "ask", risk: "high" })
        expect(d.reason).not.toContain("FAKESECRET")
      }
    }
    rmSync(join(home, ".gitconfig"))
  })

  test("a token in a file the config includes: git config -l and the included file's reads ask", async () => {
    writeFileSync(join(ws, ".git", "config"), "[core]\n\tbare = false\n[include]\n\tpath = ../cfg/gitconfig-secrets\n")
    mkdirSync(join(ws, "cfg"), { recursive: true })
    writeFileSync(join(ws, "cfg", "gitconfig-secrets"), `[github]\n\toauth-token = ${TOKEN}\n`)
    const d = await decideIn("git config -l")
    expect([d.decision, d.risk]).toEqual(["ask", "high"])
    expect(d.reason).toContain(`github.oauth-token in ${join(ws, "cfg", "gitconfig-secrets")}, which ${join(ws, ".git", "config")} includes`)
    expect(d.reason).not.toContain("FAKESECRET")
    // includeIf, whatever its condition, and a file named like a user's git config
    writeFileSync(join(ws, ".git", "config"), '[includeIf "gitdir:~/work/"]\n\tpath = ../cfg/gitconfig-secrets\n')
    expect((await decideIn("git config -l")).risk).toBe("high")
    writeFileSync(join(home, ".gitconfig.local"), `[credential "https://github.com"]\n\tusername = ${TOKEN}\n`)
    expect((await decideIn("cat ~/.gitconfig.local")).risk).toBe("high")
    writeFileSync(join(home, ".gitconfig.local"), "[user]\n\tname = a\n")
    expect((await decideIn("cat ~/.gitconfig.local")).decision).toBe("allow")
    // an include cycle ends
    writeFileSync(join(ws, ".git", "config"), "[include]\n\tpath = config\n")
    const cycle = await decideIn("git config -l")
    expect(cycle.reason).not.toContain("holds a credential")
  })

  test("ordinary askPass, user names and ssh commands stay allowed", async () => {
    writeFileSync(join(ws, ".git", "config"), "[core]\n\taskPass = /usr/bin/ksshaskpass\n\tsshCommand = ssh -i ~/.ssh/deploy\n[credential \"https://github.com\"]\n\tusername = octocat\n")
    for (const command of ["git config -l", "cat .git/config", "git config core.askpass"]) {
      const d = await decideIn(command)
      expect({ command, decision: d.decision }).toEqual({ command, decision: "allow" })
    }
  })
})
