// Round 11: symlinks swapped in between resolution and use, through the compiled binary: a preview's
// apply, sandbox.writable entries, read-only links, and undo must never reach outside the workspace.
import { afterEach, describe, expect, test } from "bun:test"
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from "node:fs"
import { join } from "node:path"
import { ccode, events, sandbox, type Sandbox } from "./harness.ts"

const HAS_BWRAP = Bun.which("bwrap") !== null
const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function box(): Sandbox & { victim: string } {
  const sb = sandbox()
  made.push(sb.root)
  const victim = join(sb.root, "victim")
  mkdirSync(victim)
  return { ...sb, victim }
}

const stepErrors = (stdout: string) => events(stdout).filter((e) => e.type === "step.finished").map((e) => (e.error as { code?: string } | undefined)?.code)

describe.skipIf(!HAS_BWRAP)("symlinks swapped in by a step", () => {
  test("a preview approved after a later step swapped its folder for a link: nothing lands outside", async () => {
    const sb = box()
    sb.file("d/readme.txt", "r\n")
    sb.file("swap.sh", `mv d d.old\nln -s ${sb.victim} d\n`)
    sb.file("task.yaml", [
      "version: 1", "steps:",
      "  - id: p", "    preview: true", "    run: echo 'harmless notes' > d/planted",
      "  - id: swap", "    run: sh swap.sh", "",
    ].join("\n"))
    const first = await ccode(sb, ["run", "task.yaml", "--yes", "--json"])
    expect(first.code).toBe(3)
    expect(lstatSync(join(sb.work, "d")).isSymbolicLink()).toBe(true)
    const request = events(first.stdout).find((e) => e.type === "request.created")!
    expect((await ccode(sb, ["approve", String(request.run), String(request.req)])).code).toBe(0)
    const resumed = await ccode(sb, ["resume", String(request.run), "--json"])
    expect(resumed.stdout).toContain("PREVIEW_CONFLICT")
    expect(resumed.stdout).toContain("no longer below real folders of the workspace")
    expect(readdirSync(sb.victim)).toEqual([])
  }, 120_000)

  test("writable: [.git] planted as a link to a host folder: the next step cannot write there", async () => {
    const sb = box()
    rmSync(join(sb.work, ".git"), { recursive: true, force: true })
    sb.file("s1.sh", `ln -s ${sb.victim} .git\n`)
    sb.file("s2.sh", "echo planted > .git/through-link\n")
    sb.file("task.yaml", "version: 1\nsteps:\n  - id: a\n    run: sh s1.sh\n  - id: b\n    needs: [a]\n    run: sh s2.sh\n")
    const policy = join(sb.root, "writable.yaml")
    await Bun.write(policy, "sandbox:\n  writable: [.git]\n")
    const result = await ccode(sb, ["run", "task.yaml", "--yes", "--json", "--policy", policy])
    expect(result.code).not.toBe(0)
    expect(existsSync(join(sb.victim, "through-link"))).toBe(false)
  }, 60_000)

  test("a read-only .claude link replaced by a folder of hooks: blocked, and the link is back", async () => {
    const sb = box()
    sb.file(".github/claude/settings.json", "{}\n")
    symlinkSync(".github/claude", join(sb.work, ".claude"))
    sb.file("s.sh", `rm .claude && mkdir .claude && echo '{"hooks":{}}' > .claude/settings.json\n`)
    sb.file("task.yaml", "version: 1\nsteps:\n  - id: s\n    run: sh s.sh\n")
    const result = await ccode(sb, ["run", "task.yaml", "--yes", "--json"])
    expect(result.code).toBe(1)
    expect(stepErrors(result.stdout)).toEqual(["SANDBOX_BLOCKED"])
    expect(readlinkSync(join(sb.work, ".claude"))).toBe(".github/claude")
    expect(readFileSync(join(sb.work, ".claude", "settings.json"), "utf8")).toBe("{}\n")
  }, 60_000)

  test("undo of a run after a later run swapped its folder for a link: no folder made on the host", async () => {
    const sb = box()
    sb.file("a/x/b/f", "f\n")
    sb.file("a/x/keep", "k\n")
    sb.file("r1.yaml", "version: 1\nsteps:\n  - id: rm\n    run: rm -r a/x/b\n")
    sb.file("swap.sh", `rm -rf a && ln -s ${sb.victim} a\n`)
    sb.file("r2.yaml", "version: 1\nsteps:\n  - id: swap\n    run: sh swap.sh\n")
    const r1 = await ccode(sb, ["run", "r1.yaml", "--yes", "--json"])
    expect(r1.code).toBe(0)
    const runId = String(events(r1.stdout).find((e) => e.type === "run.started")!.run)
    expect((await ccode(sb, ["run", "r2.yaml", "--yes", "--json"])).code).toBe(0)
    const undo = await ccode(sb, ["undo", runId])
    expect(undo.code).not.toBe(0)
    expect(undo.stdout + undo.stderr).toContain("undo stopped before going through it")
    expect(readdirSync(sb.victim)).toEqual([])
  }, 120_000)
})
