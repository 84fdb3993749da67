// The six layers: bundled base, user, workspace, task, environment, flags — merged with sources.
import { afterEach, beforeEach, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { sha256 } from "../../core/base/hash.ts"
import { loadPolicy, taskPolicyLayers, type LoadOptions } from "../../core/policy/load.ts"
import { findWorkspaceRoot } from "../../core/policy/workspace.ts"
import { decide } from "../../core/policy/decide.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { parseYaml, validateYaml, ConfigError } from "../../core/base/yaml.ts"
import { PolicyFile } from "../../core/policy/schema.ts"

let root: string
let repo: string
let home: string

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-load-")))
  repo = join(root, "repo")
  home = join(root, "home")
  mkdirSync(join(repo, "src", "deep"), { recursive: true })
  mkdirSync(join(home, ".config", "ccode"), { recursive: true })
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

function opts(extra: Partial<LoadOptions> = {}): LoadOptions {
  return { cwd: repo, home, env: { XDG_CONFIG_HOME: join(home, ".config") }, isTrusted: () => false, ...extra }
}

describe("workspace root", () => {
  test("is the nearest ancestor holding .ccode/, else the git root, else cwd", () => {
    const deep = join(repo, "src", "deep")
    expect(findWorkspaceRoot(deep)).toBe(deep)
    mkdirSync(join(repo, ".git"))
    expect(findWorkspaceRoot(deep)).toBe(repo)
    mkdirSync(join(repo, "src", ".ccode"))
    expect(findWorkspaceRoot(deep)).toBe(join(repo, "src"))
  })
})

describe("layers", () => {
  test("with nothing configured the bundled default applies, with its sources", async () => {
    const { policy, layers, warnings } = await loadPolicy(opts())
    expect(layers).toEqual([])
    expect(warnings).toEqual([])
    expect(policy.extends).toBe("default")
    expect(policy.approval).toMatchObject({ mode: "auto", threshold: "low", on_ask: "prompt", timeout: 600_000 })
    expect(policy.sources["approval.threshold"]).toMatch(/^builtin:default\.yaml:\d+$/)
    expect(policy.limits).toMatchObject({ max_steps: 20, tool_timeout: 30_000, tool_timeouts: { shell: 120_000 } })
  })

  test("user, workspace files, task, env and flags stack in that order", async () => {
    writeFileSync(join(home, ".config", "ccode", "policy.yaml"), "limits: { max_steps: 50, max_tool_calls: 300 }\n")
    mkdirSync(join(repo, ".ccode", "policies"), { recursive: true })
    writeFileSync(join(repo, ".ccode", "policy.yaml"), "limits: { max_steps: 40 }\n")
    writeFileSync(join(repo, ".ccode", "policies", "b.yaml"), "limits: { max_steps: 30 }\n")
    const { policy, layers } = await loadPolicy(opts({ isTrusted: () => true, env: { XDG_CONFIG_HOME: join(home, ".config"), CCODE_MAX_STEPS: "25" }, flags: { maxSteps: 12 } }))
    expect(layers.map((l) => l.name)).toEqual(["user", "workspace", "workspace", "env", "flags"])
    expect(policy.limits.max_steps).toBe(12)
    expect(policy.sources["limits.max_steps"]).toBe("flag:--max-steps")
    expect(policy.limits.max_tool_calls).toBe(300)
    expect(policy.sources["limits.max_tool_calls"]).toBe(`${join(home, ".config", "ccode", "policy.yaml")}:1`)
  })

  test("the environment layer reads CCODE_* variables", async () => {
    const env = {
      CCODE_AUTO_APPROVE: "true", CCODE_AUTO_APPROVE_THRESHOLD: "critical", CCODE_TOOL_TIMEOUT: "45s",
      CCODE_CIRCUIT_FAILURE_THRESHOLD: "5", CCODE_CIRCUIT_RECOVERY_TIMEOUT: "1m", CCODE_REDACT: "0",
    }
    const { policy, warnings } = await loadPolicy(opts({ env: { ...env, XDG_CONFIG_HOME: join(home, ".config") } }))
    expect(policy.approval).toMatchObject({ mode: "auto", threshold: "high" })
    expect(warnings).toEqual(["CCODE_AUTO_APPROVE_THRESHOLD=critical lowered to high: critical risk is never auto-approved"])
    expect(policy.limits.tool_timeout).toBe(45_000)
    expect(policy.circuit_breaker).toEqual({ failure_threshold: 5, recovery_timeout: 60_000 })
    expect(policy.redaction.enabled).toBe(false)
    expect(policy.sources["redaction.enabled"]).toBe("env:CCODE_REDACT")
  })

  test("CCODE_AUTO_APPROVE_TOOLS auto-approves the listed tools", async () => {
    const { policy } = await loadPolicy(opts({ env: { CCODE_AUTO_APPROVE_TOOLS: "read_file, my_deploy" } }))
    expect(policy.approval).toMatchObject({ mode: "allowlist", tools: ["read_file", "my_deploy"] })
  })

  test("a bad environment value is a configuration error naming the variable", async () => {
    expect(loadPolicy(opts({ env: { CCODE_MAX_STEPS: "many" } }))).rejects.toThrow('env CCODE_MAX_STEPS:1:1: expected a positive whole number, got "many"')
    expect(loadPolicy(opts({ env: { CCODE_AUTO_APPROVE_THRESHOLD: "huge" } }))).rejects.toBeInstanceOf(ConfigError)
  })

  test("--yes never auto-approves critical", async () => {
    const { policy } = await loadPolicy(opts({ flags: { yes: true } }))
    expect(policy.approval).toMatchObject({ mode: "auto", threshold: "high" })
    const prepared = await prepareCall("shell", { command: 'eval "$CMD"' }, { cwd: repo, workspace: repo, home, realpath: (p) => p })
    // what the shell analysis reports for a command it cannot resolve statically
    const call = { ...prepared, shell: { ...prepared.shell!, unresolvable: true } }
    const write = await prepareCall("write_file", { path: "~/.ssh/config", content: "" }, { cwd: repo, workspace: repo, home, realpath: (p) => p })
    expect(decide(policy, write, { grants: [] })).toMatchObject({ risk: "critical", decision: "ask" })
    expect(decide(policy, call, { grants: [] })).toMatchObject({ risk: "critical", decision: "ask" })
  })

  test("--policy NAME picks a bundled policy, --policy FILE adds a trusted file", async () => {
    const strict = await loadPolicy(opts({ flags: { policy: ["strict"] } }))
    expect(strict.policy.approval.mode).toBe("manual")
    expect(strict.policy.rules.filter((r) => r.id === "no-force-push")).toHaveLength(1)
    writeFileSync(join(repo, "mine.yaml"), "rules: [{ id: mine, command: 'make *', decision: allow }]\n")
    const file = await loadPolicy(opts({ flags: { policy: ["mine.yaml"] } }))
    expect(file.policy.rules.find((r) => r.id === "mine")).toMatchObject({ layer: "flags", trusted: true })
  })

  test("a task's inline policy is a layer, trusted only with its file's hash", async () => {
    const taskFile = join(repo, "task.yaml")
    const text = "name: t\npolicy:\n  approval: { threshold: medium }\n  rules: [{ id: t-deny, command: 'curl *', decision: deny }]\n"
    writeFileSync(taskFile, text)
    const src = parseYaml(text, taskFile)
    const value = validateYaml(src, PolicyFile, ["policy"])
    const task = await taskPolicyLayers({ file: taskFile, sha256: sha256(text), src, value }, { isTrusted: () => false })
    const { policy, warnings } = await loadPolicy(opts({ task }))
    expect(policy.approval.threshold).toBe("low")
    expect(warnings[0]).toStartWith(`${taskFile}:3: approval.threshold: medium ignored`)
    expect(policy.rules.find((r) => r.id === "t-deny")!.source).toBe(`${taskFile}:4`)
  })

  test("a task's policy may name files relative to the task", async () => {
    const taskFile = join(repo, "task.yaml")
    writeFileSync(join(repo, "p1.yaml"), "limits: { max_steps: 7 }\n")
    const src = parseYaml("policy: [p1.yaml]\n", taskFile)
    const task = await taskPolicyLayers({ file: taskFile, sha256: sha256("policy: [p1.yaml]\n"), src, value: ["p1.yaml"] }, { isTrusted: () => false })
    expect(task.map((l) => [l.name, l.file])).toEqual([["task", join(repo, "p1.yaml")]])
    expect((await loadPolicy(opts({ task }))).policy.limits.max_steps).toBe(7)
  })

  test("a malformed workspace policy fails closed", async () => {
    mkdirSync(join(repo, ".ccode"))
    writeFileSync(join(repo, ".ccode", "policy.yaml"), "rules:\n  - decision: allow\n")
    expect(loadPolicy(opts())).rejects.toThrow(`${join(repo, ".ccode", "policy.yaml")}:2:5: rule 1 names neither a tool`)
  })
})

describe("cache", () => {
  test("a parsed file is cached by content and reused; a corrupt entry is parsed again", async () => {
    const cacheDir = join(root, "cache")
    mkdirSync(join(repo, ".ccode"))
    writeFileSync(join(repo, ".ccode", "policy.yaml"), "rules: [{ id: r, command: 'curl *', decision: deny }]\n")
    const first = await loadPolicy(opts({ cacheDir }))
    const entries = readdirSync(join(cacheDir, "policy"))
    expect(entries).toHaveLength(1)
    const second = await loadPolicy(opts({ cacheDir }))
    expect(second.policy).toEqual(first.policy)
    writeFileSync(join(cacheDir, "policy", entries[0]!), "{not json")
    expect((await loadPolicy(opts({ cacheDir }))).policy).toEqual(first.policy)
    writeFileSync(join(repo, ".ccode", "policy.yaml"), "rules: [{ id: r2, command: 'wget *', decision: deny }]\n")
    expect((await loadPolicy(opts({ cacheDir }))).policy.rules.map((r) => r.id)).toContain("r2")
  })
})
