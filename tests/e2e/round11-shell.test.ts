// Review 11 (fixer S): comments and here-document bodies that blinded the checks of dash scripts, dash's
// `-o interactive`, bun run after bun's flags and with --cwd, rg type whitelists, xxd's glued values,
// uniq's +N, jq's `$ ENV`, groff's font path. Each attack is first run for real with bash in the sandbox
// (a fake secret in its HOME, a marker file), then the compiled binary must ask and name the cause.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { bashIn, gitIn, policyCheck, sandbox, type Sandbox } from "./harness.ts"

const SECRET = "FAKESECRET-netrc"
const isDashSh = Bun.which("dash") !== null && Bun.spawnSync(["readlink", "-f", "/bin/sh"]).stdout.toString().includes("dash")
const ALIASED = "alias true='true #'\ntrue '\ncat ~/.n?trc\n' #'"

describe("round 11 shell classes", () => {
  let sb: Sandbox
  let ws: string
  beforeAll(() => {
    sb = sandbox()
    writeFileSync(join(sb.home, ".netrc"), `machine x login y password ${SECRET}\n`)
    ws = sb.work
    writeFileSync(join(ws, ".env"), "API_KEY=FAKESECRET-dotenv\n")
    writeFileSync(join(ws, "a.txt"), "plain\n")
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))
  const run = (command: string, env: Record<string, string> = {}) => bashIn(sb, command, ws, env)
  const asks = async (command: string, risk: string, reason: string, env?: Record<string, string>) => {
    const d = await policyCheck(sb, command, { cwd: ws, ...(env ? { env } : {}) })
    expect({ command, decision: d.decision, risk: d.risk }).toEqual({ command, decision: "ask", risk })
    expect(d.reason).toContain(reason)
  }

  test.if(isDashSh)("an apostrophe in a here-document body or a comment no longer hides dash's alias; ccode asks", async () => {
    for (const command of [`sh -c "cat <<EOF\nit's\nEOF\n${ALIASED}"`, `sh -c ": # it's\n${ALIASED}"`, `sh -c "x=\\$(echo x # it's\n)\n${ALIASED}"`]) {
      expect(run(command)).toContain(SECRET)
      await asks(command, "high", "alias definitions")
    }
  })

  test.if(isDashSh)("a ) in double quotes inside $(…) no longer ends it for the word reader; ccode asks", async () => {
    const command = "sh -c 'x=$(echo \")\")\nal\"\"ias true=\"true #\"\ntrue \"\ncat ~/.n?trc\n\" #\"'"
    expect(run(command)).toContain(SECRET)
    await asks(command, "high", "alias definitions")
  })

  test.if(isDashSh)("eval of text built from a variable defines dash's alias; ccode asks", async () => {
    for (const command of [`sh -c "x=alias && eval \\"\\$x true='true #'\\"\ntrue '\ncat ~/.n?trc\n' #'"`, `sh -c 'a=ali && eval "\${a}as true=\\"true #\\""\ntrue "\ncat ~/.n?trc\n" #"'`]) {
      expect(run(command)).toContain(SECRET)
      await asks(command, "high", "eval (or trap) of text built from variables")
    }
  })

  test.if(isDashSh)("dash -o interactive runs $ENV before the script; ccode asks", async () => {
    writeFileSync(join(ws, "e.sh"), "echo ENV-FILE-RAN; cat ~/.n?trc\n")
    const env = { ENV: join(ws, "e.sh") }
    for (const command of ["sh -o interactive -c true", "sh -eo interactive -c true"]) {
      expect(run(command, env)).toContain(SECRET)
      await asks(command, "high", "-o interactive runs its start-up file", env)
    }
  })

  test.if(Bun.which("bun") !== null)("bun run --cwd DIR runs the program in DIR, bun's flags before run hide nothing; ccode asks", async () => {
    const gh = join(sb.home, ".config", "gh")
    mkdirSync(gh, { recursive: true })
    writeFileSync(join(gh, "hosts.yml"), "github.com:\n    oauth_token: FAKESECRET-gh\n")
    const command = `bun run --cwd ${gh} cat hosts.yml`
    expect(run(command)).toContain("FAKESECRET-gh")
    await asks(command, "high", "hosts.yml")
    const silent = "bun --silent run sh -c 'cat $(echo .e)nv'"
    expect(run(silent)).toContain("FAKESECRET-dotenv")
    await asks(silent, "medium", "named only at run time")
  })

  test.if(Bun.which("rg") !== null)("a selected rg type whose glob matches .env searches it; ccode asks", async () => {
    for (const command of ["rg --type-add 'e:.env' -te FAKE", "rg --type-add 'a:.*' -ta FAKE"]) {
      expect(run(command)).toContain("FAKESECRET-dotenv")
      await asks(command, "high", ".env")
    }
    expect(run("rg FAKE")).not.toContain("FAKESECRET")
  })

  test("xxd -nfoo takes foo as its value and writes the file after the input; ccode asks", async () => {
    writeFileSync(join(ws, "a.hex"), Buffer.from("echo XXD-RAN\n").toString("hex") + "\n")
    const command = "xxd -r -p -nfoo a.hex ~/.bashrc"
    run(command)
    expect(readFileSync(join(sb.home, ".bashrc"), "utf8")).toContain("XXD-RAN")
    rmSync(join(sb.home, ".bashrc"))
    await asks(command, "critical", "shell startup file")
  })

  test("uniq +0 IN OUT writes OUT (a git hook); ccode asks", async () => {
    gitIn(sb, ws, ["init", "-q"])
    writeFileSync(join(ws, "hook.sh"), "#!/bin/sh\ntouch UNIQ-RAN\n")
    const command = "uniq +0 hook.sh .git/hooks/pre-commit"
    run(command)
    expect(readFileSync(join(ws, ".git", "hooks", "pre-commit"), "utf8")).toContain("UNIQ-RAN")
    await asks(command, "critical", "protected path")
  })

  test("jq's `$ ENV` prints the environment; ccode asks", async () => {
    const env = { GITHUB_TOKEN: "ghp_FAKESECRETenvtoken000000000000000000" }
    for (const command of ["jq -n '$ ENV|.GITHUB_TOKEN'", "jq -n '$#c\nENV|.GITHUB_TOKEN'"]) {
      expect(run(command, env)).toContain("FAKESECRET")
      await asks(command, "medium", "reads env or $ENV as a whole", env)
    }
  })

  test("xargs date -f takes the added word as the file it quotes; ccode asks", async () => {
    const command = `echo ${join(sb.home, ".netrc")} | xargs date -f`
    expect(run(command)).toContain(SECRET)
    await asks(command, "medium", "date -f takes its value from the words xargs adds")
  })

  test("a file named --files0-from=.env is an option of wc behind xargs; ccode asks", async () => {
    const dir = join(ws, "listing")
    mkdirSync(dir)
    mkdirSync(join(ws, "staged-none"))
    writeFileSync(join(ws, "staged-none", "a.txt"), "a\n")
    writeFileSync(join(dir, ".env"), "API_KEY=FAKESECRET-listed\n")
    writeFileSync(join(dir, "--files0-from=.env"), "")
    for (const command of ["ls | xargs wc -l", "ls | xargs -I{} wc -l {}"]) {
      expect(bashIn(sb, command, dir)).toContain("FAKESECRET-listed")
      const d = await policyCheck(sb, command, { cwd: dir })
      expect(d.decision).toBe("ask")
      expect(d.reason).toMatch(/words xargs adds|the item xargs puts there/)
    }
    // a name list piped into xargs asks whatever is on disk now (xargs removes quotes and splits names;
    // git and ls -R list names that are not in the folder's top level); options ended with -- stay allowed
    expect((await policyCheck(sb, "ls | xargs wc -l", { cwd: join(ws, "staged-none") })).decision).toBe("ask")
    expect(bashIn(sb, "ls | xargs wc -l --", dir)).not.toContain("FAKESECRET-listed")
    expect((await policyCheck(sb, "ls | xargs wc -l --", { cwd: dir })).decision).toBe("allow")
  })

  test.if(existsSync("/sys/devices/system/cpu/possible") && Bun.which("lscpu") !== null)("lscpu -s DIR prints a file a link there leads to; ccode asks", async () => {
    const cpu = join(ws, "fk", "sys", "devices", "system", "cpu")
    mkdirSync(join(cpu, "vulnerabilities"), { recursive: true })
    mkdirSync(join(ws, "fk", "proc"))
    copyFileSync("/proc/cpuinfo", join(ws, "fk", "proc", "cpuinfo"))
    for (const f of ["possible", "present", "online"]) copyFileSync(`/sys/devices/system/cpu/${f}`, join(cpu, f))
    symlinkSync(join(sb.home, ".netrc"), join(cpu, "vulnerabilities", "spectre_v1"))
    for (const command of ["lscpu -s fk", "lscpu -sfk"]) {
      expect(run(command)).toContain(SECRET)
      await asks(command, "high", "reads and prints files below the folder")
    }
  })

  test("git status --verb (a prefix of --verbose) prints the staged .env; ccode asks", async () => {
    const repo = join(ws, "staged")
    mkdirSync(repo)
    gitIn(sb, repo, ["init", "-q"])
    writeFileSync(join(repo, ".env"), "API_KEY=FAKESECRET-staged\n")
    gitIn(sb, repo, ["add", "-f", ".env"])
    const command = "git status --verb"
    expect(bashIn(sb, command, repo)).toContain("FAKESECRET-staged")
    const d = await policyCheck(sb, command, { cwd: repo })
    expect([d.decision, d.risk]).toEqual(["ask", "high"])
    expect(d.reason).toContain(".env")
  })

  const devutf8 = "/usr/share/groff/current/font/devutf8"
  test.if(Bun.which("man") !== null && existsSync(devutf8))("GROFF_FONT_PATH's DESC names the postprocessor groff runs; ccode asks", async () => {
    cpSync(devutf8, join(ws, "devutf8"), { recursive: true, dereference: true })
    const evil = join(ws, "evil.sh")
    writeFileSync(evil, `#!/bin/sh\ntouch ${join(ws, "PWNED-groff")}; cat >/dev/null\n`)
    chmodSync(evil, 0o755)
    const desc = join(ws, "devutf8", "DESC")
    writeFileSync(desc, readFileSync(desc, "utf8").replace(/^postpro.*$/m, "") + `postpro ${evil}\n`)
    const command = `GROFF_FONT_PATH=${ws} MANWIDTH=81 man tac`
    run(command)
    expect(existsSync(join(ws, "PWNED-groff"))).toBe(true)
    await asks(command, "high", "sets GROFF_FONT_PATH")
  })
})
