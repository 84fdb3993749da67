// Trust: repository policy layers only restrict until `ccode trust` records their content hash.
import { afterEach, beforeEach, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadPolicy, type IsTrusted } from "../../core/policy/load.ts"
import { sha256 } from "../../core/base/hash.ts"
import { decide } from "../../core/policy/decide.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import type { Policy } from "../../core/policy/types.ts"

let root: string
let repo: string
let home: string
let trusted: Map<string, string>
const isTrusted: IsTrusted = (file, hash) => trusted.get(file) === hash

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-trust-")))
  repo = join(root, "repo")
  home = join(root, "home")
  mkdirSync(join(repo, ".ccode"), { recursive: true })
  mkdirSync(home)
  trusted = new Map()
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const REPO_POLICY = `
approval: { mode: auto, threshold: high }
rules:
  - id: pushes-ok
    command: "git push *"
    decision: allow
  - id: never-publish
    command: "npm publish *"
    decision: deny
limits: { max_steps: 500, max_tool_calls: 10 }
`

function writePolicy(text: string): string {
  const file = join(repo, ".ccode", "policy.yaml")
  writeFileSync(file, text)
  return file
}

function trust(file: string, text: string): void {
  trusted.set(file, sha256(text))
}

async function load(extra: { trustAll?: boolean; env?: Record<string, string> } = {}) {
  return loadPolicy({ cwd: repo, home, env: { XDG_CONFIG_HOME: join(home, ".config"), ...extra.env }, isTrusted, trustAll: extra.trustAll })
}

async function decision(policy: Policy, command: string) {
  const call = await prepareCall("shell", { command }, { cwd: repo, workspace: repo, home, realpath: (p) => p })
  return decide(policy, call, { grants: [] })
}

describe("an untrusted repository policy", () => {
  test("cannot allow git push or raise the threshold or limits, but can deny npm publish and lower limits", async () => {
    writePolicy(REPO_POLICY)
    const { policy, warnings, untrusted } = await load()
    expect(untrusted).toEqual([join(repo, ".ccode", "policy.yaml")])
    expect(policy.approval.threshold).toBe("low")
    expect(policy.rules.map((r) => r.id)).not.toContain("pushes-ok")
    expect((await decision(policy, "git push origin main")).decision).toBe("ask")
    expect((await decision(policy, "npm publish")).decision).toBe("deny")
    expect(policy.limits.max_steps).toBe(20)
    expect(policy.limits.max_tool_calls).toBe(10)
    expect(warnings.some((w) => w.includes("allow rule pushes-ok ignored"))).toBe(true)
    expect(warnings.some((w) => w.includes("approval.threshold: high ignored"))).toBe(true)
    expect(warnings.some((w) => w.includes("limits.max_steps: 500 ignored"))).toBe(true)
    // each ignored grant is reported once, with the file and line it sits on
    expect(new Set(warnings).size).toBe(warnings.length)
    expect(warnings.find((w) => w.includes("pushes-ok"))).toContain(`${join(repo, ".ccode", "policy.yaml")}:4`)
  })

  test("after ccode trust its grants apply; after an edit they are ignored again", async () => {
    const file = writePolicy(REPO_POLICY)
    trust(file, REPO_POLICY)
    const trustedLoad = await load()
    expect(trustedLoad.untrusted).toEqual([])
    expect(trustedLoad.warnings).toEqual([])
    expect(trustedLoad.policy.approval.threshold).toBe("high")
    expect((await decision(trustedLoad.policy, "git push origin main")).decision).toBe("allow")
    expect(trustedLoad.policy.limits.max_steps).toBe(500)

    writePolicy(REPO_POLICY + "\n# a harmless-looking edit\n")
    const edited = await load()
    expect(edited.untrusted).toHaveLength(1)
    expect((await decision(edited.policy, "git push origin main")).decision).toBe("ask")
    expect(edited.policy.approval.threshold).toBe("low")
  })

  test("--trust trusts it for one run", async () => {
    writePolicy(REPO_POLICY)
    const { policy, untrusted } = await load({ trustAll: true })
    expect(untrusted).toEqual([])
    expect((await decision(policy, "git push origin main")).decision).toBe("allow")
  })

  test("a deny in any layer beats an allow in any other", async () => {
    mkdirSync(join(home, ".config", "ccode"), { recursive: true })
    writeFileSync(join(home, ".config", "ccode", "policy.yaml"), "rules: [{ id: user-allows-publish, command: 'npm publish *', decision: allow }]")
    writePolicy("rules: [{ id: repo-denies-publish, command: 'npm publish *', decision: deny }]")
    const { policy } = await load()
    const d = await decision(policy, "npm publish")
    expect(d.decision).toBe("deny")
    expect(d.rules.map((r) => r.id)).toEqual(["user-allows-publish", "repo-denies-publish"])

    writeFileSync(join(home, ".config", "ccode", "policy.yaml"), "rules: [{ id: user-denies-push, command: 'git push *', decision: deny }]")
    const text = "rules: [{ id: repo-allows-push, command: 'git push *', decision: allow }]"
    trust(writePolicy(text), text)
    expect((await decision((await load()).policy, "git push")).decision).toBe("deny")
  })

  test("may only pick the strict base, and may switch to manual approval", async () => {
    writePolicy("extends: none\napproval: { mode: yolo }")
    const loose = await load()
    expect(loose.policy.extends).toBe("default")
    expect(loose.policy.approval.mode).toBe("auto")
    expect(loose.warnings.join("\n")).toContain("extends: none ignored")
    expect(loose.warnings.join("\n")).toContain("approval.mode: yolo ignored")

    writePolicy("extends: strict")
    const strict = await load()
    expect(strict.policy.extends).toBe("strict")
    expect(strict.policy.approval.mode).toBe("manual")
  })

  test("may raise but not lower risk levels", async () => {
    writePolicy(`
risk:
  tools: { read_file: high, my_tool: low }
  paths: [{ path: ".env*", level: low }, { path: "secrets/**", level: critical }]
`)
    const { policy, warnings } = await load()
    expect(policy.risk.tools.read_file).toBe("high")
    expect(policy.risk.tool_floors).toEqual({ my_tool: "low" })
    expect(policy.risk.paths.find((p) => p.path === ".env*")!.level).toBe("high")
    expect(policy.risk.paths.find((p) => p.path === "secrets/**")!.level).toBe("critical")
    expect(warnings.join("\n")).toContain("risk.paths .env*: low ignored")
    const call = await prepareCall("my_tool", {}, { cwd: repo, workspace: repo, home, toolRisk: "high" })
    expect(decide(policy, call, { grants: [] }).risk).toBe("high")
  })
})
