// A literal secret fed to a stdin password option (here-string, here-doc, echo |) never reaches the
// database file (or its -wal), the --json events, summary.md, the audit export or the terminal log.
import { describe, expect, test } from "bun:test"
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { ccode, sandbox } from "./harness.ts"

const SECRETS = ["HereStr1ngPw9", "HereD0cToken7", "Ech0PipePw42", "Pr1ntedPw77"]

describe("secrets piped to a stdin password option", () => {
  test("are hidden in stored commands, audit rows, events and printed output", async () => {
    const sb = sandbox()
    try {
      // `true` stands in for docker: the option, not the program, says the stdin is a password
      sb.file("task.yaml", [
        "version: 1",
        "steps:",
        "  - id: herestring",
        "    run: true login -u bob --password-stdin r.io <<< \"HereStr1ngPw9\"",
        "  - id: heredoc",
        "    run: |",
        "      true auth login --with-token <<EOF",
        "      HereD0cToken7",
        "      EOF",
        "  - id: pipe",
        "    run: echo Ech0PipePw42 | true login --password-stdin r.io",
        "  - id: printed",
        "    run: echo 'docker login --password-stdin r.io <<< \"Pr1ntedPw77\"'",
        "",
      ].join("\n"))
      const run = await ccode(sb, ["run", "task.yaml", "--yes", "--json", "--sandbox", "off"])
      const log = await ccode(sb, ["run", "task.yaml", "--yes", "--verbose", "--sandbox", "off"])
      expect([run.code, log.code]).toEqual([0, 0])
      const audit = await ccode(sb, ["audit", "--format", "jsonl"])
      const runId = String(JSON.parse(run.stdout.split("\n")[0]!).run)
      const logs = await ccode(sb, ["runs", "logs", runId])
      const texts = new Map<string, string>([
        ["--json events", run.stdout], ["terminal log", log.stderr + log.stdout], ["audit export", audit.stdout], ["runs logs", logs.stdout],
      ])
      for (const file of [sb.db, `${sb.db}-wal`]) if (existsSync(file)) texts.set(file, readFileSync(file).toString("latin1"))
      const runsDir = join(sb.env.CCODE_HOME!, "runs")
      for (const id of readdirSync(runsDir)) texts.set(`summary ${id}`, readFileSync(join(runsDir, id, "summary.md"), "utf8"))
      const leaks = [...texts].flatMap(([where, text]) => SECRETS.filter((s) => text.includes(s)).map((s) => `${s} in ${where}`))
      expect(leaks).toEqual([])
      // the commands are still there, with the marker where the secret was
      expect(run.stdout).toContain("--password-stdin r.io <<< \\\"[REDACTED:stdin-secret]\\\"")
      expect(run.stdout).toContain("echo [REDACTED:stdin-secret] | true login --password-stdin r.io")
    } finally {
      rmSync(sb.root, { recursive: true, force: true })
    }
  }, 90_000)
})
