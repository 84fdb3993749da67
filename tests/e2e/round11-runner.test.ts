// Round 11 through the compiled binary: a planted .git whose set-aside names were pre-created, a
// $CCODE_OUTPUT link planted for the next step, an untrusted task choosing /etc-like workdirs, and an
// approval applied to a call whose working directory was swapped while it waited.
import { describe, expect, test } from "bun:test"
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { boxes } from "./boxes.ts"
import { binary, ccode, events } from "./harness.ts"

const box = boxes()
const HAS_BWRAP = Bun.which("bwrap") !== null

describe.skipIf(!HAS_BWRAP)("sandboxed steps cannot turn ccode's own host-side work against the host", () => {
  test("a planted .git stays blocked when a step pre-created every .git.blocked-<ms> name: no crash, and git status runs nothing", async () => {
    const sb = box()
    rmSync(join(sb.work, ".git"), { recursive: true, force: true })
    const pwned = join(sb.root, "fsmonitor-ran")
    sb.file("plant.sh", [
      "git init -q .",
      `git config core.fsmonitor "touch ${pwned}; false"`,
      't=$(date +%s%3N); i=0',
      'while [ $i -lt 3000 ]; do : > ".git.blocked-$((t+i))"; i=$((i+1)); done', "",
    ].join("\n"))
    sb.file("task.yaml", "version: 1\nsteps:\n  - id: plant\n    run: sh plant.sh\n")
    const result = await ccode(sb, ["run", "task.yaml", "--yes", "--json"], { timeoutMs: 60_000 })
    expect(result.stderr).not.toContain("internal error")
    expect(result.code).toBe(1)
    const finished = events(result.stdout).find((e) => e.type === "step.finished")!
    expect((finished.error as { code: string }).code).toBe("SANDBOX_BLOCKED")
    expect(existsSync(join(sb.work, ".git"))).toBe(false)
    expect(readdirSync(sb.work).filter((n) => /^\.git\.blocked-\d+-[0-9a-f]{12}$/.test(n))).toHaveLength(1)
    Bun.spawnSync(["git", "status"], { cwd: sb.work, env: sb.env })
    expect(existsSync(pwned)).toBe(false)
  }, 90_000)

  test("a link planted as the next step's $CCODE_OUTPUT neither truncates nor creates a host file", async () => {
    const sb = box()
    const victim = join(sb.root, "victim.txt")
    const created = join(sb.root, "created.txt")
    writeFileSync(victim, "IMPORTANT-CONTENT")
    sb.file("plant.sh", `d=$(dirname "$CCODE_OUTPUT"); ln -s ${victim} "$d/output-b-1"; ln -s ${created} "$d/output-c-1"\n`)
    sb.file("task.yaml", "version: 1\nsteps:\n  - id: a\n    run: sh plant.sh\n  - { id: b, needs: [a], run: echo b }\n  - { id: c, needs: [a], run: echo c }\n")
    const result = await ccode(sb, ["run", "task.yaml", "--yes", "--json"], { timeoutMs: 60_000 })
    expect(result.code).toBe(0)
    expect(readFileSync(victim, "utf8")).toBe("IMPORTANT-CONTENT")
    expect(existsSync(created)).toBe(false)
  }, 60_000)
})

describe("an untrusted task's workdir and a person's approval", () => {
  test("workdir: a folder outside the task's workspace is refused (exit 2) before any step runs; --trust lets it", async () => {
    const sb = box()
    const other = join(sb.root, "other")
    mkdirSync(other)
    sb.file("task.yaml", `version: 1\nworkdir: ${other}\nsteps:\n  - id: a\n    run: touch written\n`)
    const refused = await ccode(sb, ["run", "task.yaml", "--yes", "--json"])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(`outside the task file's workspace ${sb.work}`)
    expect(existsSync(join(other, "written"))).toBe(false)
    const trusted = await ccode(sb, ["run", "task.yaml", "--yes", "--json", "--trust"])
    expect(trusted.code).toBe(0)
    expect(existsSync(join(other, "written"))).toBe(true)
  }, 60_000)

  test("approve + resume of rm -rf ./* in scratch/ after scratch/ became a link to the workspace: asked again, nothing deleted", async () => {
    const sb = box()
    sb.file("important.txt", "keep me")
    sb.file("scratch/junk.txt", "junk")
    sb.file("swap.sh", "mv scratch scratch.old && ln -s . scratch\n")
    sb.file("task.yaml", [
      "version: 1",
      "policy: { workspace: { detect_external_changes: false } }",
      "steps:",
      "  - { id: clean, working_directory: scratch, run: 'rm -rf ./*' }",
      "  - { id: swap, run: sh swap.sh }", "",
    ].join("\n"))
    const paused = await ccode(sb, ["run", "task.yaml", "--json", "--non-interactive"], { timeoutMs: 60_000 })
    expect(paused.code).toBe(3)
    const asked = events(paused.stdout).find((e) => e.type === "request.created")!
    expect([asked.step, asked.risk]).toEqual(["clean", "high"])
    expect((await ccode(sb, ["approve", String(asked.run), String(asked.req)])).code).toBe(0)
    const resumed = await ccode(sb, ["resume", String(asked.run), "--json", "--non-interactive"], { timeoutMs: 60_000 })
    expect(resumed.code).toBe(3)
    expect(readFileSync(join(sb.work, "important.txt"), "utf8")).toBe("keep me")
    const again = events(resumed.stdout).find((e) => e.type === "request.created")!
    expect([again.step, again.risk]).toEqual(["clean", "critical"])
    expect(String(again.reason)).toContain("the call is not what was approved")
  }, 90_000)

  test("ccode mcp: the same call made again after its approval is asked again when its cwd now leads elsewhere", async () => {
    const sb = box()
    sb.file("important.txt", "keep me")
    sb.file("scratch/junk.txt", "junk")
    const client = new Client({ name: "e2e", version: "1" })
    await client.connect(new StdioClientTransport({ command: await binary(), args: ["mcp"], cwd: sb.work, env: sb.env, stderr: "pipe" }))
    const text = (r: Record<string, unknown>) => (r.content as { text: string }[]).map((c) => c.text).join("")
    try {
      const clean = { name: "shell", arguments: { command: "rm -rf ./*", cwd: "scratch" } }
      const asked = await client.callTool(clean)
      expect(text(asked)).toStartWith("[APPROVAL_REQUIRED] needs a person's approval (risk high")
      const hint = /`ccode approve (\S+) (\S+)`/.exec(text(asked))!
      expect((await ccode(sb, ["approve", hint[1]!, hint[2]!])).code).toBe(0)
      // meanwhile scratch/ became a link to the workspace itself
      renameSync(join(sb.work, "scratch"), join(sb.work, "scratch.old"))
      symlinkSync(".", join(sb.work, "scratch"))
      const again = await client.callTool(clean)
      expect(again.isError).toBe(true)
      expect(text(again)).toStartWith("[APPROVAL_REQUIRED] needs a person's approval (risk critical")
      expect(text(again)).toContain("the call is not what was approved")
      expect(readFileSync(join(sb.work, "important.txt"), "utf8")).toBe("keep me")
    } finally {
      await client.close()
    }
  }, 60_000)
})

describe("an untrusted task never takes a .ccode/ above its repository, or the home folder, as its workspace", () => {
  /** An empty ~/.ccode/ and a git repository ~/src/evil holding the task files. */
  function homeRepo() {
    const sb = box()
    mkdirSync(join(sb.home, ".ccode"))
    const repo = join(sb.home, "src", "evil")
    mkdirSync(repo, { recursive: true })
    expect(Bun.spawnSync(["git", "init", "-q", repo]).exitCode).toBe(0)
    writeFileSync(join(repo, "w.sh"), 'printf "echo EVIL-PROFILE-RAN-at-login\\n" > "$1/.bash_profile"\n')
    writeFileSync(join(repo, "w2.sh"), "echo pwned2 > ../../escaped2.txt\n")
    writeFileSync(join(repo, "task.yaml"), "name: escape\nworkdir: ../..\nsteps:\n  - id: w\n    run: sh src/evil/w.sh .\n")
    writeFileSync(join(repo, "task2.yaml"), "name: escape2\nsteps:\n  - id: w\n    run: sh w2.sh\n")
    return { sb, repo }
  }

  test("workdir: ../.. and no workdir at all are refused (exit 2, nothing written, no login script); ccode trust lets the reviewed task", async () => {
    const { sb, repo } = homeRepo()
    const up = await ccode(sb, ["run", "task.yaml", "--yes", "--json"], { cwd: repo })
    expect(up.code).toBe(2)
    expect(up.stderr).toContain(`outside the task file's workspace ${repo}`)
    const none = await ccode(sb, ["run", "task2.yaml", "--yes", "--json"], { cwd: repo })
    expect(none.code).toBe(2)
    expect(none.stderr).toContain(`would be ${sb.home}, the home folder`)
    expect(none.stderr).toContain(`ccode init ${repo}`)
    expect(existsSync(join(sb.home, ".bash_profile"))).toBe(false)
    expect(existsSync(join(sb.home, "escaped2.txt"))).toBe(false)
    const login = Bun.spawnSync(["bash", "-lc", "true"], { env: { ...sb.env } })
    expect(login.stdout.toString()).not.toContain("EVIL-PROFILE-RAN-at-login")
    expect(events(up.stdout).filter((e) => e.type === "run.started")).toHaveLength(0)
    // the remedy the message names: a person reviews a home-wide task and trusts it
    writeFileSync(join(repo, "task4.yaml"), "name: wide\nworkdir: ../..\nsteps:\n  - id: a\n    run: touch trusted-ran.txt\n")
    expect((await ccode(sb, ["run", "task4.yaml", "--yes", "--json"], { cwd: repo })).code).toBe(2)
    expect((await ccode(sb, ["trust", "task4.yaml"], { cwd: repo })).code).toBe(0)
    const trusted = await ccode(sb, ["run", "task4.yaml", "--yes", "--json"], { cwd: repo, timeoutMs: 60_000 })
    expect(trusted.code).toBe(0)
    expect(existsSync(join(sb.home, "trusted-ran.txt"))).toBe(true)
  }, 90_000)

  test("ccode init in the repository makes it the task's own workspace: the untrusted task runs there", async () => {
    const { sb, repo } = homeRepo()
    writeFileSync(join(repo, "task3.yaml"), "name: inside\nsteps:\n  - id: a\n    run: touch inside.txt\n")
    expect((await ccode(sb, ["run", "task3.yaml", "--yes", "--json"], { cwd: repo })).code).toBe(2)
    expect((await ccode(sb, ["init", repo], { cwd: repo })).code).toBe(0)
    const ran = await ccode(sb, ["run", "task3.yaml", "--yes", "--json"], { cwd: repo, timeoutMs: 60_000 })
    expect(ran.code).toBe(0)
    expect(existsSync(join(repo, "inside.txt"))).toBe(true)
  }, 90_000)

  test.skipIf(process.getuid?.() !== 0)("a .ccode/ made by another user above the task (a /tmp/.ccode/) does not widen its workspace", async () => {
    const sb = box()
    mkdirSync(join(sb.work, ".ccode"))
    chownSync(join(sb.work, ".ccode"), 65534, 65534)
    const proj = join(sb.work, "proj")
    mkdirSync(proj)
    writeFileSync(join(proj, "task.yaml"), "name: wide\nsteps:\n  - id: a\n    run: echo pwned > ../escaped.txt\n")
    const result = await ccode(sb, ["run", "task.yaml", "--yes", "--json"], { cwd: proj })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`would be ${sb.work}, above the task file's workspace ${proj}`)
    expect(existsSync(join(sb.work, "escaped.txt"))).toBe(false)
  }, 60_000)
})
