// Round 11 through the compiled binary: a planted .git whose set-aside names were pre-created, a
// $CCODE_OUTPUT link planted for the next step, an untrusted task choosing /etc-like workdirs, and an
// approval applied to a call whose working directory was swapped while it waited.
import { describe, expect, test } from "bun:test"
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
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
