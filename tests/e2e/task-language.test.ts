// The task language through the compiled binary: inputs, outputs, if:, per-step env and
// working_directory, and a resume after kill -9 that still sees the outputs of finished steps.
import { Database } from "bun:sqlite"
import { describe, expect, test } from "bun:test"
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs"
import { join } from "node:path"
import { ccode, events, sandbox, spawnCcode, waitFor, type Sandbox } from "./harness.ts"

async function inSandbox(body: (sb: Sandbox) => Promise<void>): Promise<void> {
  const sb = sandbox()
  try {
    await body(sb)
  } finally {
    rmSync(sb.root, { recursive: true, force: true })
  }
}

/** Every byte of the database, its write-ahead log included. */
const storedBytes = (sb: Sandbox) => Buffer.concat([sb.db, `${sb.db}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)))

const started = (out: string) => events(out).filter((e) => e.type === "step.started").map((e) => [e.step, (e.args as { command?: string }).command])
const finished = (out: string) => events(out).filter((e) => e.type === "step.finished").map((e) => [e.step, e.status, String(e.output ?? "")])
const skipped = (out: string) => events(out).filter((e) => e.type === "step.skipped").map((e) => e.step)

describe("task language", () => {
  test("inputs, outputs, if: true/false/failure(), per-step env and working_directory", async () => {
    await inSandbox(async (sb) => {
      mkdirSync(join(sb.work, "pkg", "sub"), { recursive: true })
      sb.file("t.yaml", [
        "name: lang",
        "env: { SHARED: task, OVER: task }",
        "inputs:",
        "  who: { required: true }",
        "  mode: { default: debug }",
        "policy: { limits: { retries: 0 } }",
        "steps:",
        "  - id: version",
        "    run: |",
        "      echo v=1.2.3 >> \"$CCODE_OUTPUT\"",
        "      printf 'notes<<END\\nfirst line\\nsecond line\\nEND\\n' >> \"$CCODE_OUTPUT\"",
        "  - id: greet",
        "    run: echo \"hi ${{ inputs.who }} $SHARED $OVER $ONLY v${{ steps.version.outputs.v }}\"",
        "    env: { OVER: step, ONLY: '${{ inputs.mode }}' }",
        "  - id: where",
        "    run: pwd",
        "    working_directory: pkg/sub",
        "  - id: release",
        "    if: inputs.mode == 'release'",
        "    run: echo releasing",
        "  - id: big",
        "    if: steps.version.outputs.v != '' && inputs.mode == 'debug'",
        "    run: echo debug build",
        "  - id: broken",
        "    needs: [big]",
        "    run: exit 4",
        "  - id: after-broken",
        "    needs: [broken]",
        "    if: success()",
        "    run: echo should not run",
        "  - id: report",
        "    needs: [broken]",
        "    if: failure()",
        "    run: echo \"cleanup after ${{ steps.broken.outcome }}\"",
        "",
      ].join("\n"))
      const r = await ccode(sb, ["run", "t.yaml", "--json", "--non-interactive", "--var", "who=ada"])
      expect(r.code).toBe(1)
      expect(finished(r.stdout)).toEqual([
        // greet reads version's outputs, so it needs it: `where` (needing nothing) is scheduled before it
        ["version", "ok", ""],
        ["where", "ok", `${join(sb.work, "pkg", "sub")}\n`],
        ["greet", "ok", "hi ada task step debug v1.2.3\n"],
        ["big", "ok", "debug build\n"],
        ["broken", "error", "command exited with code 4"],
        ["report", "ok", "cleanup after failure\n"],
      ])
      expect(skipped(r.stdout)).toEqual(["release", "after-broken"])
      const runId = String(events(r.stdout)[0]!.run)
      const show = JSON.parse((await ccode(sb, ["runs", "show", runId, "--json"])).stdout) as { plan: { id: string; state: string }[] }
      expect(show.plan.map((p) => [p.id, p.state])).toEqual([
        ["version", "done"], ["greet", "done"], ["where", "done"], ["release", "skipped"], ["big", "done"], ["broken", "failed"],
        ["after-broken", "skipped"], ["report", "done"],
      ])
      const summary = readFileSync(String(events(r.stdout).at(-1)!.summary_path), "utf8")
      expect(summary).toContain("| release | skipped | 0 |")

      // the same input from the environment, and a multi-line output read by a later step
      sb.file("m.yaml", [
        "inputs: { who: { required: true } }",
        "steps:",
        "  - id: a", "    run: printf 'notes<<END\\none\\ntwo\\nEND\\n' >> \"$CCODE_OUTPUT\"",
        "  - id: b", "    run: \"printf '%s|' ${{ steps.a.outputs.notes }}; echo ${{ inputs.who }}\"", "",
      ].join("\n"))
      const env = await ccode(sb, ["run", "m.yaml", "--json", "--non-interactive"], { env: { CCODE_VAR_who: "grace" } })
      expect(env.code).toBe(0)
      // the value's newline became a second command line: exactly what the policy was shown
      expect(started(env.stdout)[1]).toEqual(["b", "printf '%s|' one\ntwo; echo grace"])
    })
  }, 120_000)

  test("a missing required input or an unknown --var is exit 2 and runs nothing", async () => {
    await inSandbox(async (sb) => {
      sb.file("t.yaml", "inputs:\n  who: { required: true }\nsteps:\n  - run: touch ran\n")
      const missing = await ccode(sb, ["run", "t.yaml", "--non-interactive"])
      expect(missing.code).toBe(2)
      expect(missing.stderr).toContain(`${join(sb.work, "t.yaml")}:2:3`)
      expect(missing.stderr).toContain('input "who" is required: give it with --var who=VALUE or CCODE_VAR_who')
      const unknown = await ccode(sb, ["run", "t.yaml", "--non-interactive", "--var", "who=x", "--var", "whom=y"])
      expect(unknown.code).toBe(2)
      expect(unknown.stderr).toContain('--var whom: ')
      expect(unknown.stderr).toContain('has no input "whom" (its inputs: who)')
      const malformed = await ccode(sb, ["run", "t.yaml", "--var", "who"])
      expect([malformed.code, malformed.stderr.includes('--var takes name=value, got "who"')]).toEqual([2, true])
      expect(existsSync(join(sb.work, "ran"))).toBe(false)
    })
  }, 60_000)

  test("attack: an input that reads as shell syntax is decided as shell syntax (the policy judges what runs)", async () => {
    await inSandbox(async (sb) => {
      sb.file("t.yaml", "inputs: { msg: {} }\nsteps:\n  - id: say\n    run: echo ${{ inputs.msg }}\n")
      const marker = sb.file("../home/keep.txt", "precious")
      const r = await ccode(sb, ["run", "t.yaml", "--json", "--non-interactive", "--var", "msg=hi; rm -rf ~"])
      expect(started(r.stdout)).toEqual([["say", "echo hi; rm -rf ~"]])
      const decision = events(r.stdout).find((e) => e.type === "decision")!
      expect(decision.decision).toBe("deny")
      expect(r.code).toBe(5)
      expect(readFileSync(marker, "utf8")).toBe("precious")
      // --dry-run decides the same substituted command
      const dry = await ccode(sb, ["run", "t.yaml", "--dry-run", "--json", "--var", "msg=hi; rm -rf ~"])
      const planned = events(dry.stdout).find((e) => e.type === "decision")!
      expect([dry.code, (planned.args as { command: string }).command, planned.decision]).toEqual([5, "echo hi; rm -rf ~", "deny"])
      // and through an output: a step's output that holds a command substitution is analysed too
      sb.file("o.yaml", "steps:\n  - id: a\n    run: echo 'x=$(rm -rf ~)' >> \"$CCODE_OUTPUT\"\n  - id: b\n    run: echo ${{ steps.a.outputs.x }}\n")
      const o = await ccode(sb, ["run", "o.yaml", "--json", "--non-interactive"])
      expect(started(o.stdout)[1]).toEqual(["b", "echo $(rm -rf ~)"])
      expect(events(o.stdout).filter((e) => e.type === "decision").map((e) => e.decision)).toEqual(["allow", "deny"])
      expect(readFileSync(marker, "utf8")).toBe("precious")
    })
  }, 60_000)

  test("a working_directory that escapes through a symlink is refused before its command runs", async () => {
    await inSandbox(async (sb) => {
      const outside = join(sb.root, "outside")
      mkdirSync(outside)
      symlinkSync(outside, join(sb.work, "link"))
      sb.file("t.yaml", "inputs: { dir: { default: link } }\nsteps:\n  - id: esc\n    run: touch escaped\n    working_directory: link\n  - id: viainput\n    run: touch escaped2\n    working_directory: ${{ inputs.dir }}\n")
      const r = await ccode(sb, ["run", "t.yaml", "--json", "--non-interactive"])
      expect(r.code).toBe(5)
      expect(existsSync(join(outside, "escaped"))).toBe(false)
      expect(existsSync(join(outside, "escaped2"))).toBe(false)
      const runId = String(events(r.stdout)[0]!.run)
      const show = JSON.parse((await ccode(sb, ["runs", "show", runId, "--json"])).stdout) as { plan: { id: string; state: string; note?: string }[] }
      expect(show.plan.map((p) => [p.id, p.state])).toEqual([["esc", "failed"], ["viainput", "failed"]])
      expect(r.stderr + JSON.stringify(show)).toContain(`outside the workspace`)
    })
  }, 60_000)

  test("an untrusted task's step env may not set a loader variable; secret outputs are redacted in storage", async () => {
    await inSandbox(async (sb) => {
      sb.file("t.yaml", "steps:\n  - run: echo hi\n    env: { LD_PRELOAD: /tmp/evil.so }\n")
      const r = await ccode(sb, ["run", "t.yaml", "--non-interactive"])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(`${join(sb.work, "t.yaml")}:3:12`)
      expect(r.stderr).toContain("LD_PRELOAD is a loader/config variable")

      const secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
      sb.file("s.yaml", `steps:\n  - id: a\n    run: echo token=${secret} >> "$CCODE_OUTPUT"\n  - id: b\n    run: echo "\${{ steps.a.outputs.token }}"\n    env: { API_TOKEN: s3cr3t-value-1234 }\n`)
      const s = await ccode(sb, ["run", "s.yaml", "--json", "--non-interactive"])
      expect(s.code).toBe(0)
      expect(s.stdout).not.toContain(secret)
      const db = new Database(sb.db, { readonly: true })
      const stored = (db.query("SELECT state FROM checkpoints ORDER BY seq DESC LIMIT 1").get() as { state: string }).state
      db.close()
      expect(stored).toContain('"outputs"')
      expect(stored).not.toContain(secret)
      expect(storedBytes(sb).includes(secret)).toBe(false)

      // an input whose name says secret is masked in events and storage; the run row never keeps --var values
      sb.file("i.yaml", "inputs: { api_token: {} }\nsteps:\n  - run: echo ${{ inputs.api_token }} > seen.txt\n")
      const i = await ccode(sb, ["run", "i.yaml", "--json", "--non-interactive", "--var", "api_token=zq81-very-private-9x"])
      expect(i.code).toBe(0)
      expect(readFileSync(join(sb.work, "seen.txt"), "utf8")).toBe("zq81-very-private-9x\n")
      expect(i.stdout).not.toContain("zq81-very-private-9x")
      expect(storedBytes(sb).includes("zq81-very-private-9x")).toBe(false)
    })
  }, 60_000)

  test("attack: a step that swaps $CCODE_OUTPUT for a symlink, a FIFO or a huge file gets nothing read for it", async () => {
    await inSandbox(async (sb) => {
      const secret = sb.file("../home/secret.txt", "k=stolen-value\n")
      // the swaps happen inside a script, as a step's own program would do them (the policy sees `sh swap.sh`)
      sb.file("swap.sh", [
        'rm -f "$CCODE_OUTPUT"',
        'case "$1" in',
        `  link) ln -s ${secret} "$CCODE_OUTPUT" ;;`,
        '  fifo) mkfifo "$CCODE_OUTPUT" ;;',
        `  huge) head -c 1100000 /dev/zero | tr '\\0' a | sed 's/^/k=/' > "$CCODE_OUTPUT" ;;`,
        '  hard) echo k=1 > mine.txt; ln mine.txt "$CCODE_OUTPUT" ;;',
        'esac', "",
      ].join("\n"))
      sb.file("t.yaml", [
        "policy: { limits: { retries: 0 } }",
        "steps:",
        ...["link", "fifo", "huge", "hard"].flatMap((how) => [`  - id: ${how}`, `    run: sh swap.sh ${how}`]),
        `  - id: read`, `    needs: [link]`, `    if: always()`, `    run: echo "got=\${{ steps.link.outputs.k }}"`,
        "",
      ].join("\n"))
      const r = await ccode(sb, ["run", "t.yaml", "--json", "--non-interactive", "--sandbox", "off", "--yes"], { timeoutMs: 60_000 })
      expect(r.code).toBe(1)
      expect(r.stdout).not.toContain("stolen-value")
      const errors = Object.fromEntries(events(r.stdout).filter((e) => e.type === "step.finished").map((e) => [e.step, (e.error as { message?: string } | null)?.message ?? "ok"]))
      expect(errors.link).toContain("replaced by a symlink; refused")
      expect(errors.fifo).toContain("no longer a regular file; refused")
      expect(errors.huge).toMatch(/\$CCODE_OUTPUT is 11\d{5} bytes; at most 1048576 are taken/)
      expect(errors.hard).toContain("another hard link; refused")
      expect(finished(r.stdout).find(([step]) => step === "read")).toEqual(["read", "ok", "got=\n"])
    })
  }, 60_000)

  test("resume after kill -9 sees the outputs of finished steps and refuses changed inputs", async () => {
    await inSandbox(async (sb) => {
      sb.file("t.yaml", [
        "inputs: { who: { required: true } }",
        "steps:",
        "  - id: a", "    run: echo v=42 >> \"$CCODE_OUTPUT\"; echo ran >> a-runs.txt",
        "  - id: b",
        "    run: if [ -f again ]; then echo \"b ${{ steps.a.outputs.v }} ${{ inputs.who }}\" > b.txt; else touch again; exec sleep 20; fi",
        "",
      ].join("\n"))
      const proc = await spawnCcode(sb, ["run", "t.yaml", "--non-interactive", "--var", "who=ada"])
      await waitFor(() => existsSync(join(sb.work, "again")), 60_000)
      proc.kill("SIGKILL")
      await proc.exited
      const db = new Database(sb.db, { readonly: true })
      const runId = (db.query("SELECT id FROM runs").get() as { id: string }).id
      db.close()
      const changed = await ccode(sb, ["resume", runId, "--approve-all", "--non-interactive", "--var", "who=eve"])
      expect(changed.code).toBe(2)
      expect(changed.stderr).toContain("its inputs differ")
      const forgot = await ccode(sb, ["resume", runId, "--approve-all", "--non-interactive"])
      expect(forgot.code).toBe(2)
      const resumed = await ccode(sb, ["resume", runId, "--approve-all", "--non-interactive", "--json", "--var", "who=ada"])
      expect(resumed.code).toBe(0)
      expect(readFileSync(join(sb.work, "b.txt"), "utf8")).toBe("b 42 ada\n")
      expect(readFileSync(join(sb.work, "a-runs.txt"), "utf8")).toBe("ran\n")
    })
  }, 120_000)
})
