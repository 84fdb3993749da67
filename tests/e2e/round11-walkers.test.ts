// Round 11: walkers that copy, archive or print every file below a folder (find -exec cat, tar -cf -,
// zip -r -, cp -r, rsync -a) read the home's credentials as grep -r does. Proven with bash in the sandbox
// (a fake secret in its HOME, one in the workspace .env), then the compiled binary must ask under the
// default policy and under `ci` (which auto-approves medium), naming the credential location.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { bashIn, ccode, sandbox, type Sandbox, type Verdict } from "./harness.ts"

async function check(sb: Sandbox, command: string, policy?: string): Promise<Verdict> {
  const r = await ccode(sb, ["policy", "check", "--json", ...(policy ? ["--policy", policy] : []), "--", command])
  if (!r.stdout.trim()) throw new Error(`policy check printed nothing (exit ${r.code}): ${r.stderr}`)
  return JSON.parse(r.stdout) as Verdict
}

describe("round 11: walkers that read every file below a folder", () => {
  let sb: Sandbox
  beforeAll(() => {
    sb = sandbox()
    mkdirSync(join(sb.home, ".aws"), { recursive: true })
    writeFileSync(join(sb.home, ".aws", "credentials"), "[default]\naws_secret_access_key = FAKESECRET-aws\n")
    writeFileSync(join(sb.home, ".netrc"), "machine x login y password FAKESECRET-netrc\n")
    writeFileSync(join(sb.work, ".env"), "TOKEN=FAKESECRET-env\n")
    sb.file("src/a.ts", "export const a = 1\n")
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  // each prints (or, through the pipe, shows) the home's secrets: [command, what proves it in bash]
  const printers: [string, string][] = [
    ["find ~ -type f -exec cat {} +", "find ~ -type f -exec cat {} +"],
    ["find ~ -name '*' -exec grep -a x {} +", "find ~ -name '*' -exec grep -a x {} +"],
    ["tar -cf - ~ | cat", "tar -cf - ~ | cat"],
    ["tar -czf - ~/.aws | base64", "tar -czf - ~/.aws | base64 | base64 -d | tar -xzOf -"],
    ["zip -qr - ~ | cat", "zip -qr - ~ | cat > z.zip && unzip -p z.zip && rm z.zip"],
    ["find ~ -type f -print0 | xargs -0 cat", "find ~ -type f -print0 | xargs -0 cat"],
  ]

  test.each(printers)("bash shows a home secret through %j; ccode asks under default and ci", async (command, proof) => {
    expect(bashIn(sb, proof, sb.work)).toMatch(/FAKESECRET-(aws|netrc)/)
    for (const policy of [undefined, "ci"]) {
      const d = await check(sb, command, policy)
      expect([d.decision, d.risk]).toEqual(["ask", "critical"])
      expect(d.reason).toMatch(/\.aws|\.ssh|\.netrc/)
    }
  })

  test.each(["cp -r ~ ./homecopy", "rsync -a ~/ ./h/"])("bash copies the home's secrets into the workspace with %j; ccode asks under default and ci", async (command) => {
    // (rsync is not on every machine: without it only ccode's answer is checked)
    if (Bun.which(command.split(" ")[0]!)) {
      bashIn(sb, command, sb.work)
      expect(readFileSync(join(sb.work, command.startsWith("cp") ? "homecopy" : "h", ".netrc"), "utf8")).toContain("FAKESECRET-netrc")
    }
    for (const policy of [undefined, "ci"]) {
      const d = await check(sb, command, policy)
      expect([d.decision, d.risk]).toEqual(["ask", "critical"])
      expect(d.reason).toMatch(/\.aws|\.ssh|\.netrc/)
    }
  })

  test("tar of the workspace on stdout shows its .env: ccode looks it up on disk and asks under ci", async () => {
    expect(bashIn(sb, "tar -cf - . | strings", sb.work)).toContain("FAKESECRET-env")
    for (const policy of [undefined, "ci"]) {
      const d = await check(sb, "tar -cf - . | strings", policy)
      expect(d.decision).toBe("ask")
      expect(["high", "critical"]).toContain(d.risk)
      expect(d.reason).toContain(".env")
    }
  })

  test("everyday walks stay as they were: counting is allowed, archiving a source folder is medium (ci allows)", async () => {
    expect(bashIn(sb, "find . -name '*.ts' -exec wc -l {} +", sb.work)).toContain("a.ts")
    expect((await check(sb, "find . -name '*.ts' -exec wc -l {} +")).decision).toBe("allow")
    for (const command of ["tar -czf out.tgz src", "cp -r src dst"]) {
      expect((await check(sb, command)).risk).toBe("medium")
      expect((await check(sb, command, "ci")).decision).toBe("allow")
    }
  })
})
