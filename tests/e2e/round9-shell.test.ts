// Review 9A: other shells' grammar and bash's posix mode (aliases, `.*` matching `..`, NAME=v before a
// special builtin, array assignments and `[^…]` in dash, a quote inside "${…}"), the variables builtins
// assign by themselves declared -i, a nameref named `_`, secrets by the shape of their value. Each attack
// is first run for real with bash in the sandbox (a fake secret in its HOME, a marker file), then the
// compiled binary must ask and name the cause.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { chmodSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { bashIn, policyCheck, sandbox, type Sandbox } from "./harness.ts"

const SECRET = "FAKESECRET-netrc"
// dash is /bin/sh on Debian and Ubuntu; the dash attacks need it
const dash = Bun.which("dash")

describe("round 9 shells, modes and variables", () => {
  let sb: Sandbox
  let ws: string
  beforeAll(() => {
    sb = sandbox()
    writeFileSync(join(sb.home, ".netrc"), `machine x login y password ${SECRET}\n`)
    // the workspace is a folder of the home: `..` from it is the home
    ws = join(sb.home, "proj")
    mkdirSync(ws)
    writeFileSync(join(ws, "a.txt"), "plain\n")
    // what dash runs for `a[0]=./x` (the glob matches the folder `a0=.`) and `a+=./x`
    for (const dir of ["a0=.", "a+=."]) {
      mkdirSync(join(ws, dir))
      writeFileSync(join(ws, dir, "x"), "#!/bin/sh\necho UNSEEN-RAN > marker\n")
      chmodSync(join(ws, dir, "x"), 0o755)
    }
    // entries a repository can ship: `10` and `~+` leading to the netrc's folder, a bin/ls of its own
    symlinkSync(join(sb.home, ".netrc"), join(ws, "10"))
    symlinkSync(sb.home, join(ws, "~+"))
    mkdirSync(join(ws, "bin"))
    writeFileSync(join(ws, "bin/ls"), "#!/bin/sh\necho UNSEEN-RAN > marker\n")
    chmodSync(join(ws, "bin/ls"), 0o755)
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))
  const run = (command: string, env: Record<string, string> = {}) => bashIn(sb, command, ws, env)
  const asks = async (command: string, risk: string, reason: string, env?: Record<string, string>) => {
    const d = await policyCheck(sb, command, { cwd: ws, ...(env ? { env } : {}) })
    expect([d.decision, d.risk]).toEqual(["ask", risk])
    expect(d.reason).toContain(reason)
  }

  test.if(dash !== null)("dash expands an alias defined in its script: echo runs cat; ccode asks", async () => {
    const command = "sh -c 'alias echo=cat\necho ~/.ne\"\"trc'"
    expect(run(command)).toContain(SECRET)
    await asks(command, "high", "alias definitions")
  })

  test("set -o posix turns alias expansion on in bash; ccode asks", async () => {
    const command = "set -o posix\nalias echo=cat\necho ~/.ne\"\"trc"
    expect(run(command)).toContain(SECRET)
    await asks(command, "high", "posix mode")
  })

  test.if(dash !== null)("dash's .* matches .. (the home above the workspace); ccode asks", async () => {
    const command = "sh -c 'grep -r FAKESECRET .*'"
    expect(run(command)).toContain(SECRET)
    await asks(command, "high", "matches ..")
  })

  test("shopt -u globskipdots lets bash's .* match ..; ccode asks", async () => {
    const command = "shopt -u globskipdots\ngrep -rh FAKESECRET .?"
    expect(run(command)).toContain(SECRET)
    await asks(command, "high", "globskipdots")
  })

  test.if(dash !== null)("dash keeps NAME=v given a special builtin: cat reads the new value; ccode asks", async () => {
    const command = `sh -c 'f=a.txt\nf=${sb.home}/.netrc :\ncat "$f"'`
    expect(run(command)).toContain(SECRET)
    await asks(command, "high", "special builtin")
  })

  test.if(dash !== null)("a[0]=./x is a command in dash: it runs the workspace program; ccode asks", async () => {
    rmSync(join(ws, "marker"), { force: true })
    const command = "sh -c 'a[0]=./x'"
    run(command)
    expect(existsSync(join(ws, "marker"))).toBe(true)
    await asks(command, "high", "array or append assignment")
  })

  test.if(dash !== null)("[^n] is no negation in dash: .[^n]etrc matches .netrc; ccode asks", async () => {
    const command = "sh -c 'cat ~/.[^n]etrc'"
    expect(run(command)).toContain(SECRET)
    await asks(command, "high", "[^")
  })

  test("a quote inside \"${…}\" is a plain character in posix mode: a hidden cat runs; ccode asks", async () => {
    const command = `set -o posix\necho "\${x:-'}"'}" ' ; cat ~/.netrc ; echo ' #'`
    expect(run(command)).toContain(SECRET)
    await asks(command, "high", "posix mode")
    // the same text with POSIXLY_CORRECT inherited from the environment
    const inherited = `echo "\${x:-'}"'}" ' ; cat ~/.netrc ; echo ' #'`
    expect(run(inherited, { POSIXLY_CORRECT: "1" })).toContain(SECRET)
    await asks(inherited, "high", "POSIXLY_CORRECT is set in the environment", { POSIXLY_CORRECT: "1" })
  })

  test("read with no name assigns REPLY: declared -i, the data's subscript runs a command; ccode asks", async () => {
    rmSync(join(ws, "marker"), { force: true })
    writeFileSync(join(ws, "notes.txt"), "a[$(touch marker)]\n")
    const command = "declare -i REPLY; read < notes.txt"
    run(command)
    expect(existsSync(join(ws, "marker"))).toBe(true)
    await asks(command, "critical", "integer variable REPLY")
  })

  test("a nameref named _ is assigned after every command, evaluating its subscript; ccode asks", async () => {
    rmSync(join(ws, "marker"), { force: true })
    const command = "declare -n _='a[$(touch marker)]'"
    run(command)
    expect(existsSync(join(ws, "marker"))).toBe(true)
    await asks(command, "critical", "assignment to _")
  })

  test("a JWT or a key file in a variable whose name says nothing: printing it asks", async () => {
    const env = { CI_JOB_JWT: "eyJhbGciOiJSUzI1NiJ9.FAKESECRET-jwt.sig", DEPLOY_BLOB: '{"private_key":"-----BEGIN PRIVATE KEY-----\\nFAKESECRET-pem"}' }
    expect(run("echo $CI_JOB_JWT", env)).toContain("FAKESECRET-jwt")
    await asks("echo $CI_JOB_JWT", "medium", "secret variable $CI_JOB_JWT", env)
    expect(run("printenv DEPLOY_BLOB", env)).toContain("FAKESECRET-pem")
    await asks("printenv DEPLOY_BLOB", "medium", "secret variable $DEPLOY_BLOB", env)
  })

  test.if(dash !== null)("dash reads 10< as the argument 10 and a redirect: cat reads the symlink 10; ccode asks", async () => {
    const command = "sh -c 'cat 10</dev/null'"
    expect(run(command)).toContain(SECRET)
    await asks(command, "high", "two digits")
  })

  test.if(dash !== null)("dash leaves ~+ as text: cat ~+/.netrc reads through the workspace entry ~+; ccode asks", async () => {
    const command = "sh -c 'cat ~+/.netrc'"
    expect(run(command)).toContain(SECRET)
    await asks(command, "high", "tilde")
  })

  test.if(dash !== null)("dash's echo decodes \\0164 into t: the piped script reads the netrc; ccode asks", async () => {
    const command = `sh -c 'echo "cat ~/.ne\\0164rc" | sh'`
    expect(run(command)).toContain(SECRET)
    await asks(command, "high", "echo with a backslash")
  })

  test("${!x[0]} reads the variable an element names: the token is printed; ccode asks", async () => {
    const env = { GITHUB_TOKEN: "FAKESECRET-gh" }
    const command = "x=(GITHUB_TOKEN); echo ${!x[0]}"
    expect(run(command, env)).toContain("FAKESECRET-gh")
    await asks(command, "critical", "${!x[0]}", env)
  })

  test("a nameref named PATH makes ls the workspace's bin/ls; ccode asks", async () => {
    rmSync(join(ws, "marker"), { force: true })
    const command = "p=./bin\ndeclare -n PATH=p\nls"
    run(command)
    expect(existsSync(join(ws, "marker"))).toBe(true)
    await asks(command, "high", "PATH")
  })
})
