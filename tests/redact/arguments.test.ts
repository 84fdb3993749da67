import { describe, expect, test } from "bun:test"
import { createRedactor } from "../../core/redact/index.ts"
import { loadParser } from "../../core/shell/index.ts"
import { layer, policyOf } from "../policy/helpers.ts"

const r = createRedactor()
const M = "[REDACTED:secret-argument]"

describe("secret-bearing arguments", () => {
  // every spelling the shell accepts for the same password: what is hidden is the password only
  test.each([
    ["sshpass -p S3cr3t-pw ssh h", `sshpass -p ${M} ssh h`],
    ["sshpass -pS3cr3t-pw ssh h", `sshpass -p${M} ssh h`],
    ["sshpass -p 'S3cr3t pw' ssh h", `sshpass -p '${M}' ssh h`],
    ['sshpass -p "S3cr3t pw" ssh h', `sshpass -p "${M}" ssh h`],
    ["sshpass -p S3cr\\3t ssh h", `sshpass -p ${M} ssh h`],
    ["sshpass -p $'S3cr\\x33t' ssh h", `sshpass -p $'${M}' ssh h`],
    ["sshpass -p 'S3'\"cr3t\" ssh h", `sshpass -p '${M}" ssh h`],
    ["/usr/bin/sshpass -p S3cr3t-pw ssh h", `/usr/bin/sshpass -p ${M} ssh h`],
    ["\"sshpass\" -p S3cr3t-pw ssh h", `"sshpass" -p ${M} ssh h`],
    ["sudo -u app env A=1 timeout 5 sshpass -p S3cr3t-pw ssh h", `sudo -u app env A=1 timeout 5 sshpass -p ${M} ssh h`],
    ["bash -c 'sshpass -p S3cr3t-pw ssh h'", `bash -c 'sshpass -p ${M} ssh h'`],
    ["ssh bastion \"mysql -uroot -pS3cr3t-pw -e 'select 1'\"", `ssh bastion "mysql -uroot -p${M} -e 'select 1'"`],
    ["xargs -I{} sshpass -p S3cr3t-pw scp {} h:", `xargs -I{} sshpass -p ${M} scp {} h:`],
    // how commands show up in output: set -x traces, history, ps
    ["+ sshpass -p S3cr3t-pw ssh h", `+ sshpass -p ${M} ssh h`],
    ["  812  mysql -uroot -pS3cr3t-pw", `  812  mysql -uroot -p${M}`],
    ["root  4242  0.0  sshpass -p S3cr3t-pw ssh -N h", `root  4242  0.0  sshpass -p ${M} ssh -N h`],
    // values the shell keeps whole, and values that look like flags
    ["sshpass -p 'a;b|c&d' ssh h", `sshpass -p '${M}' ssh h`],
    ["sshpass -p -S3cr3t- ssh h", `sshpass -p ${M} ssh h`],
    ["sqlcmd.exe -S db -P S3cr3t-pw", `sqlcmd.exe -S db -P ${M}`],
    ["htpasswd -b -B -C 10 f bob S3cr3t-pw", `htpasswd -b -B -C 10 f bob ${M}`],
    ["curl -H 'Authorization: Bearer abcdefgh12345678' -u a:S3cr3t-pw x", `curl -H 'Authorization: Bearer [REDACTED:authorization-header]' -u a:${M} x`],
    ["curl -u admin:S3cr3t-pw https://x", `curl -u admin:${M} https://x`],
    ["curl -sSfu admin:S3cr3t-pw https://x", `curl -sSfu admin:${M} https://x`],
    ["curl -uadmin:S3cr3t-pw https://x", `curl -uadmin:${M} https://x`],
    ["curl --user admin:S3cr3t-pw https://x", `curl --user admin:${M} https://x`],
    ["curl --user=admin:S3cr3t-pw https://x", `curl --user=admin:${M} https://x`],
    ["curl https://x --proxy-user p:S3cr3t-pw", `curl https://x --proxy-user p:${M}`],
    ["mysql -uroot -pS3cr3t-pw db", `mysql -uroot -p${M} db`],
    ["mysql -uroot -p'S3cr3t pw' db", `mysql -uroot -p'${M}' db`],
    ["mysql -u root \\\n  -pS3cr3t-pw db", `mysql -u root \\\n  -p${M} db`],
    ["mysqldump --password=S3cr3t-pw db", "mysqldump --password=[REDACTED:secret-assignment] db"],
    ["ldapsearch -x -w S3cr3t-pw -b dc=x", `ldapsearch -x -w ${M} -b dc=x`],
    ["ldapsearch -xwS3cr3t-pw -b dc=x", `ldapsearch -xw${M} -b dc=x`],
    ["smbclient //fs/s -U bob%S3cr3t-pw", `smbclient //fs/s -U bob%${M}`],
    ["smbclient //fs/s --user=bob%S3cr3t-pw", `smbclient //fs/s --user=bob%${M}`],
    ["htpasswd -b f bob S3cr3t-pw", `htpasswd -b f bob ${M}`],
    ["htpasswd -cbB f bob S3cr3t-pw", `htpasswd -cbB f bob ${M}`],
    ["htpasswd -nb bob S3cr3t-pw", `htpasswd -nb bob ${M}`],
    ["sqlcmd -S db -U sa -P S3cr3t-pw", `sqlcmd -S db -U sa -P ${M}`],
    ["mongosh -u a -p S3cr3t-pw", `mongosh -u a -p ${M}`],
    ["openssl rsa -passin pass:S3cr3t-pw -in k", `openssl rsa -passin pass:${M} -in k`],
    ["openssl enc -k S3cr3t-pw -in f", `openssl enc -k ${M} -in f`],
    ["keytool -list -storepass S3cr3t-pw", `keytool -list -storepass ${M}`],
    ["ssh-keygen -p -P S3cr3t-pw -N N3w-S3cret -f k", `ssh-keygen -p -P ${M} -N ${M} -f k`],
    ["aws configure set aws_secret_access_key S3cr3t-pw", `aws configure set aws_secret_access_key ${M}`],
    ["docker login -u ci -p S3cr3t-pw reg", `docker login -u ci -p ${M} reg`],
    ["redis-cli -a S3cr3t-pw ping", `redis-cli -a ${M} ping`],
    ["sqlplus scott/S3cr3t-pw@db", `sqlplus scott/${M}@db`],
    ["setenv DEPLOY_TOKEN S3cr3t-pw", `setenv DEPLOY_TOKEN ${M}`],
    ["set -gx STRIPE_KEY S3cr3t-pw", `set -gx STRIPE_KEY ${M}`],
    ["xfreerdp /u:admin /p:S3cr3t-pw /v:host", `xfreerdp /u:admin /p:${M} /v:host`],
    ["echo ok; sshpass -p S3cr3t-pw ssh h | tee log", `echo ok; sshpass -p ${M} ssh h | tee log`],
  ])("%s", (line, expected) => {
    expect(r.text(line)).toBe(expected)
  })

  test("inside a JSON string, escaped quotes included, the password goes and the JSON stays valid", () => {
    const json = JSON.stringify({ command: 'sshpass -p "S3cr3t pw" ssh h' })
    const out = r.text(json)
    expect(out).not.toContain("S3cr3t")
    expect(out).not.toContain(" pw")
    expect(JSON.parse(out).command).toStartWith("sshpass -p ")
  })

  test("a shell call's arguments and its step title are redacted the same way", () => {
    const args = { command: "curl -sSu ci:S3cr3t-pw https://x", cwd: "/w" }
    expect(r.value(args)).toEqual({ command: `curl -sSu ci:${M} https://x`, cwd: "/w" })
  })

  test("an argv given as an array, or as a program and its arguments apart, hides the same secrets", () => {
    expect(r.value(["sshpass", "-p", "S3cr3t pw", "ssh", "h"])).toEqual(["sshpass", "-p", M, "ssh", "h"])
    expect(r.value({ command: "/usr/bin/mysql", args: ["-uroot", "-pS3cr3t-pw", "shop"] })).toEqual({ command: "/usr/bin/mysql", args: ["-uroot", `-p${M}`, "shop"] })
    expect(r.value({ cmd: "curl", argv: ["-sSu", "ci:S3cr3t-pw", "https://x"] })).toEqual({ cmd: "curl", argv: ["-sSu", `ci:${M}`, "https://x"] })
    expect(r.value({ command: "htpasswd", args: ["-b", "f", "bob", "S3cr3t-pw"] })).toEqual({ command: "htpasswd", args: ["-b", "f", "bob", M] })
    // lists that are not commands stay as they are
    expect(r.value({ files: ["-p", "S3cr3t-pw"], command: "ls", args: ["-p", "x1"] })).toEqual({ files: ["-p", "S3cr3t-pw"], command: "ls", args: ["-p", "x1"] })
  })

  test("a shell call's command is also read by the shell analyser: program names spelled any way", async () => {
    // quoted pieces of a program name: no text rule sees `sshpass`, the analyser does
    expect(r.value({ command: '"ssh"pass -p S3cr3tValue h' })).toEqual({ command: `"ssh"pass -p ${M} h` })
    expect(r.value({ command: "env A=1 'mysql' -uroot -pS3cr3tValue" })).toEqual({ command: `env A=1 'mysql' -uroot -p${M}` })
    // escapes need tree-sitter (loaded by the runner before any call is decided)
    await loadParser()
    expect(r.value({ command: "s\\shpass -p S3cr3tValue h" })).toEqual({ command: `s\\shpass -p ${M} h` })
    // a value the analyser finds but cannot point at in the text: the whole command goes
    expect(r.value({ command: "m\\ysql -pS3cr\\3tValue" })).toEqual({ command: M })
    // commands without secrets are untouched
    expect(r.value({ command: "git log -p --stat" })).toEqual({ command: "git log -p --stat" })
  })

  test.each([
    "docker run -p 8080:80 nginx",
    "mysql -u root -p shop",
    "curl -u deploy https://x",
    "openssl rsa -passin env:KEY_PW -passout file:/run/pw",
    'sshpass -p "$SSHPASS" ssh h',
    "sshpass -p ${SSHPASS} ssh h",
    "ssh-keygen -N '' -f k",
    "htpasswd -c f bob",
    "aws configure set region eu-west-1",
    "echo sshpass is a tool; -p is its flag",
    "ps -p 1234 -o pid,cmd",
    "git log -p --stat",
  ])("left as it is: %s", (line) => {
    expect(r.text(line)).toBe(line)
  })

  test("a long line made of commands stays fast, and every one of its passwords is hidden", () => {
    const line = Array.from({ length: 5000 }, (_, i) => `sshpass -p pw-${i}-S3cr3t ssh h${i};`).join(" ")
    const t = performance.now()
    const out = r.text(line)
    expect(performance.now() - t).toBeLessThan(20_000) // quadratic work would take minutes
    expect(out).not.toMatch(/pw-\d+-S3cr3t/)
    expect(out.split(M).length - 1).toBe(5000)
  })

  test("a stream that receives a continued command line by line hides what text() hides", () => {
    const text = "mysql -h db -u root \\\n  -pS3cr3t-pw shop\n"
    const s = r.stream()
    const out = s.push("mysql -h db -u root \\\n") + s.push("  -pS3cr3t-pw shop\n") + s.flush()
    expect(out).toBe(r.text(text))
    expect(out).not.toContain("S3cr3t")
  })
})

describe("policy redaction.flags", () => {
  test("adds a program's flags to the table, in every spelling", () => {
    const own = createRedactor({ flags: { deployctl: ["--api-secret", "-k"] } })
    expect(own.text("deployctl push --api-secret S3cr3t-pw")).toBe(`deployctl push --api-secret ${M}`)
    expect(own.text("deployctl push --api-secret='S3cr3t pw'")).toBe(`deployctl push --api-secret='${M}'`)
    expect(own.text("deployctl push -kS3cr3t-pw")).toBe(`deployctl push -k${M}`)
    expect(own.text("otherctl push -k S3cr3t-pw")).toBe("otherctl push -k S3cr3t-pw")
    // the built-in table still applies
    expect(own.text("sshpass -p S3cr3t-pw ssh h")).toBe(`sshpass -p ${M} ssh h`)
  })

  test("is read from a policy file and merged across layers as a union", async () => {
    const policy = await policyOf(
      "version: 1\nredaction:\n  flags:\n    deployctl: [--api-secret]\n",
      await layer("version: 1\nredaction:\n  flags:\n    deployctl: [-k]\n    vaultish: [--unseal-key]\n", { name: "user", trusted: false }),
    )
    expect(policy.redaction.flags).toEqual({ deployctl: ["--api-secret", "-k"], vaultish: ["--unseal-key"] })
  })

  test("a flag that is not a flag is refused with its place in the file", async () => {
    let error: unknown
    try {
      await layer("version: 1\nredaction:\n  flags:\n    deployctl: [api-secret]\n")
    } catch (e) {
      error = e
    }
    expect(String(error)).toContain("redaction.flags")
    expect(String(error)).toContain("a flag as typed")
  })
})
