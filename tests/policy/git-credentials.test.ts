// A git config holding a credential (actions/checkout's extraheader, a URL with a password) is read by
// `cat .git/config`, `git config -l`, a host's Read: each asks high, naming the key and never its value.
// The same reads of an ordinary config stay allowed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"
import { gitConfigCredential } from "../../core/base/gitcreds.ts"

const CHECKOUT = '[core]\n\tbare = false\n[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic RkFLRVNFQ1JFVC1naHRva2Vu\n'
const PLAIN = '[core]\n\tbare = false\n[remote "origin"]\n\turl = https://github.com/o/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n'

describe("git config files that hold a credential", () => {
  let root: string
  let ws: string
  let home: string
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-gitcreds-")))
    ws = join(root, "ws")
    home = join(root, "home")
    mkdirSync(join(ws, ".git"), { recursive: true })
    mkdirSync(home)
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const decideIn = async (tool: string, args: Record<string, unknown>) => {
    const call = await prepareCall(tool, args, { cwd: ws, workspace: ws, home, tmpDirs: ["/tmp"], toolRisk: tool === "shell" ? undefined : "safe" })
    return decide(bundledPolicy("default"), call, { grants: [] })
  }

  test("the keys that hold one, never their values", () => {
    const file = join(root, "c")
    const cases: [string, string | undefined][] = [
      [CHECKOUT, "http.https://github.com/.extraheader"],
      ['[remote "origin"]\n\turl = https://x-access-token:ghs_abc@github.com/o/r\n', "remote.origin.url (a URL with a password)"],
      ['[url "https://bob:tok@example.com/"]\n\tinsteadOf = https://example.com/\n', "url.https://…@example.com/.insteadof (a URL with a password)"],
      [PLAIN, undefined],
      ["[user]\n\tname = a\n", undefined],
      // a helper that carries the secret itself (attack review 7): git config -l printed it
      ['[credential]\n\thelper = "!f() { echo username=u; echo password=FAKESECRET; }; f"\n', "credential.helper (a helper that holds its password)"],
      ['[credential "https://example.com"]\n\thelper = "!echo token=abc"\n', "credential.https://example.com.helper (a helper that holds its password)"],
      ["[credential]\n\thelper = store\n", undefined],
      ["[credential]\n\thelper = cache --timeout=3600\n", undefined],
      // attack review 8: a token under other keys, in an askpass line, as a credential's user name
      ["[core]\n\taskPass = echo ghp_FAKESECRETaskpass1234567890abcd\n", "core.askpass (a program line that holds a secret)"],
      ["[github]\n\toauth-token = ghp_FAKESECRET\n", "github.oauth-token"],
      ["[x]\n\tapi-key = k\n", "x.api-key"],
      ['[credential "https://github.com"]\n\tusername = ghp_FAKESECRETcreduser123456789\n', "credential.https://github.com.username (a token as the user name)"],
      ["[core]\n\taskPass = /usr/lib/ssh/x11-ssh-askpass\n", undefined],
      ['[credential "https://dev.azure.com"]\n\tusername = john.smith2@example.com\n', undefined],
      ["[credential]\n\tusername = bob\n", undefined],
      ["[user]\n\tsigningkey = ABCDEF0123456789\n", undefined],
    ]
    for (const [text, key] of cases) {
      writeFileSync(file, text)
      expect(gitConfigCredential(file)).toBe(key)
    }
  })

  test("cat .git/config, git config -l, --get-regexp and a Read ask high when it holds one", async () => {
    writeFileSync(join(ws, ".git", "config"), CHECKOUT)
    for (const command of ["cat .git/config", "git config -l", "git config --get-regexp extraheader", "git config list --show-origin", "head -n 20 .git/config", "git -C . config --list"]) {
      const d = await decideIn("shell", { command })
      expect({ command, decision: d.decision, risk: d.risk }).toEqual({ command, decision: "ask", risk: "high" })
      expect(d.reason).toContain("extraheader")
      expect(d.reason).not.toContain("RkFLRVNF")
    }
    const read = await decideIn("read_file", { path: join(ws, ".git", "config") })
    expect([read.decision, read.risk]).toEqual(["ask", "high"])
    expect(read.reason).toContain("holds a credential")
  })

  test("a remote URL holding a token: git remote -v, get-url and git config remote.origin.url ask", async () => {
    writeFileSync(join(ws, ".git", "config"), '[remote "origin"]\n\turl = https://x-access-token:FAKESECRET@github.com/o/r.git\n')
    for (const command of ["git remote -v", "git remote get-url origin", "git config remote.origin.url", "cat .git/config"]) {
      const d = await decideIn("shell", { command })
      expect({ command, decision: d.decision, risk: d.risk }).toEqual({ command, decision: "ask", risk: "high" })
      expect(d.reason).toContain("remote.origin.url (a URL with a password)")
      expect(d.reason).not.toContain("FAKESECRET")
    }
  })

  test("the user's ~/.gitconfig too", async () => {
    writeFileSync(join(ws, ".git", "config"), PLAIN)
    writeFileSync(join(home, ".gitconfig"), '[url "https://bob:tok@example.com/"]\n\tinsteadOf = https://example.com/\n')
    try {
      const d = await decideIn("shell", { command: "git config --global -l" })
      expect([d.decision, d.risk]).toEqual(["ask", "high"])
      expect(d.reason).toContain(".gitconfig")
    } finally {
      rmSync(join(home, ".gitconfig"))
    }
  })

  test("an ordinary config stays allowed", async () => {
    writeFileSync(join(ws, ".git", "config"), PLAIN)
    for (const command of ["cat .git/config", "git config -l", "git config --get remote.origin.url", "git status", "git remote -v"]) {
      const d = await decideIn("shell", { command })
      expect({ command, decision: d.decision }).toEqual({ command, decision: "allow" })
    }
  })
})
