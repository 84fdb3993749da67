// Round 11: key files ssh and git settings name in the forms ssh expands — `%` tokens (`%u`, `%h`, `%r`...),
// `${VAR}`, `ssh -o IdentityFile=K` / `-oIdentityFile=K` / `-F CONFIG` in core.sshCommand or GIT_SSH_COMMAND —
// are credentials whatever they are called: a read asks high and says which setting names it. Real
// configs in a temp home, decided under the bundled default policy.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"

describe("ssh key names with tokens, variables and -o", () => {
  let root: string
  let ws: string
  let home: string
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-sshkeys-")))
    ws = join(root, "ws")
    home = join(root, "home")
    mkdirSync(ws, { recursive: true })
    mkdirSync(join(home, ".ssh"), { recursive: true })
    mkdirSync(join(home, "keys", "hosts"), { recursive: true })
    mkdirSync(join(home, "other"), { recursive: true })
    for (const k of ["root.k", "mykey2", "gitkey", "id-github.com", "envkey", "fkey", "plain.k", "readme.txt", "hosts/h1"]) writeFileSync(join(home, "keys", k), `FAKESECRET-${k}\n`)
    writeFileSync(join(home, "other", "notes.txt"), "notes\n")
    writeFileSync(join(home, ".ssh", "config"), `Host *\n  IdentityFile ${home}/keys/%u.k\n  IdentityFile \${HOME}/keys/mykey2\n  IdentityFile ~/keys/id-%h\n  IdentityFile ~/keys/hosts/%h\n  IdentityFile ~root/.ccode-test-nonexistent-key\n`)
    writeFileSync(join(home, ".gitconfig"), `[core]\n\tsshCommand = ssh -o IdentityFile=${home}/keys/gitkey -F ~/other/sshconf\n`)
    writeFileSync(join(home, "other", "sshconf"), `Host x\n  IdentityFile ~/keys/fkey\n`)
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const decideIn = async (command: string, env: Record<string, string> = {}) => {
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, home, tmpDirs: ["/nonexistent-tmp"], env: { HOME: home, PATH: "/usr/bin:/bin", ...env } })
    return decide(bundledPolicy("default"), call, { grants: [] })
  }

  test("each key a setting names asks high and names the setting", async () => {
    const cases: [string, string][] = [
      [`cat ${home}/keys/root.k`, "%u.k"],
      ["cat ~/keys/mykey2", "IdentityFile"],
      ["cat ~/keys/gitkey", "core.sshCommand"],
      ["cat ~/keys/id-github.com", "id-%h"],
      ["head ~/keys/hosts/h1", "%h"],
      ["cat ~/keys/id-newhost", "id-%h"],
      ["cat ~/keys/fkey", "IdentityFile"],
      ["cat ~/keys/*.k", "IdentityFile"],
      ["cat /root/.ccode-test-nonexistent-key", "IdentityFile"],
    ]
    for (const [command, why] of cases) {
      const d = await decideIn(command)
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.toLowerCase().includes(why.toLowerCase()) }).toEqual({ command, decision: "ask", risk: "high", named: true })
    }
  })

  test("GIT_SSH_COMMAND names keys as core.sshCommand does (-oIdentityFile=K, -i K)", async () => {
    for (const [command, env] of [["cat ~/keys/envkey", { GIT_SSH_COMMAND: `ssh -oIdentityFile=${home}/keys/envkey` }], ["cat ~/keys/envkey", { GIT_SSH_COMMAND: "ssh -i ~/keys/envkey -p 22" }]] as const) {
      const d = await decideIn(command, env)
      expect({ command, env, decision: d.decision, risk: d.risk, named: d.reason.includes("GIT_SSH_COMMAND") }).toEqual({ command, env, decision: "ask", risk: "high", named: true })
    }
  })

  test("more settings that name key files: ProxyCommand's -i, git's ssh signing key and credential helpers, kubeconfig, AWS and npm", async () => {
    const more = join(home, "more")
    mkdirSync(more, { recursive: true })
    for (const k of ["jump", "sign", "netrcfile", "tok", "kube-key.pem", "kubetok", "webid", "procfile", "npmkey.pem", "other.txt"]) writeFileSync(join(more, k), `FAKESECRET-${k}\n`)
    mkdirSync(join(home, ".kube"), { recursive: true })
    mkdirSync(join(home, ".aws"), { recursive: true })
    const ssh = join(home, ".ssh", "config")
    const before = await Bun.file(ssh).text()
    writeFileSync(ssh, `${before}Host bastion-*\n  ProxyCommand ssh -i ~/more/jump -W %h:%p jump\n`)
    const gitconfig = join(home, ".gitconfig")
    const gitBefore = await Bun.file(gitconfig).text()
    writeFileSync(gitconfig, `${gitBefore}[user]\n\tsigningkey = ~/more/sign\n[credential "https://a.example"]\n\thelper = netrc -f ~/more/netrcfile\n[credential "https://b.example"]\n\thelper = "!f() { echo password=$(cat ~/more/tok); }; f"\n`)
    writeFileSync(join(home, ".kube", "config"), "users:\n- name: admin\n  user:\n    client-key: ../more/kube-key.pem\n    tokenFile: /nonexistent-not-there\n- name: b\n  user:\n    tokenFile: " + join(more, "kubetok") + "\n")
    writeFileSync(join(home, ".aws", "config"), `[profile x]\nweb_identity_token_file = ${more}/webid\ncredential_process = /usr/bin/python3 ~/more/procfile\n`)
    writeFileSync(join(home, ".npmrc"), "//registry.example/:keyfile=~/more/npmkey.pem\n")
    try {
      for (const name of ["jump", "sign", "netrcfile", "tok", "kube-key.pem", "kubetok", "webid", "procfile", "npmkey.pem"]) {
        const command = `cat ~/more/${name}`
        const d = await decideIn(command)
        expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes(`/more/${name} is`) }).toEqual({ command, decision: "ask", risk: "high", named: true })
      }
      const d = await decideIn("cat ~/more/other.txt")
      expect({ decision: d.decision, reason: d.reason }).toEqual({ decision: "allow", reason: d.reason })
    } finally {
      writeFileSync(ssh, before)
      writeFileSync(gitconfig, gitBefore)
      rmSync(join(home, ".kube"), { recursive: true })
      rmSync(join(home, ".aws"), { recursive: true })
      rmSync(join(home, ".npmrc"))
    }
  })

  test("controls: the other files near them stay allowed", async () => {
    for (const command of ["cat ~/keys/readme.txt", "cat ~/other/notes.txt", "ls ~/keys"]) {
      const d = await decideIn(command)
      expect({ command, decision: d.decision, reason: d.reason }).toEqual({ command, decision: "allow", reason: d.reason })
    }
  })
})
