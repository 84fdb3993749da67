// Review 6, bash language and program options: each attack is first run with bash in the sandbox (a fake
// secret in its HOME, a marker file), then the compiled binary must ask and name the cause; the nearby
// everyday forms stay allowed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { chmodSync, existsSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { policyCheck, sandbox, type Sandbox } from "./harness.ts"

const SECRET = "FAKESECRET-netrc"

describe("round 6 shell language", () => {
  let sb: Sandbox
  beforeAll(() => {
    sb = sandbox()
    writeFileSync(join(sb.home, ".netrc"), `machine x login y password ${SECRET}\n`)
    sb.file("bin/git", "#!/bin/sh\necho pwned > marker\n")
    chmodSync(join(sb.work, "bin/git"), 0o755)
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  const bash = (script: string) => Bun.spawnSync(["bash", "-c", script], { cwd: sb.work, env: sb.env }).stdout.toString()

  describe("a line of assignments alone ends at the line end", () => {
    test("bash sets both and runs the next line; ccode allows it", async () => {
      const command = "A=1 B=2\necho $A$B"
      expect(bash(command)).toBe("12\n")
      expect((await policyCheck(sb, command)).decision).toBe("allow")
    })

    test("A=1 PATH=./bin, then git status: bash runs ./bin/git; ccode asks and names PATH", async () => {
      const command = "A=1 PATH=./bin\ngit status"
      bash(command)
      expect(existsSync(join(sb.work, "marker"))).toBe(true)
      rmSync(join(sb.work, "marker"))
      const d = await policyCheck(sb, command)
      expect([d.decision, d.risk]).toEqual(["ask", "high"])
      expect(d.reason).toContain("PATH")
    })
  })

  describe("an indexed array literal's [KEY]= is arithmetic", () => {
    const both = (script: string) => {
      const r = Bun.spawnSync(["bash", "-c", script], { cwd: sb.work, env: sb.env })
      return r.stdout.toString() + r.stderr.toString()
    }
    const cases = ["a=(['b[$(cat ~/.netrc >&2)]']=1)", "x='b[$(cat ~/.netrc >&2)]'; a=([x]=1)", "x='b[$(cat ~/.netrc >&2)]'; a+=([$x]=1)", "declare -a a=(['b[$(cat ~/.netrc >&2)]']=1)"]
    test.each(cases)("bash prints the secret with %j", (command) => {
      expect(both(command)).toContain(SECRET)
    })
    test.each(cases)("ccode asks for %j and names the subscript", async (command) => {
      const d = await policyCheck(sb, command)
      expect([d.decision, d.risk]).toEqual(["ask", "critical"])
      expect(d.reason).toContain("an array element's subscript")
    })
    test("an associative array's keys are keys: bash runs nothing, ccode allows", async () => {
      const command = "declare -A m=(['b[$(cat ~/.netrc >&2)]']=1 [k]=v); echo ${#m[@]}"
      expect(both(command)).toBe("2\n")
      expect((await policyCheck(sb, command)).decision).toBe("allow")
      expect((await policyCheck(sb, "arr=([0]=a [1]=b); echo ${arr[1]}")).decision).toBe("allow")
    })
  })

  describe("a {NAME[SUB]}> descriptor variable on any command", () => {
    const both = (script: string) => {
      const r = Bun.spawnSync(["bash", "-c", script], { cwd: sb.work, env: sb.env })
      return r.stdout.toString() + r.stderr.toString()
    }
    const cases = ["x='b[$(cat ~/.netrc >&2)]'; echo hi {a[x]}>/dev/null", "true {a['b[$(cat ~/.netrc >&2)]']}>/dev/null", "x='b[$(cat ~/.netrc >&2)]'; : {a[$x]}</dev/null"]
    test.each(cases)("bash prints the secret with %j", (command) => {
      expect(both(command)).toContain(SECRET)
    })
    test.each(cases)("ccode asks for %j and names the descriptor variable", async (command) => {
      const d = await policyCheck(sb, command)
      expect([d.decision, d.risk]).toEqual(["ask", "critical"])
      expect(d.reason).toContain("the descriptor variable")
    })
    test("a plain descriptor variable stays allowed", async () => {
      expect(both("echo hi {fd}>&2; echo $fd")).toMatch(/^hi\n\d+\n$/)
      expect((await policyCheck(sb, "echo hi {fd}>&2")).decision).toBe("allow")
    })
  })

  describe.skipIf(Bun.which("man") === null)("a prefix assignment reaches the script a runner runs", () => {
    const cases = ["MANPATH=./mp eval man atk6", "MANPATH=./mp bash -c 'man atk6'", "MANPATH=./mp timeout 9 sh -c 'man atk6'", "MANPATH=./mp bash <<< 'man atk6'"]
    beforeAll(() => sb.file("mp/man1/atk6.1", `.TH ATK6 1\n.SH NAME\natk6\n.so ${join(sb.home, ".netrc")}\n`))
    test.each(cases)("man formats a page whose .so reads the secret with %j", (command) => {
      expect(bash(`${command} 2>&1`)).toContain(SECRET)
    })
    test.each(cases)("ccode asks for %j and names MANPATH", async (command) => {
      const d = await policyCheck(sb, command)
      expect([d.decision, d.risk]).toEqual(["ask", "medium"])
      expect(d.reason).toContain("MANPATH")
    })
  })

  describe("a here-document whose first body line is a lone backslash", () => {
    const cases = ["cat <<EOF\n\\\nEOF\ncat ~/.netrc\nEOF", "x=$(cat <<EOF\n\\\nEOF\ncat ~/.netrc\nEOF\n); echo \"$x\"", "cat <<EOF\n\\\n\\\nEOF\ncat ~/.netrc\nEOF", "cat <<-EOF >/dev/null\n\\\nEOF\ncat ~/.netrc\nEOF"]
    test.each(cases)("bash ends the body early and reads the secret with %j", (command) => {
      expect(bash(`${command} 2>&1`)).toContain(SECRET)
    })
    test.each(cases)("ccode refuses %j as a misreading", async (command) => {
      const d = await policyCheck(sb, command)
      expect([d.decision, d.risk]).toEqual(["ask", "critical"])
      expect(d.reason).toContain("first body line is a line continuation")
    })
  })

  describe("PATH set by a descriptor variable or by arithmetic", () => {
    beforeAll(() => {
      for (const d of ["10", "11", "12"]) {
        sb.file(`${d}/ls`, "#!/bin/sh\necho pwned > marker\n")
        chmodSync(join(sb.work, d, "ls"), 0o755)
      }
    })
    const cases = [": {PATH}>/dev/null; ls", "[[ 1 -eq PATH=11 ]]; ls", "echo ${a[PATH=11]}; ls", "a=([PATH=11]=1); ls", "declare -i y=PATH=11; ls"]
    test.each(cases)("bash runs the workspace's ls with %j; ccode asks and names PATH", async (command) => {
      bash(command)
      expect(existsSync(join(sb.work, "marker"))).toBe(true)
      rmSync(join(sb.work, "marker"))
      const d = await policyCheck(sb, command)
      expect([d.decision, d.risk]).toEqual(["ask", "high"])
      expect(d.reason).toContain("sets PATH")
    })
  })

  describe("compgen -W expands its word list again", () => {
    const cases: [string, string, string][] = [
      ["compgen -W '$(cat ~/.netrc)' FAKE", "high", ".netrc"],
      ["compgen -W '$(<~/.netrc)' FAKE", "high", ".netrc"],
      ["compgen -aW '`cat ~/.netrc`' FAKE", "high", ".netrc"],
      ["compgen -W \"\\$(cat ~/.netrc)\" FAKE", "high", ".netrc"],
      ["w='$(cat ~/.netrc)'; compgen -W \"$w\" FAKE", "high", ".netrc"],
    ]
    test.each(cases)("bash prints the secret with %j", (command) => {
      expect(bash(command)).toContain(SECRET)
    })
    test.each(cases)("ccode asks for %j and names the cause", async (command, risk, words) => {
      const d = await policyCheck(sb, command)
      expect([d.decision, d.risk]).toEqual(["ask", risk])
      expect(d.reason).toContain(words)
    })
    test("a process substitution in the list runs: bash writes the marker; ccode asks", async () => {
      const command = "compgen -W '<(touch marker)' x"
      bash(command)
      expect(existsSync(join(sb.work, "marker"))).toBe(true)
      rmSync(join(sb.work, "marker"))
      const d = await policyCheck(sb, command)
      expect(d.decision).toBe("ask")
    })
    test("a plain word list stays allowed", async () => {
      expect(bash("compgen -W 'start stop restart' -- st")).toBe("start\nstop\n")
      expect((await policyCheck(sb, "compgen -W 'start stop restart' -- st")).decision).toBe("allow")
    })
  })
})
