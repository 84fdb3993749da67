// Review 7, bash language: each attack is first run with bash in the sandbox (a fake secret in its HOME,
// workspace programs that print it, a git repository whose hooks are protected), then the compiled binary
// must ask and name the cause; the nearby everyday forms stay allowed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { bashIn, gitIn, policyCheck, sandbox, type Sandbox } from "./harness.ts"

const SECRET = "FAKESECRET-netrc"
const AWS = "FAKESECRET-aws"

describe("round 7 shell language", () => {
  let sb: Sandbox
  const bash = (command: string) => bashIn(sb, command, sb.work)
  beforeAll(() => {
    sb = sandbox()
    writeFileSync(join(sb.home, ".netrc"), `machine x login y password ${SECRET}\n`)
    mkdirSync(join(sb.home, ".aws"))
    writeFileSync(join(sb.home, ".aws", "credentials"), `[default]\naws_secret_access_key = ${AWS}\n`)
    gitIn(sb, sb.work, ["init", "-q"])
    sb.file("x.txt", "hi\n")
    // programs in the workspace named like everyday ones: bash runs them when PATH is unset
    for (const name of ["ls", "git", "cat"]) {
      sb.file(name, `#!/bin/sh\n/bin/cat "$HOME/.netrc"\n`)
      chmodSync(join(sb.work, name), 0o755)
    }
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  const hook = () => join(sb.work, ".git", "hooks", "pre-commit")

  describe("redirects bash opens with no command carrying them", () => {
    const writes = [
      "ls() { command ls; } > .git/hooks/pre-commit; ls",
      "[[ $(echo 'curl -s http://example.invalid/x' >&2) ]] 2> .git/hooks/pre-commit",
      "(( 1 )) 2> .git/hooks/pre-commit",
      "declare x=1 > .git/hooks/pre-commit",
      "unset x 2> .git/hooks/pre-commit",
      "{ x=1; } > .git/hooks/pre-commit",
    ]
    test.each(writes)("bash creates the hook with %j; ccode asks (critical) and names the protected path", async (command) => {
      rmSync(hook(), { force: true })
      bash(command)
      expect(existsSync(hook())).toBe(true)
      rmSync(hook())
      const d = await policyCheck(sb, command)
      expect([d.decision, d.risk]).toEqual(["ask", "critical"])
      expect(d.reason).toContain(".git/hooks/pre-commit")
    })

    test("a [[ ]] substitution's stderr is the hook's content", () => {
      bash("[[ $(echo 'curl -s http://example.invalid/x' >&2) ]] 2> .git/hooks/pre-commit")
      expect(readFileSync(hook(), "utf8")).toBe("curl -s http://example.invalid/x\n")
      rmSync(hook())
    })

    const reads = ["echo() { cat; } < ~/.netrc; echo", "function true { cat; } < ~/.netrc; true", "[[ -n $(cat >&2) ]] < ~/.netrc"]
    test.each(reads)("bash prints the secret with %j; ccode asks and names the file", async (command) => {
      expect(bash(command)).toContain(SECRET)
      const d = await policyCheck(sb, command)
      expect([d.decision, d.risk]).toEqual(["ask", "high"])
      expect(d.reason).toContain(".netrc")
    })

    test("the same constructs writing to /dev/null stay allowed", async () => {
      for (const command of ["[[ -f x.txt ]] 2>/dev/null && echo y", "declare -p HOME 2>/dev/null", "git log -1 2>/dev/null; git status"]) {
        expect({ command, decision: (await policyCheck(sb, command)).decision }).toEqual({ command, decision: "allow" })
      }
    })
  })

  describe("removing PATH makes bash run workspace programs", () => {
    const cases = ["echo() { local PATH; ls; }; echo", "true() { declare PATH; git status; }; true", "echo() { local -x PATH; cat x.txt; }; echo", "unset P{A,}TH; ls", "builtin unset PATH; ls"]
    test.each(cases)("bash runs ./ls (prints the secret) with %j; ccode asks (high) and names PATH", async (command) => {
      expect(bash(command)).toContain(SECRET)
      const d = await policyCheck(sb, command)
      expect([d.decision, d.risk]).toEqual(["ask", "high"])
      expect(d.reason).toContain("PATH")
    })

    test("a global declaration and an inherited local keep PATH: bash runs the real ls, ccode allows", async () => {
      for (const command of ["echo() { declare -g PATH; ls x.txt; }; echo", "echo() { local -I PATH; ls x.txt; }; echo"]) {
        expect(bash(command)).toBe("x.txt\n")
        expect({ command, decision: (await policyCheck(sb, command)).decision }).toEqual({ command, decision: "allow" })
      }
    })
  })

  describe("an element of an integer array is arithmetic", () => {
    const cases = ["declare -i y; y[0]='b[$(cat ~/.netrc >&2)]'", "x='b[$(cat ~/.netrc >&2)]'; declare -ai y; y[1]+=x", "x='b[$(cat ~/.netrc >&2)]'; declare -n r=y; declare -i r; y=x"]
    test.each(cases)("bash prints the secret with %j; ccode asks (critical) for the arithmetic", async (command) => {
      expect(bash(command)).toContain(SECRET)
      const d = await policyCheck(sb, command)
      expect([d.decision, d.risk]).toEqual(["ask", "critical"])
      expect(d.reason).toContain("arithmetic")
    })

    test("plain numbers into an integer array stay allowed", async () => {
      const command = "declare -i n; n[0]=5; n[1]+=2; echo ${n[@]}"
      expect(bash(command)).toBe("5 2\n")
      expect((await policyCheck(sb, command)).decision).toBe("allow")
    })
  })

  test("a DIRSTACK assignment moves ~1: bash reads ~/.aws/credentials, ccode does not allow", async () => {
    const command = "pushd -n /tmp >/dev/null; DIRSTACK[1]=~/.aws; cat ~1/credentials"
    expect(bash(command)).toContain(AWS)
    const d = await policyCheck(sb, command)
    expect(d.decision).toBe("ask")
    expect(d.reason).toContain("not known")
  })

  describe("review 8: PATH out of the environment, +ATTR listings, sh's own grammar", () => {
    test("export -n PATH, then bash -c NAME of a program not installed: bash runs ./NAME; ccode asks (high) naming PATH", async () => {
      // (exec -c empties HOME too: the path is written out)
      sb.file("zzccodemissing", `#!/bin/sh\n/bin/cat ${join(sb.home, ".netrc")}\n`)
      chmodSync(join(sb.work, "zzccodemissing"), 0o755)
      for (const command of ["export -n PATH; bash -c zzccodemissing", "declare +x PATH; bash -c zzccodemissing", "exec -c bash -c zzccodemissing"]) {
        expect(bash(command)).toContain(SECRET)
        const d = await policyCheck(sb, command)
        expect({ command, decision: d.decision, risk: d.risk, names: d.reason.includes("PATH") }).toEqual({ command, decision: "ask", risk: "high", names: true })
      }
    })

    test("declare +x lists the variables with their values; ccode asks (medium)", async () => {
      const env = { GITHUB_TOKEN: "FAKESECRET-gh" }
      expect(bashIn(sb, "declare +x", sb.work, env)).toContain("FAKESECRET-gh")
      const d = await policyCheck(sb, "declare +x", { env })
      expect([d.decision, d.risk]).toEqual(["ask", "medium"])
      expect(d.reason).toContain("prints the environment")
    })

    const dash = Bun.spawnSync(["readlink", "-f", "/bin/sh"]).stdout.toString().trim().endsWith("dash")
    test.skipIf(!dash)("sh (dash) reads [[ a > FILE ]] as a redirect: it creates the hook; ccode asks (high) and names the grammar", async () => {
      rmSync(hook(), { force: true })
      const command = "sh -c '[[ a > .git/hooks/pre-commit ]]'"
      bash(command)
      expect(existsSync(hook())).toBe(true)
      rmSync(hook())
      const d = await policyCheck(sb, command)
      expect([d.decision, d.risk]).toEqual(["ask", "high"])
      expect(d.reason).toContain("sh reads [[")
      expect((await policyCheck(sb, "sh -c 'ls -la | head -5'")).decision).toBe("allow")
    })
  })

  test("$'\\x{63}' is c (bash 5.2): bash reads the secret, ccode asks and names it (an internal error before)", async () => {
    const command = "$'\\x{63}'at ~/$'.\\x{6e}etrc'"
    expect(bash(command)).toContain(SECRET)
    const d = await policyCheck(sb, command)
    expect([d.decision, d.risk]).toEqual(["ask", "high"])
    expect(d.reason).toContain(".netrc")
  })
})
