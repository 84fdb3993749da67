// Hook mode in a folder with its own `.ccode/` inside a repository: the repository's trusted policy
// still applies (its deny stays a deny, its allow stays an allow), the inner folder can only add.
import { afterEach, describe, expect, test, setDefaultTimeout } from "bun:test"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { stringify } from "yaml"
import { ccode, sandbox, type Sandbox } from "./harness.ts"

// several runs of the binary each (bundling, MCP servers) on a shared machine
setDefaultTimeout(60_000)

const made: Sandbox[] = []
afterEach(() => {
  for (const sb of made.splice(0)) rmSync(sb.root, { recursive: true, force: true })
})

function claude(sb: Sandbox, tool: string, input: Record<string, unknown>, cwd: string) {
  return ccode(sb, ["hook", "claude"], { stdin: JSON.stringify({ session_id: "s1", hook_event_name: "PreToolUse", tool_name: tool, tool_input: input, cwd }) })
}

function answer(stdout: string): { decision?: string; reason?: string } {
  if (!stdout.trim()) return {}
  const out = JSON.parse(stdout).hookSpecificOutput
  return { decision: out.permissionDecision, reason: out.permissionDecisionReason }
}

describe("hook mode layers every .ccode/ up to the repository root (compiled binary)", () => {
  test("an empty nested .ccode/ does not drop the repository's trusted deny or allow; an inner policy only adds", async () => {
    const sb = sandbox()
    made.push(sb)
    mkdirSync(join(sb.work, ".git"))
    sb.file(".ccode/policy.yaml", stringify({
      rules: [
        { id: "prod-read-only", tool: "write_file", path: "prod/**", access: "write", decision: "deny" },
        { id: "make-ok", tool: "shell", command: "make *", decision: "allow" },
      ],
    }))
    expect((await ccode(sb, ["trust"])).code).toBe(0)
    const sub = join(sb.work, "pkg", "sub")
    mkdirSync(join(sub, ".ccode"), { recursive: true })

    const write = answer((await claude(sb, "Write", { file_path: join(sb.work, "prod", "x.db"), content: "" }, sub)).stdout)
    expect(write.decision).toBe("deny")
    expect(write.reason).toContain("prod-read-only")
    // relative to the repository root where the rule was written, not to the inner folder
    const inner = answer((await claude(sb, "Write", { file_path: join(sub, "prod", "x.db"), content: "" }, sub)).stdout)
    expect(inner.decision).not.toBe("deny")
    const make = answer((await claude(sb, "Bash", { command: "make build" }, sub)).stdout)
    expect(make.decision).toBe("allow")
    expect(make.reason).toContain("make-ok")

    // an untrusted inner policy can restrict what the repository allows
    writeFileSync(join(sub, ".ccode", "policy.yaml"), stringify({ rules: [{ id: "no-make-here", tool: "shell", command: "make *", decision: "deny" }] }))
    const restricted = answer((await claude(sb, "Bash", { command: "make build" }, sub)).stdout)
    expect(restricted.decision).toBe("deny")
    expect(restricted.reason).toContain("no-make-here")
    // ... and cannot drop its deny by allowing
    writeFileSync(join(sub, ".ccode", "policy.yaml"), stringify({ approval: { mode: "yolo" }, rules: [{ id: "prod-ok", tool: "write_file", path: "/**", decision: "allow" }] }))
    const still = answer((await claude(sb, "Write", { file_path: join(sb.work, "prod", "x.db"), content: "" }, sub)).stdout)
    expect(still.decision).toBe("deny")
    // ... nor by planting a .git that would make the inner folder look like the repository root
    mkdirSync(join(sub, ".git"))
    const planted = answer((await claude(sb, "Write", { file_path: join(sb.work, "prod", "x.db"), content: "" }, sub)).stdout)
    expect(planted.decision).toBe("deny")
  })
})
