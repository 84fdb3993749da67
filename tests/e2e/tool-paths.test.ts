// What a tool touches, through the compiled binary: grep and glob stay in the workspace, writes
// through dangling symlinks are judged by their target, and path rules govern plugin and MCP tools
// by the paths they declare, not only the built-in file tools.
import { Database } from "bun:sqlite"
import { afterEach, describe, expect, test, setDefaultTimeout } from "bun:test"
import { copyFileSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { stringify } from "yaml"
import { ccode, events, sandbox, type Sandbox } from "./harness.ts"

// several runs of the binary each (bundling, MCP servers) on a shared machine
setDefaultTimeout(60_000)

const ROOT = join(import.meta.dir, "..", "..")
const MCP_SERVER = join(ROOT, "tests", "fixtures", "mcp", "server.ts")
type Ev = Record<string, any>

const made: Sandbox[] = []
function box(): Sandbox {
  const sb = sandbox()
  made.push(sb)
  return sb
}
afterEach(() => {
  for (const sb of made.splice(0)) rmSync(sb.root, { recursive: true, force: true })
})

function steps(list: { id: string; tool: string; with: Record<string, unknown> }[], extra: Record<string, unknown> = {}): string {
  return stringify({
    version: 1,
    ...extra,
    steps: list.map((s, i) => ({ ...s, retries: 0, continue_on_error: true, ...(i ? { needs: [list[i - 1]!.id] } : {}) })),
  })
}

/** per call, in order: tool, decision, risk, reason, status, error code, output */
function calls(evs: Ev[]) {
  const decisions = new Map(evs.filter((e) => e.type === "decision").map((e) => [e.call, e]))
  const started = evs.filter((e) => e.type === "step.started")
  const finished = new Map(evs.filter((e) => e.type === "step.finished").map((e) => [e.call, e]))
  return started.map((s) => ({
    tool: s.tool as string,
    decision: decisions.get(s.call)?.decision as string | undefined,
    risk: decisions.get(s.call)?.risk as string | undefined,
    reason: String(decisions.get(s.call)?.reason ?? ""),
    status: finished.get(s.call)?.status as string | undefined,
    code: finished.get(s.call)?.error?.code as string | undefined,
    message: String(finished.get(s.call)?.error?.message ?? ""),
  }))
}

describe("file tools stay in the workspace (compiled binary)", () => {
  test("glob and grep patterns that climb out, start at / or follow a symlink out are refused or left out", async () => {
    const sb = box()
    const outside = join(sb.root, "outside")
    mkdirSync(join(outside, ".ssh"), { recursive: true })
    writeFileSync(join(outside, ".ssh", "id_rsa"), "PRIVATE KEY MATERIAL\n")
    sb.file("src/a.txt", "PRIVATE in the workspace\n")
    symlinkSync(join(outside, ".ssh", "id_rsa"), join(sb.work, "src", "key"))
    sb.file("task.yaml", steps([
      { id: "climb", tool: "glob", with: { pattern: "../outside/.ssh/*" } },
      { id: "abs", tool: "glob", with: { pattern: `${outside}/**/*` } },
      { id: "brace", tool: "grep", with: { pattern: "PRIVATE", glob: "{src/*,../outside/.ssh/*}" } },
      { id: "link", tool: "grep", with: { pattern: "PRIVATE" } },
      { id: "list", tool: "glob", with: { pattern: "src/*" } },
    ]))
    const result = await ccode(sb, ["run", "task.yaml", "--json", "--yes"])
    expect(result.stderr).not.toContain("internal error")
    const evs = events(result.stdout)
    const got = calls(evs)
    expect(got.map((c) => [c.status, c.code])).toEqual([
      ["error", "OUTSIDE_WORKSPACE"], ["error", "OUTSIDE_WORKSPACE"], ["error", "OUTSIDE_WORKSPACE"], ["ok", undefined], ["ok", undefined],
    ])
    const db = new Database(sb.db, { readonly: true })
    const outputs = (db.query("SELECT output FROM calls ORDER BY seq").all() as { output: string | null }[]).map((r) => r.output ?? "")
    db.close()
    expect(outputs.join("\n") + result.stdout + result.stderr).not.toContain("KEY MATERIAL")
    expect(outputs[3]).toContain("src/a.txt:1:PRIVATE in the workspace")
    expect(outputs[4]).toBe("src/a.txt\n")
  })

  test("write_file through a dangling symlink to outside is refused; one into .git/hooks is judged as a protected write", async () => {
    const sb = box()
    const outside = join(sb.root, "outside")
    mkdirSync(outside)
    mkdirSync(join(sb.work, ".git", "hooks"), { recursive: true })
    symlinkSync(join(outside, "new.sh"), join(sb.work, "x"))
    symlinkSync(".git/hooks/pre-commit", join(sb.work, "hook"))
    sb.file("task.yaml", steps([
      { id: "out", tool: "write_file", with: { path: "x", content: "echo pwned\n" } },
      { id: "hook", tool: "write_file", with: { path: "hook", content: "#!/bin/sh\necho pwned\n" } },
    ]))
    const result = await ccode(sb, ["run", "task.yaml", "--json", "--yes", "--non-interactive"])
    expect(result.stderr).not.toContain("internal error")
    const got = calls(events(result.stdout))
    expect(existsSync(join(outside, "new.sh"))).toBe(false)
    expect(existsSync(join(sb.work, ".git", "hooks", "pre-commit"))).toBe(false)
    // outside (a temp folder, so not high by itself): confinement sees the link's target
    expect(got[0]).toMatchObject({ tool: "write_file", status: "error", code: "OUTSIDE_WORKSPACE" })
    expect(got[0]!.message).toContain(`it resolves to ${join(outside, "new.sh")}`)
    // .git/hooks: the protected path is seen through the link: critical, never auto-approved
    const hook = calls(events(result.stdout)).find((c) => c.reason.includes("pre-commit"))
    expect(hook?.risk).toBe("critical")
    expect(hook?.reason).toContain(`writes to the protected path ${join(sb.work, ".git", "hooks", "pre-commit")}`)
  })
})

describe("path rules see what plugin and MCP tools declare (compiled binary)", () => {
  const RULES = {
    approval: { mode: "auto", threshold: "medium" },
    rules: [{ id: "prod-read-only", path: "prod/**", access: "write", decision: "deny", reason: "prod is read-only" }],
  }

  test("a plugin tool declaring its db argument as a written path is denied on prod/x.db and allowed elsewhere", async () => {
    const sb = box()
    const dir = join(sb.env.XDG_CONFIG_HOME!, "ccode", "plugins")
    mkdirSync(dir, { recursive: true })
    copyFileSync(join(ROOT, "tests", "fixtures", "plugins", "db_write.ts"), join(dir, "db_write.ts"))
    sb.file("policy.yaml", stringify(RULES))
    sb.file("task.yaml", steps([
      { id: "prod", tool: "db_write", with: { db: "prod/x.db", line: "drop" } },
      { id: "dev", tool: "db_write", with: { db: "dev/x.db", line: "ok" } },
      { id: "escape", tool: "db_write", with: { db: "../x.db", line: "out" } },
    ]))
    const result = await ccode(sb, ["run", "task.yaml", "--json", "--non-interactive", "--policy", "policy.yaml"])
    expect(result.stderr).not.toContain("internal error")
    const got = calls(events(result.stdout))
    expect(got[0]).toMatchObject({ tool: "db_write", decision: "deny" })
    expect(got[0]!.reason).toContain("prod is read-only")
    expect(got[1]).toMatchObject({ tool: "db_write", decision: "allow", status: "ok" })
    // a declared path is confined before the plugin's code runs
    expect(got[2]).toMatchObject({ tool: "db_write", status: "error", code: "OUTSIDE_WORKSPACE" })
    expect(existsSync(join(sb.work, "prod", "x.db"))).toBe(false)
    expect(existsSync(join(sb.work, "dev", "x.db"))).toBe(true)
    expect(existsSync(join(sb.root, "x.db"))).toBe(false)
  })

  test("an MCP tool's argument named like a path is a written path: prod/x.db is denied", async () => {
    const sb = box()
    sb.file("policy.yaml", stringify({ ...RULES, rules: [...RULES.rules, { id: "fx", tool: "mcp:fx/*", decision: "allow" }] }))
    sb.file("task.yaml", steps([
      { id: "prod", tool: "mcp:fx/save", with: { file_path: "prod/x.db", content: "drop" } },
      { id: "dev", tool: "mcp:fx/save", with: { file_path: "dev/x.db", content: "ok" } },
    ], { mcp: { servers: { fx: { command: "bun", args: [MCP_SERVER] } } }, policy: { workspace: { detect_external_changes: false } } }))
    const result = await ccode(sb, ["run", "task.yaml", "--json", "--non-interactive", "--trust", "--policy", "policy.yaml"])
    expect(result.stderr).not.toContain("internal error")
    const got = calls(events(result.stdout))
    expect(got[0]).toMatchObject({ tool: "mcp:fx/save", decision: "deny" })
    expect(got[0]!.reason).toContain("prod is read-only")
    expect(got[1]).toMatchObject({ tool: "mcp:fx/save", decision: "allow", status: "ok" })
    expect(existsSync(join(sb.work, "prod", "x.db"))).toBe(false)
    expect(existsSync(join(sb.work, "dev", "x.db"))).toBe(true)
  }, 30_000)
})
