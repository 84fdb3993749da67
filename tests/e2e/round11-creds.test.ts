// Attack review 11A (archives, named keys, credential stores, partial clones) against the compiled binary.
// Each attack is first run with bash in the sandbox (a fake secret in its HOME or workspace; the lazy fetch
// proven by git's pack count), then `policy check` must ask and name the cause; the nearby everyday forms
// stay allowed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { linkSync, mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { bashIn, gitIn, policyCheck, sandbox, type Sandbox } from "./harness.ts"

// a cpio (newc) archive of one file, as `cpio -o -H newc` writes it
function cpioNewc(name: string, body: string): Buffer {
  const parts: Buffer[] = []
  let at = 0
  const push = (b: Buffer) => (parts.push(b), (at += b.length))
  const pad = () => push(Buffer.alloc((4 - (at % 4)) % 4))
  for (const [n, b] of [[name, body], ["TRAILER!!!", ""]] as const) {
    const nm = Buffer.from(`${n}\0`)
    const fields = [1, 0o100644, 0, 0, 1, 0, Buffer.byteLength(b), 0, 0, 0, 0, nm.length, 0]
    push(Buffer.from(`070701${fields.map((v) => v.toString(16).padStart(8, "0")).join("")}`))
    push(nm); pad(); push(Buffer.from(b)); pad()
  }
  return Buffer.concat(parts)
}

describe("round 11: archives, named keys, credential stores, partial clones", () => {
  let sb: Sandbox
  beforeAll(() => {
    sb = sandbox()
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  test("a v7 tar and a cpio holding .env print it, read by name, by a glob or by grep -ra; ccode asks high naming .env", async () => {
    const src = join(sb.root, "mk")
    mkdirSync(src)
    writeFileSync(join(src, ".env"), "API_KEY=FAKESECRET-dotenv\n")
    bashIn(sb, `tar --format=v7 -cf ${join(sb.work, "b-v7.tar")} .env`, src)
    writeFileSync(join(sb.work, "b.cpio"), cpioNewc(".env", "API_KEY=FAKESECRET-dotenv\n"))
    mkdirSync(join(sb.work, "sub"))
    bashIn(sb, `tar --format=v7 -cf ${join(sb.work, "sub", "deep.tar")} .env`, src)
    for (const cmd of ["cat b-v7.tar", "cat b.cpio", "grep -a FAKE *", "grep -ra FAKE .", "rg -a FAKE sub"]) {
      if (!cmd.startsWith("rg")) expect({ cmd, out: bashIn(sb, cmd, sb.work) }).toEqual({ cmd, out: expect.stringContaining("FAKESECRET-dotenv") })
      const d = await policyCheck(sb, cmd)
      expect({ cmd, decision: d.decision, risk: d.risk, named: d.reason.includes(".env") }).toEqual({ cmd, decision: "ask", risk: "high", named: true })
    }
    // without -a grep prints only "binary file matches"
    expect(bashIn(sb, "grep -r FAKE .", sb.work)).not.toContain("FAKESECRET")
    expect((await policyCheck(sb, "grep -r FAKE .")).decision).toBe("allow")
    rmSync(join(sb.work, "b-v7.tar")); rmSync(join(sb.work, "b.cpio")); rmSync(join(sb.work, "sub"), { recursive: true })
  })

  test("ssh's %u and ${HOME} in IdentityFile and git's sshCommand -o IdentityFile= name keys; ccode asks high", async () => {
    const keys = join(sb.home, "keys")
    mkdirSync(keys, { recursive: true })
    mkdirSync(join(sb.home, ".ssh"), { recursive: true })
    const user = bashIn(sb, "id -un", sb.work).trim()
    writeFileSync(join(keys, `${user}.k`), "FAKESECRET-key1\n")
    writeFileSync(join(keys, "mykey2"), "FAKESECRET-key2\n")
    writeFileSync(join(keys, "gitkey"), "FAKESECRET-key5\n")
    writeFileSync(join(keys, "readme.txt"), "keys live here\n")
    writeFileSync(join(sb.home, ".ssh", "config"), `Host *\n  IdentityFile ${keys}/%u.k\n  IdentityFile \${HOME}/keys/mykey2\n`)
    writeFileSync(join(sb.home, ".gitconfig"), `[core]\n\tsshCommand = ssh -o IdentityFile=${keys}/gitkey\n`)
    // ssh itself names the files: a listener that accepts and says nothing
    const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } })
    try {
      const log = bashIn(sb, `timeout 5 ssh -v -F ~/.ssh/config -o BatchMode=yes -o ConnectTimeout=3 -o StrictHostKeyChecking=no -p ${server.port} 127.0.0.1 2>&1 | grep 'identity file'`, sb.work)
      expect(log).toContain(`identity file ${keys}/${user}.k`)
      expect(log).toContain(`identity file ${keys}/mykey2`)
    } finally {
      server.stop(true)
    }
    for (const cmd of [`cat ~/keys/${user}.k`, "cat ~/keys/mykey2", "cat ~/keys/gitkey"]) {
      expect(bashIn(sb, cmd, sb.work)).toContain("FAKESECRET-key")
      const d = await policyCheck(sb, cmd)
      expect({ cmd, decision: d.decision, risk: d.risk, named: /IdentityFile|sshcommand/i.test(d.reason) }).toEqual({ cmd, decision: "ask", risk: "high", named: true })
    }
    expect((await policyCheck(sb, "cat ~/keys/readme.txt")).decision).toBe("allow")
    rmSync(join(sb.home, ".gitconfig")); rmSync(join(sb.home, ".ssh"), { recursive: true })
  })

  test("KRB5CCNAME's ticket cache and poetry's auth.toml are credentials by their literal path", async () => {
    const cred = join(sb.root, "cred")
    mkdirSync(cred)
    writeFileSync(join(cred, "krbcache"), "FAKESECRET-krb\n")
    mkdirSync(join(sb.env.XDG_CONFIG_HOME!, "pypoetry"), { recursive: true })
    writeFileSync(join(sb.env.XDG_CONFIG_HOME!, "pypoetry", "auth.toml"), "[http-basic.x]\npassword = \"FAKESECRET-poetry\"\n")
    const env = { KRB5CCNAME: `FILE:${cred}/krbcache` }
    expect(bashIn(sb, `cat ${cred}/krbcache`, sb.work, env)).toContain("FAKESECRET-krb")
    const krb = await policyCheck(sb, `cat ${cred}/krbcache`, { env })
    expect({ decision: krb.decision, risk: krb.risk, named: krb.reason.includes("KRB5CCNAME") }).toEqual({ decision: "ask", risk: "high", named: true })
    const poetry = await policyCheck(sb, `cat ${sb.env.XDG_CONFIG_HOME}/pypoetry/auth.toml`)
    expect({ decision: poetry.decision, risk: poetry.risk }).toEqual({ decision: "ask", risk: "high" })
  })

  test("a hard link to ~/.netrc in the workspace prints it; ccode asks high naming ~/.netrc (by name, glob and grep -r)", async () => {
    writeFileSync(join(sb.home, ".netrc"), "machine y login u password FAKESECRET-homenetrc\n")
    mkdirSync(join(sb.work, "hl"))
    linkSync(join(sb.home, ".netrc"), join(sb.work, "hl", "notes.txt"))
    writeFileSync(join(sb.work, "hl", "plain.txt"), "password policy\n")
    for (const cmd of ["cat hl/notes.txt", "cat hl/*.txt", "grep -r password hl"]) {
      expect(bashIn(sb, cmd, sb.work)).toContain("FAKESECRET-homenetrc")
      const d = await policyCheck(sb, cmd)
      expect({ cmd, decision: d.decision, named: d.reason.includes(".netrc") }).toEqual({ cmd, decision: "ask", named: true })
    }
    expect((await policyCheck(sb, "cat hl/plain.txt")).decision).toBe("allow")
    rmSync(join(sb.work, "hl"), { recursive: true })
  })

  test("a note that is a removed .env's blob prints with git log -1; ccode asks high naming .env", async () => {
    const repo = join(sb.root, "notes")
    mkdirSync(repo)
    gitIn(sb, repo, ["init", "-q"])
    writeFileSync(join(repo, ".env"), "API_KEY=FAKESECRET-hist\n")
    gitIn(sb, repo, ["add", "-A"]); gitIn(sb, repo, ["commit", "-qm", "one"])
    const blob = gitIn(sb, repo, ["rev-parse", "HEAD:.env"])
    gitIn(sb, repo, ["rm", "-q", ".env"]); gitIn(sb, repo, ["commit", "-qm", "two"])
    gitIn(sb, repo, ["notes", "add", "-C", blob, "HEAD"])
    expect(bashIn(sb, "git log -1", repo)).toContain("FAKESECRET-hist")
    const d = await policyCheck(sb, "git log -1", { cwd: repo })
    expect({ decision: d.decision, risk: d.risk, named: d.reason.includes(".env") }).toEqual({ decision: "ask", risk: "high", named: true })
  })

  test("git reflog -p in a partial clone fetches from the promisor remote; ccode asks naming the partial clone", async () => {
    const src = join(sb.root, "src")
    mkdirSync(src)
    gitIn(sb, src, ["init", "-q"])
    writeFileSync(join(src, "f"), "one\n")
    gitIn(sb, src, ["add", "-A"]); gitIn(sb, src, ["commit", "-qm", "one"])
    writeFileSync(join(src, "f"), "two\n")
    gitIn(sb, src, ["commit", "-qam", "two"]); gitIn(sb, src, ["config", "uploadpack.allowFilter", "true"])
    const pc = join(sb.root, "pc")
    gitIn(sb, sb.root, ["-c", "protocol.file.allow=always", "clone", "-q", "--filter=blob:none", `file://${src}`, pc])
    const packs = () => Number(/^packs: (\d+)$/m.exec(gitIn(sb, pc, ["count-objects", "-v"]))![1])
    const before = packs()
    bashIn(sb, "git -c protocol.file.allow=always reflog -p >/dev/null", pc)
    expect(packs()).toBeGreaterThan(before)
    for (const cmd of ["git reflog -p", "git rev-parse HEAD~1:f", "git ls-files --with-tree=HEAD~1"]) {
      const d = await policyCheck(sb, cmd, { cwd: pc })
      expect({ cmd, decision: d.decision, named: d.reason.includes("partial clone") }).toEqual({ cmd, decision: "ask", named: true })
    }
    expect((await policyCheck(sb, "git reflog", { cwd: pc })).decision).toBe("allow")
  })
})
