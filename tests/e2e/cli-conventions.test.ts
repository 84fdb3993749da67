// CLI conventions a script relies on: group --help lists the subcommands, an unknown subcommand is
// exit 2, results on stdout and diagnostics on stderr, crashed runs say so, snake_case JSON, and
// under --json an exit-2 error is also an `error` event on stdout.
import { describe, expect, test } from "bun:test"
import { rmSync } from "node:fs"
import { ccode, events, sandbox, spawnCcode, waitFor } from "./harness.ts"

describe("CLI conventions", () => {
  test("a group's --help lists each subcommand on one line, on stdout", async () => {
    const sb = sandbox()
    try {
      const groups: Record<string, string[]> = {
        runs: ["ls", "show", "events", "logs", "export", "rm", "prune"],
        audit: ["query", "verify", "report"],
        plugins: ["ls", "check"],
        policy: ["check", "show", "test", "schema", "sign", "keygen"],
      }
      for (const [group, subs] of Object.entries(groups)) {
        const help = await ccode(sb, [group, "--help"])
        expect([group, help.code, help.stderr]).toEqual([group, 0, ""])
        const listed = help.stdout.split("SUBCOMMANDS\n")[1]!.split("\n\n")[0]!.split("\n").map((l) => l.trim().split(/\s+/)[0])
        expect(listed).toEqual(subs)
      }
      const sub = await ccode(sb, ["runs", "logs", "--help"])
      expect([sub.code, sub.stdout.includes("--follow")]).toEqual([0, true])
      const root = await ccode(sb, ["--help"])
      expect([root.code, root.stdout.includes("COMMANDS")]).toEqual([0, true])
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)

  test("an unknown subcommand is exit 2 and runs nothing; flag values are not taken for subcommands", async () => {
    const sb = sandbox()
    try {
      for (const args of [["runs", "foo"], ["audit", "foo"], ["plugins", "nope"], ["policy", "bogus"]]) {
        const r = await ccode(sb, args)
        expect([args.join(" "), r.code, r.stdout]).toEqual([args.join(" "), 2, ""])
        expect(r.stderr).toContain(`unknown subcommand "${args[1]}"`)
      }
      const none = await ccode(sb, ["policy"])
      expect([none.code, none.stderr.includes("SUBCOMMANDS")]).toEqual([2, true])
      sb.file("t.yaml", "version: 1\nsteps:\n  - run: echo x\n")
      const run = events((await ccode(sb, ["run", "t.yaml", "--json"])).stdout)[0]!.run as string
      // a global flag's value before the subcommand is not taken for it
      const shown = await ccode(sb, ["runs", "--db", sb.db, "show", run, "--json"])
      expect([shown.code, JSON.parse(shown.stdout).id]).toEqual([0, run])
      const listed = await ccode(sb, ["runs", "--db", sb.db, "--json"])
      expect([listed.code, JSON.parse(listed.stdout)[0].id]).toEqual([0, run])
      const query = await ccode(sb, ["audit", "--run", run, "--format", "jsonl"])
      expect(query.code).toBe(0)
      expect(query.stdout.trim().split("\n").every((l) => JSON.parse(l).run === run)).toBe(true)
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)

  test("under --json an exit-2 error is an error event on stdout as well as text on stderr", async () => {
    const sb = sandbox()
    try {
      const r = await ccode(sb, ["run", "missing.yaml", "--json"])
      expect(r.code).toBe(2)
      const [event] = events(r.stdout)
      expect([event!.type, event!.exit_code, String(event!.message)]).toEqual(["error", 2, "missing.yaml:1:1: task file not found"])
      expect(r.stderr).toContain("missing.yaml:1:1: task file not found")
      const runs = await ccode(sb, ["runs", "show", "nope", "--json"])
      expect([runs.code, events(runs.stdout)[0]!.type]).toEqual([2, "error"])
      const plain = await ccode(sb, ["run", "missing.yaml"])
      expect([plain.code, plain.stdout]).toEqual([2, ""])
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)

  test("results go to stdout: dry-run table, audit verify, undo; progress stays on stderr", async () => {
    const sb = sandbox()
    try {
      sb.file("t.yaml", "version: 1\nsteps:\n  - id: write\n    tool: write_file\n    with: { path: made.txt, content: hi }\n")
      const dry = await ccode(sb, ["run", "t.yaml", "--dry-run"])
      expect(dry.stdout).toMatch(/^task\s+step\s+tool\s+decision/)
      expect(dry.stderr).toContain("dry run: nothing was run")
      const run = await ccode(sb, ["run", "t.yaml", "--yes"])
      expect([run.code, run.stdout]).toEqual([0, ""])
      const verify = await ccode(sb, ["audit", "verify"])
      expect([verify.code, verify.stdout.startsWith("audit chain intact")]).toEqual([0, true])
      const id = JSON.parse((await ccode(sb, ["runs", "ls", "--json"])).stdout)[0].id as string
      const undo = await ccode(sb, ["undo", id, "--dry-run", "--json"])
      expect(undo.code).toBe(0)
      const result = JSON.parse(undo.stdout) as Record<string, unknown>
      expect(Object.keys(result).filter((k) => /[A-Z]/.test(k))).toEqual([])
      expect([result.run_id, result.dry_run]).toEqual([id, true])
      const text = await ccode(sb, ["undo", id, "--dry-run"])
      expect(text.stdout).toContain("would remove (1):\n  made.txt")
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)

  // the step (its own process group, orphaned by the kill) ends by itself a few seconds later
  test("runs ls shows a run whose process was killed as crashed, not running", async () => {
    const sb = sandbox()
    try {
      sb.file("t.yaml", "version: 1\nname: slow\nsteps:\n  - run: sleep 4\n")
      const proc = await spawnCcode(sb, ["run", "t.yaml", "--json"])
      await waitFor(async () => (await ccode(sb, ["runs", "ls", "--json"])).stdout.includes('"running"'))
      proc.kill("SIGKILL")
      await proc.exited
      const ls = JSON.parse((await ccode(sb, ["runs", "ls", "--json"])).stdout) as { status: string }[]
      expect(ls.map((r) => r.status)).toEqual(["crashed"])
      expect(JSON.parse((await ccode(sb, ["runs", "ls", "--json", "--status", "crashed"])).stdout).length).toBe(1)
      expect((await ccode(sb, ["runs", "ls"])).stdout).toContain(" crashed ")
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 60_000)
})
