// Attacks on the new output paths: a secret a failing step prints must not leave through any of them
// (events, runs show/logs, summary.md, the end-of-run report).
import { expect, test } from "bun:test"
import { readFileSync, rmSync } from "node:fs"
import { ccode, events, sandbox } from "./harness.ts"

test("a token printed by a failing step is masked in every place its output is shown", async () => {
  const sb = sandbox()
  const token = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"
  const envSecret = "hunter2-not-a-pattern-but-a-known-value"
  try {
    sb.file("t.yaml", [
      "version: 1", "name: leaky", "policy:", "  redaction: { env: [DEPLOY_TOKEN] }", "steps:", "  - id: leak",
      `    run: 'echo "auth with ${token}"; echo "deploy=$DEPLOY_TOKEN" >&2; exit 4'`, "    retries: 0", "",
    ].join("\n"))
    const env = { DEPLOY_TOKEN: envSecret }
    // a step that prints a secret variable asks even in the sandbox (it passes the environment through): approved here
    const json = await ccode(sb, ["run", "t.yaml", "--json", "--yes"], { env })
    const human = await ccode(sb, ["run", "t.yaml", "--yes"], { env })
    expect([json.code, human.code]).toEqual([1, 1])
    const runId = String(events(json.stdout)[0]!.run)
    const summary = readFileSync(String(events(json.stdout).find((e) => e.type === "run.finished")!.summary_path), "utf8")
    const places = [
      json.stdout, human.stderr, summary,
      (await ccode(sb, ["runs", "logs", runId])).stdout,
      (await ccode(sb, ["runs", "logs", runId, "--json"])).stdout,
      (await ccode(sb, ["runs", "show", runId])).stdout,
      (await ccode(sb, ["runs", "show", runId, "--json"])).stdout,
      (await ccode(sb, ["runs", "events", runId, "--format", "jsonl"])).stdout,
    ]
    for (const text of places) {
      expect(text).toContain("auth with ") // the output is there ...
      expect(text.includes(token) || text.includes(envSecret)).toBe(false) // ... without the secrets
    }
  } finally {
    rmSync(sb.root, { recursive: true, force: true })
  }
}, 60_000)
