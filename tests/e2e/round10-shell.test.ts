// Review 10A: the checks of scripts for sh/dash/posix-mode bash evaded by quoting or escaping a word
// (`\alias`, `ev""al`, `\:`, `"".*`, `\echo`), and secrets by the shape of their value. Each attack is
// first run for real with bash in the sandbox (a fake secret in its HOME, a marker file), then the
// compiled binary must ask and name the cause.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { bashIn, policyCheck, sandbox, type Sandbox } from "./harness.ts"

const SECRET = "FAKESECRET-netrc"
// dash is /bin/sh on Debian and Ubuntu; the dash attacks need it
const dash = Bun.which("dash")

describe("round 10 quoted words in sh scripts, secret shapes", () => {
  let sb: Sandbox
  let ws: string
  beforeAll(() => {
    sb = sandbox()
    writeFileSync(join(sb.home, ".netrc"), `machine x login y password ${SECRET}\n`)
    // the workspace is a folder of the home: `..` from it is the home
    ws = join(sb.home, "proj")
    mkdirSync(ws)
    writeFileSync(join(ws, "a.txt"), "plain\n")
    // what dash runs for `a[0]=./x` (the glob matches the folder `a0=.`)
    mkdirSync(join(ws, "a0=."))
    writeFileSync(join(ws, "a0=.", "x"), "#!/bin/sh\necho UNSEEN-RAN > marker\n")
    chmodSync(join(ws, "a0=.", "x"), 0o755)
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))
  const run = (command: string, env: Record<string, string> = {}) => bashIn(sb, command, ws, env)
  const asks = async (command: string, risk: string, reason: string, env?: Record<string, string>) => {
    const d = await policyCheck(sb, command, { cwd: ws, ...(env ? { env } : {}) })
    expect([d.decision, d.risk]).toEqual(["ask", risk])
    expect(d.reason).toContain(reason)
  }
  const isDashSh = dash !== null && (Bun.spawnSync(["readlink", "-f", "/bin/sh"]).stdout.toString().includes("dash"))

  test.if(isDashSh)("an escaped special builtin keeps NAME=value in dash: cat reads the netrc; ccode asks", async () => {
    for (const command of ["sh -c 'f=a.txt; f=$HOME/.ne\"\"trc \\:; cat $f'", "sh -c 'f=a.txt; f=$(echo $HOME/.ne\"\"trc) :; cat $f'"]) {
      expect(run(command)).toContain(SECRET)
      await asks(command, "high", "NAME=value before a special builtin")
    }
  })

  test.if(isDashSh)("a quoted alias builtin: dash expands echo to cat; ccode asks", async () => {
    const command = "sh -c 'al\"\"ias echo=cat\necho $HOME/.ne\"\"trc'"
    expect(run(command)).toContain(SECRET)
    await asks(command, "high", "alias definitions")
  })

  test.if(isDashSh)("dash's \"\".* matches .. (the home above the workspace); ccode asks", async () => {
    const command = "sh -c 'grep -r FAKESECRET \"\".*'"
    expect(run(command)).toContain(SECRET)
    await asks(command, "high", "a glob starting with a dot")
  })

  test.if(isDashSh)("an escaped echo decodes \\0164 for the sh it pipes to; ccode asks", async () => {
    const command = "sh -c '\\echo \"cat $HOME/.ne\\\\0164rc\" | sh'"
    expect(run(command)).toContain(SECRET)
    await asks(command, "high", "echo with a backslash piped on")
  })

  test.if(isDashSh)("a quoted eval runs an array assignment as a path in dash; ccode asks", async () => {
    const command = "sh -c 'ev\"\"al \"a[0]=./x\"'"
    run(command)
    expect(existsSync(join(ws, "marker"))).toBe(true)
    rmSync(join(ws, "marker"))
    await asks(command, "high", "an array or append assignment")
  })

  test.if(isDashSh)("a line continuation inside an array assignment: dash runs it as a path; ccode asks", async () => {
    const command = "sh -c 'a[0]\\\n=./x'"
    run(command)
    expect(existsSync(join(ws, "marker"))).toBe(true)
    rmSync(join(ws, "marker"))
    await asks(command, "high", "an array or append assignment")
  })

  test("vendor tokens and an Authorization header are secrets by their value; ccode asks", async () => {
    const env = { GH: "ghp_FAKESECRETabcdefghijklmnopqrstuv", GIT_CONFIG_VALUE_0: "Authorization: Bearer FAKESECRET-x", DOCKER_CREDS: "FAKESECRET-creds1234" }
    for (const name of Object.keys(env)) {
      expect(run(`echo "$${name}"`, env)).toContain("FAKESECRET")
      await asks(`echo "$${name}"`, "medium", `secret variable $${name}`, env)
    }
  })

  test("a line continuation after $ inside double quotes is a command substitution for bash; ccode refuses", async () => {
    for (const command of ['echo "$\\\n(cat $HOME/.ne""trc)"', 'cat "$\\\n{x:-$HOME/.ne""trc}"', "cat <<E\n$\\\n(cat $HOME/.ne\"\"trc)\nE"]) {
      expect(run(command)).toContain(SECRET)
      await asks(command, "critical", "a line continuation after $")
    }
  })

  test("everyday sh scripts with quoted words stay allowed", async () => {
    for (const command of ["sh -c 'cd src && make -n'", "sh -c 'grep -c \"alias\" a.txt'", "sh -c 'echo \"a b\" | wc -c'"]) {
      const d = await policyCheck(sb, command, { cwd: ws })
      expect([command, d.decision]).toEqual([command, "allow"])
    }
  })
})
