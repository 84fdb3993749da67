// "Allow for this run" on a compound command: what is recorded and shown is every pattern the grant
// covers, and the grant covers exactly those (a later push still asks).
import { expect, test } from "bun:test"
import { rmSync } from "node:fs"
import { ccode, events, sandbox } from "./harness.ts"

test("a for-run approval of `echo && git add && git commit` lists and covers exactly those three patterns", async () => {
  const sb = sandbox()
  try {
    Bun.spawnSync(["git", "init", "-q"], { cwd: sb.work, env: sb.env })
    sb.file(".gitignore", "t.yaml\n")
    sb.file("t.yaml", [
      "version: 1", "name: commits",
      "env: { GIT_AUTHOR_NAME: a, GIT_AUTHOR_EMAIL: a@example.com, GIT_COMMITTER_NAME: a, GIT_COMMITTER_EMAIL: a@example.com }",
      "steps:",
      "  - id: first", "    run: echo 1 > one.txt && git add one.txt && git commit -qm first",
      "  - id: second", "    needs: [first]", "    run: git commit --allow-empty -qm second",
      "  - id: push", "    needs: [second]", "    run: git push origin main", "",
    ].join("\n"))
    const first = await ccode(sb, ["run", "t.yaml", "--json", "--non-interactive"])
    expect(first.code).toBe(3)
    const runId = String(events(first.stdout)[0]!.run)
    const created = events(first.stdout).find((e) => e.type === "request.created")!
    const req = String(created.req)
    expect(created.grant).toEqual(["echo *", "git add *", "git commit *"]) // offered before anyone approves
    const approved = await ccode(sb, ["approve", runId, req, "--for-run"])
    expect(approved.code).toBe(0)
    expect(approved.stdout).toContain("for the rest of the run this also allows: echo *, git add *, git commit *")
    const resumed = await ccode(sb, ["resume", runId, "--json", "--non-interactive"])
    expect(resumed.code).toBe(3)
    const decisions = events(resumed.stdout).filter((e) => e.type === "decision").map((e) => [e.decision, e.by, e.reason])
    expect(decisions).toEqual([
      ["allow", "user", "approved by a person"],
      ["allow", "grant", "allowed for this run (echo *, git add *, git commit *, user)"],
      ["ask", "threshold", expect.stringContaining("pushes to a remote")],
    ])
    const grants = (await ccode(sb, ["audit", "--run", runId, "--format", "jsonl"])).stdout.trim().split("\n").map((l) => JSON.parse(l)).filter((a) => a.action === "grant")
    expect(grants.map((g) => [g.reason, g.data])).toEqual([["allow for this run: echo *, git add *, git commit *", { patterns: ["echo *", "git add *", "git commit *"] }]])
  } finally {
    rmSync(sb.root, { recursive: true, force: true })
  }
}, 60_000)
