// The managed layer: an organisation's policy that user, workspace, task, env and flag layers may only
// tighten; signed managed.d files and (when required) signed workspace files; the policy fingerprint.
import { afterEach, beforeEach, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { decide } from "../../core/policy/decide.ts"
import { envLayer, flagsLayer } from "../../core/policy/env.ts"
import { loadPolicy, type LoadOptions } from "../../core/policy/load.ts"
import { managedDir } from "../../core/policy/managed.ts"
import { generateKeyPair, parsePrivateKey, signContent } from "../../core/policy/signature.ts"
import { ConfigError } from "../../core/base/yaml.ts"
import { layer, policyOf, shellCall, toolCall } from "./helpers.ts"

const MANAGED = "/etc/ccode/managed.yaml"
const managed = (yaml: string) => layer(yaml, { name: "managed", file: MANAGED })
const user = (yaml: string) => layer(yaml, { name: "user", file: "/home/dev/.config/ccode/policy.yaml" })
const trustedRepo = (yaml: string) => layer(yaml, { name: "workspace", trusted: true })

describe("merge: a managed value may only be tightened", () => {
  test("a managed deny beats a trusted workspace allow, yolo and --yes", async () => {
    const org = await managed(`rules:\n  - { id: no-curl, tool: shell, command: "curl *", decision: deny }\n`)
    const repo = await trustedRepo(`approval: { mode: yolo }\nrules:\n  - { id: curl-ok, tool: shell, command: "curl *", decision: allow }\n`)
    const yes = (await flagsLayer({ yes: true })).layer!
    const policy = await policyOf(org, repo, yes)
    const d = decide(policy, await shellCall("curl https://example.com"), { grants: [] })
    expect(d.decision).toBe("deny")
    expect(d.reason).toContain("no-curl")
    expect(d.reason).toContain(`${MANAGED}:2`)
  })

  test("approval.mode from a trusted user, the env and --yes is ignored, naming the managed source", async () => {
    const org = await managed("approval:\n  mode: manual\n")
    const env = (await envLayer({ CCODE_AUTO_APPROVE: "1" })).layer!
    const yes = (await flagsLayer({ yes: true })).layer!
    const policy = await policyOf(org, await user("approval: { mode: yolo }\n"), env, yes)
    expect(policy.approval.mode).toBe("manual")
    expect(policy.sources["approval.mode"]).toBe(`${MANAGED}:2`)
    expect(policy.locked?.["approval.mode"]).toBe(`${MANAGED}:2`)
    const lines = policy.ignored.filter((l) => l.includes(`managed policy (${MANAGED}:2)`))
    expect(lines.map((l) => l.split(":")[0])).toEqual(["/home/dev/.config/ccode/policy.yaml", "env", "flag"])
    // --yes also raised the threshold; the managed policy did not set one, so that stands
    expect(policy.approval.threshold).toBe("high")
    expect(decide(policy, await shellCall("ls"), { grants: [] }).decision).toBe("ask")
  })

  test("a managed threshold is a maximum: higher ones and yolo are ignored, lower ones apply", async () => {
    const org = await managed("approval:\n  mode: auto\n  threshold: medium\n")
    const loose = await policyOf(org, await user("approval: { mode: yolo, threshold: high }\n"), (await flagsLayer({ autoApprove: "high" })).layer!)
    expect(loose.approval).toMatchObject({ mode: "auto", threshold: "medium" })
    expect(loose.ignored.some((l) => l.includes("approval.mode: yolo ignored") && l.includes(MANAGED))).toBe(true)
    expect(loose.ignored.some((l) => l.startsWith("flag:--auto-approve: approval.threshold: high ignored"))).toBe(true)
    const allowlist = await policyOf(org, await user("approval: { mode: allowlist, tools: [shell, write_file] }\n"))
    expect(allowlist.approval.mode).toBe("auto")
    // a write outside the workspace is high risk: above the managed threshold, so a person is asked
    const outside = decide(allowlist, await toolCall("write_file", { path: "/opt/x.txt", content: "" }), { grants: [] })
    expect(outside).toMatchObject({ risk: "high", decision: "ask" })
    const tight = await policyOf(org, await trustedRepo("approval: { threshold: low }\n"))
    expect(tight.approval.threshold).toBe("low")
    expect(tight.locked?.["approval.threshold"]).toBe(`${MANAGED}:3`)
  })

  test("limits: a higher value from any layer is ignored, a lower one applies; a per-tool timeout cannot exceed a managed tool_timeout", async () => {
    const org = await managed("limits:\n  max_steps: 10\n  tool_timeout: 30s\n")
    const env = (await envLayer({ CCODE_MAX_STEPS: "500" })).layer!
    const policy = await policyOf(org, await user("limits: { max_steps: 50, tool_timeouts: { shell: 10m }, max_tool_timeout: 1h }\n"), env)
    expect(policy.limits.max_tool_timeout ?? 0).toBeLessThanOrEqual(30_000)
    expect(policy.ignored.some((l) => l.includes("limits.max_tool_timeout: 3600000 ignored"))).toBe(true)
    expect(policy.limits.max_steps).toBe(10)
    expect(policy.limits.tool_timeouts.shell).not.toBe(600_000)
    expect(policy.ignored.some((l) => l.startsWith("env:CCODE_MAX_STEPS: limits.max_steps: 500 ignored"))).toBe(true)
    expect(policy.ignored.some((l) => l.includes("limits.tool_timeouts.shell: 600000 ignored"))).toBe(true)
    const lower = await policyOf(org, (await flagsLayer({ maxSteps: 4 })).layer!)
    expect(lower.limits.max_steps).toBe(4)
  })

  test("risk, protected paths, redaction, allowlist tools and MCP servers stay as strict as the managed policy", async () => {
    const org = await managed([
      "risk:", "  tools: { shell: high }", "  paths: [{ path: 'secrets/**', level: critical }]",
      "workspace: { protected: ['deploy/**'] }", "redaction: { enabled: true }",
      "approval: { mode: allowlist, tools: [read_file] }", "mcp: { servers: { corp: { command: corp-mcp } } }", "",
    ].join("\n"))
    const mine = await user([
      "risk:", "  tools: { shell: low }", "  paths: [{ path: 'secrets/**', level: low }]",
      "workspace: { protected: [] }", "redaction: { enabled: false }",
      "approval: { tools: [read_file, shell] }", "mcp: { servers: { corp: { command: my-own-mcp } } }", "",
    ].join("\n"))
    const policy = await policyOf(org, mine)
    expect(policy.risk.tools.shell).toBe("high")
    expect(policy.risk.paths.find((p) => p.path === "secrets/**")?.level).toBe("critical")
    expect(policy.workspace.protected).toContain("deploy/**")
    expect(policy.redaction.enabled).toBe(true)
    expect(policy.approval.tools).toEqual(["read_file"])
    expect(policy.mcp.servers.corp?.command).toBe("corp-mcp")
    expect(decide(policy, await toolCall("write_file", { path: "deploy/x", content: "" }, "medium"), { grants: [] }).risk).toBe("critical")
    expect(policy.ignored.filter((l) => l.includes("managed policy")).length).toBe(5)
  })

  test("sandbox: a managed `mode: required` cannot be lowered, nor the sandbox widened with writable paths", async () => {
    const org = await managed("sandbox:\n  mode: required\n  network: none\n")
    const mine = await user("sandbox: { mode: off, network: allow, writable: [/opt/cache], hidden: [/srv/keys] }\n")
    const policy = await policyOf(org, mine)
    expect(policy.sandbox.mode).toBe("required")
    expect(policy.sandbox.network).toBe("none")
    expect(policy.sandbox.writable).not.toContain("/opt/cache")
    expect(policy.sandbox.hidden).toContain("/srv/keys")
    expect(policy.ignored.filter((l) => l.includes(`managed policy (${MANAGED}:`)).map((l) => l.split(": ")[1])).toEqual(["sandbox.mode", "sandbox.network", "sandbox.writable"])
    // without a managed sandbox a trusted user may still add a writable path
    expect((await policyOf(mine)).sandbox.writable).toContain("/opt/cache")
  })

  test("a managed extends is final; the managed layer is merged first wherever it sits in the list", async () => {
    const org = await managed("extends: strict\napproval: { mode: manual }\n")
    const policy = await policyOf(await user("extends: none\napproval: { mode: auto }\n"), org)
    expect(policy.extends).toBe("strict")
    expect(policy.approval.mode).toBe("manual")
    expect(policy.ignored.some((l) => l.includes("extends: none ignored") && l.includes(MANAGED))).toBe(true)
    // strict is the strictest base: asking for it tightens, even over a managed `extends: default`
    const stricter = await policyOf(await managed("extends: default\n"), await layer("extends: strict\n", { trusted: false }))
    expect(stricter.extends).toBe("strict")
  })

  test("CCODE_REDACT=0 cannot switch off redaction the managed policy turned on", async () => {
    const env = (await envLayer({ CCODE_REDACT: "0" })).layer!
    const policy = await policyOf(await managed("redaction: { enabled: true }\n"), env)
    expect(policy.redaction.enabled).toBe(true)
    expect(policy.ignored).toEqual([`env:CCODE_REDACT: redaction.enabled: false ignored: locked by the managed policy (${MANAGED}:1); other layers may only tighten it`])
    expect((await policyOf(env)).redaction.enabled).toBe(false)
  })

  test("two managed layers: the later one may set what the earlier set; none of it is reported", async () => {
    const policy = await policyOf(await managed("limits: { max_steps: 10 }\n"), await layer("limits: { max_steps: 30 }\n", { name: "managed", file: "/etc/ccode/managed.d/a.yaml" }))
    expect(policy.limits.max_steps).toBe(30)
    expect(policy.ignored).toEqual([])
  })
})

describe("loading managed policies from disk", () => {
  let root: string
  let dir: string
  let repo: string
  const key = generateKeyPair()
  const other = generateKeyPair()
  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-managed-")))
    dir = join(root, "etc")
    repo = join(root, "repo")
    mkdirSync(join(dir, "managed.d"), { recursive: true })
    mkdirSync(join(repo, ".ccode"), { recursive: true })
    writeFileSync(join(dir, "managed.yaml"), `trusted_keys:\n  - ${key.publicKey.text}\napproval: { mode: manual }\n`)
  })
  afterEach(() => rmSync(root, { recursive: true, force: true }))

  const opts = (extra: Partial<LoadOptions> = {}): LoadOptions => ({
    cwd: repo, home: join(root, "home"), env: {}, isTrusted: () => false, managedDir: dir, ...extra,
  })
  const signed = (file: string, text: string, pair = key) => {
    writeFileSync(file, text)
    const k = parsePrivateKey(pair.privatePem)
    writeFileSync(`${file}.sig`, signContent(Buffer.from(text), k.key, k.publicKey.id))
  }
  const refusal = async (o: LoadOptions) => {
    const err = await loadPolicy(o).then(() => undefined, (e: unknown) => e)
    expect(err).toBeInstanceOf(ConfigError)
    return (err as Error).message
  }

  test("a signed managed.d file loads, and its key id is in the fingerprint's stamp", async () => {
    signed(join(dir, "managed.d", "10-org.yaml"), "limits: { max_steps: 7 }\n")
    const { policy } = await loadPolicy(opts())
    expect(policy.limits.max_steps).toBe(7)
    expect(policy.approval.mode).toBe("manual")
    expect(policy.managed_keys).toEqual([key.publicKey.id])
    expect(policy.fingerprint).toMatch(/^[0-9a-f]{16}$/)
  })

  test("an edited signed file is refused, naming the file and the key id", async () => {
    const file = join(dir, "managed.d", "10-org.yaml")
    signed(file, "limits: { max_steps: 7 }\n")
    writeFileSync(file, "limits: { max_steps: 700 }\n")
    const message = await refusal(opts())
    expect(message).toContain(file)
    expect(message).toContain(key.publicKey.id)
    expect(message).toContain("does not verify")
  })

  test("a file signed by a key that is not pinned is refused, naming that key", async () => {
    const file = join(dir, "managed.d", "10-org.yaml")
    signed(file, "limits: { max_steps: 7 }\n", other)
    const message = await refusal(opts())
    expect(message).toContain(file)
    expect(message).toContain(`key ${other.publicKey.id}, which is not pinned`)
  })

  test("an unsigned managed.d file, or a signature copied from another file, is refused", async () => {
    const file = join(dir, "managed.d", "10-org.yaml")
    writeFileSync(file, "limits: { max_steps: 7 }\n")
    expect(await refusal(opts())).toContain("not signed")
    signed(join(root, "decoy.yaml"), "limits: { max_steps: 3 }\n")
    writeFileSync(`${file}.sig`, await Bun.file(join(root, "decoy.yaml.sig")).text())
    expect(await refusal(opts())).toContain("does not verify")
  })

  test("a parse-cache entry (the user's own files) cannot replace what a signature vouched for", async () => {
    const { writeCachedLayer } = await import("../../core/policy/cache.ts")
    const { sha256 } = await import("../../core/base/hash.ts")
    const file = join(dir, "managed.d", "10-org.yaml")
    const text = "limits: { max_steps: 7 }\n"
    signed(file, text)
    const cacheDir = join(root, "cache")
    writeCachedLayer(cacheDir, { name: "managed", label: file, trusted: true, file, sha256: sha256(text), value: { limits: { max_steps: 900 } }, at: {} })
    expect((await loadPolicy(opts({ cacheDir }))).policy.limits.max_steps).toBe(7)
  })

  test("a managed.yaml (or its folder) that other users can write is refused", async () => {
    const { chmodSync } = await import("node:fs")
    chmodSync(join(dir, "managed.yaml"), 0o666)
    expect(await refusal(opts())).toContain("is writable by other users")
    chmodSync(join(dir, "managed.yaml"), 0o644)
    chmodSync(dir, 0o777)
    expect(await refusal(opts())).toContain(`${dir} is writable by other users`)
    chmodSync(dir, 0o755)
    expect((await loadPolicy(opts())).policy.approval.mode).toBe("manual")
  })

  test("a malformed pinned key is a configuration error at its line", async () => {
    writeFileSync(join(dir, "managed.yaml"), "trusted_keys:\n  - ed25519:short\n")
    const message = await refusal(opts())
    expect(message).toContain(`${join(dir, "managed.yaml")}:2:`)
  })

  test("policy.require_signed: an unsigned workspace file is refused, a signed one is trusted", async () => {
    writeFileSync(join(dir, "managed.yaml"), `trusted_keys: ['${key.publicKey.text}']\npolicy: { require_signed: true }\n`)
    const ws = join(repo, ".ccode", "policy.yaml")
    writeFileSync(ws, "rules:\n  - { id: tests-ok, tool: shell, command: 'bun test *', decision: allow }\n")
    expect(await refusal(opts())).toContain(ws)
    signed(ws, "rules:\n  - { id: tests-ok, tool: shell, command: 'bun test *', decision: allow }\n")
    const { policy, untrusted } = await loadPolicy(opts())
    expect(untrusted).toEqual([])
    expect(policy.rules.find((r) => r.id === "tests-ok")?.trusted).toBe(true)
  })

  test("CCODE_MANAGED_DIR cannot replace a managed policy installed in the system directory", () => {
    expect(managedDir({ CCODE_MANAGED_DIR: "/elsewhere" }, join(root, "none"))).toBe("/elsewhere")
    expect(managedDir({ CCODE_MANAGED_DIR: "/elsewhere" }, dir)).toBe(dir)
    expect(managedDir({}, dir)).toBe(dir)
  })

  test("the fingerprint changes with the policy and not with the machine it is computed on", async () => {
    const a = (await loadPolicy(opts())).policy.fingerprint
    expect((await loadPolicy(opts())).policy.fingerprint).toBe(a)
    writeFileSync(join(dir, "managed.yaml"), `trusted_keys:\n  - ${key.publicKey.text}\napproval: { mode: auto }\n`)
    expect((await loadPolicy(opts())).policy.fingerprint).not.toBe(a)
  })
})
