// Review 7, program options: find's output files into protected paths, options that run a shell command
// (zip -TT, strace -o '|cmd', tar HOST:archive), pytest ini overrides expanded by pytest itself, and
// build runners that take a project ABOVE the workspace (npm test, pytest). Each attack is first proven
// in bash in the sandbox (a fake secret in its HOME, a marker file), then `ccode policy check` (under the
// bundled ci policy, which allows medium, where that is where it mattered) must ask and name the cause.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { bashIn, ccode, policyCheck, sandbox, type Sandbox, type Verdict } from "./harness.ts"

const has = (program: string) => Bun.which(program) !== null

describe("round 7 program options", () => {
  let sb: Sandbox
  const ci = async (command: string, cwd?: string): Promise<Verdict> => {
    const r = await ccode(sb, ["policy", "check", "--json", "--policy", "ci", "--", command], { cwd })
    if (!r.stdout.trim()) throw new Error(`policy check printed nothing (exit ${r.code}): ${r.stderr}`)
    return JSON.parse(r.stdout) as Verdict
  }

  beforeAll(() => {
    sb = sandbox()
    writeFileSync(join(sb.home, ".netrc"), "machine x login u password FAKESECRET-netrc\n")
    sb.file("x.txt", "hello\n")
    sb.file(".claude/settings.json", "{}\n")
    mkdirSync(join(sb.work, ".git", "hooks"), { recursive: true })
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  test("find -fprintf writes chosen content into .claude/settings.json: proven, and ci asks critical", async () => {
    const command = `find . -maxdepth 0 -fprintf .claude/settings.json '{"permissions":{"allow":["Bash(*)"]}}\\n'`
    bashIn(sb, command, sb.work)
    expect(readFileSync(join(sb.work, ".claude", "settings.json"), "utf8")).toContain("Bash(*)")
    for (const c of [command, "find . -fls .git/hooks/pre-commit"]) {
      const d = await ci(c)
      expect({ c, decision: d.decision, risk: d.risk, named: d.reason.includes("protected path") }).toEqual({ c, decision: "ask", risk: "critical", named: true })
    }
  })

  test.skipIf(!has("zip"))("zip -TT runs its command (the home's .netrc printed): proven, and ci asks high", async () => {
    bashIn(sb, "zip -q x.zip x.txt", sb.work)
    for (const command of ["zip -T -TT 'cat ~/.netrc >&2; true' x.zip x.txt", "zip -qTT 'cat ~/.netrc >&2; true' -T x.zip x.txt", "zip -TT='cat ~/.netrc >&2; true' -T x.zip x.txt"]) {
      expect({ command, printed: bashIn(sb, command, sb.work).includes("FAKESECRET-netrc") }).toEqual({ command, printed: true })
      const d = await ci(command)
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes("zip runs the program") }).toEqual({ command, decision: "ask", risk: "high", named: true })
    }
  })

  test.skipIf(!has("strace"))("strace -o '|cmd' pipes into a shell command: proven, and ci asks high", async () => {
    for (const command of ["strace -o '|cat ~/.netrc >&2' true", "strace -fo'!cat ~/.netrc >&2' true"]) {
      const out = bashIn(sb, command, sb.work)
      // strace needs ptrace: where the sandbox forbids it, the proof is not possible here
      if (/Operation not permitted|PTRACE/i.test(out)) continue
      expect({ command, printed: out.includes("FAKESECRET-netrc") }).toEqual({ command, printed: true })
    }
    for (const command of ["strace -o '|cat ~/.netrc >&2' true", "strace -fo'!cat ~/.netrc >&2' true", "strace --output='|id' ls"]) {
      const d = await ci(command)
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes("pipes the trace into the shell command") }).toEqual({ command, decision: "ask", risk: "high", named: true })
    }
    expect((await ci("strace -o trace.txt true")).decision).toBe("allow")
  })

  test("tar -f HOST:FILE runs a remote shell: proven, and ci asks high; --force-local stays allowed", async () => {
    const out = bashIn(sb, "tar -tf 127.0.0.1:x.tar", sb.work)
    expect(out).toMatch(/remote shell|rsh|rmt|Cannot connect/i)
    for (const command of ["tar -tf 127.0.0.1:x.tar", "tar --file=u@127.0.0.1:/x.tar -t", "TAPE=127.0.0.1:x.tar tar -t"]) {
      const d = await ci(command)
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes("rmt over the network") }).toEqual({ command, decision: "ask", risk: "high", named: true })
    }
    expect((await ci("tar -tf 127.0.0.1:x.tar --force-local")).decision).toBe("allow")
  })

  test("ss with a host name asks (DNS); the numeric forms stay allowed", async () => {
    // proof where strace may trace: the name leaves in a query to port 53 (no answer is needed)
    if (has("strace") && has("ss")) {
      const out = bashIn(sb, "strace -f -e trace=connect,sendto ss -t dst f7b-probe.example.com 2>&1", sb.work)
      if (!/Operation not permitted|PTRACE/i.test(out) && /htons\(53\)/.test(out)) expect(out).toContain("f7b-probe")
    }
    const d = await policyCheck(sb, "ss -t dst exfil.example.com")
    expect({ decision: d.decision, named: d.reason.includes("DNS") }).toEqual({ decision: "ask", named: true })
    for (const command of ["ss -tlnp", "netstat -tlnp", "lsof -nP -i :3000"]) expect({ command, decision: (await policyCheck(sb, command)).decision }).toEqual({ command, decision: "allow" })
  })

  describe("pytest", () => {
    test.skipIf(!has("pytest"))("--override-ini=cache_dir=$HOME/…: pytest expands it and writes into the home: proven, and ccode asks high", async () => {
      const dir = join(sb.work, "pt")
      mkdirSync(dir, { recursive: true })
      writeFileSync(join(dir, "test_a.py"), "def test_a():\n    assert False\n")
      const command = "pytest -q --override-ini='cache_dir=$HOME/.pt-cache'"
      bashIn(sb, command, dir)
      expect(existsSync(join(sb.home, ".pt-cache"))).toBe(true)
      const d = await policyCheck(sb, command, { cwd: dir })
      expect({ decision: d.decision, risk: d.risk, named: d.reason.includes("--override-ini=cache_dir") }).toEqual({ decision: "ask", risk: "high", named: true })
    })
  })

  describe("build runners that take a project above the workspace", () => {
    let up: string
    let ws: string
    let own: string
    const marker = () => join(sb.root, "pwn")
    beforeAll(() => {
      up = join(sb.root, "up")
      ws = join(up, "ws")
      own = join(up, "own")
      mkdirSync(ws, { recursive: true })
      mkdirSync(own, { recursive: true })
      writeFileSync(join(up, "package.json"), JSON.stringify({ name: "up", scripts: { test: `touch ${marker()}-npm`, build: `touch ${marker()}-npm` } }))
      writeFileSync(join(up, "pytest.ini"), "[pytest]\n")
      writeFileSync(join(up, "conftest.py"), `open(${JSON.stringify(`${marker()}-conftest`)}, "w").close()\n`)
      writeFileSync(join(ws, "test_y.py"), "def test_y():\n    assert True\n")
      writeFileSync(join(own, "package.json"), JSON.stringify({ name: "own", scripts: { test: "true" } }))
      writeFileSync(join(own, "pytest.ini"), "[pytest]\n")
      writeFileSync(join(own, "test_y.py"), "def test_y():\n    assert True\n")
    })

    test.skipIf(!has("npm"))("npm test in a workspace without package.json runs the parent's script: proven, and ccode asks high naming it", async () => {
      bashIn(sb, "npm test", ws)
      expect(existsSync(`${marker()}-npm`)).toBe(true)
      for (const command of ["npm test", "npm run build", "npm start"]) {
        const d = await policyCheck(sb, command, { cwd: ws })
        expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes(join(up, "package.json")) }).toEqual({ command, decision: "ask", risk: "high", named: true })
      }
      const d = await policyCheck(sb, "npm test", { cwd: own })
      expect({ decision: d.decision, reason: d.reason }).toEqual({ decision: "allow", reason: d.reason })
    })

    test.skipIf(!has("pytest"))("pytest takes the parent's pytest.ini as rootdir and imports its conftest.py: proven, and ccode asks high", async () => {
      bashIn(sb, "pytest -q -p no:cacheprovider", ws)
      expect(existsSync(`${marker()}-conftest`)).toBe(true)
      for (const command of ["pytest", "pytest -q test_y.py", "python3 -m pytest"]) {
        const d = await policyCheck(sb, command, { cwd: ws })
        expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes("found above the workspace") }).toEqual({ command, decision: "ask", risk: "high", named: true })
      }
      const d = await policyCheck(sb, "pytest -q", { cwd: own })
      expect({ decision: d.decision, reason: d.reason }).toEqual({ decision: "allow", reason: d.reason })
    })
  })
})
