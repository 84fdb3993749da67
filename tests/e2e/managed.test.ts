// Managed policies through the compiled binary: an organisation's deny that no trusted repo, --yes,
// yolo or env can undo; signed managed.d files (edited or signed by an unpinned key: refused, exit 2);
// `policy show` marking managed values; the policy fingerprint in decision events and audit rows.
import { Database } from "bun:sqlite"
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { ccode, events, sandbox, type Sandbox } from "./harness.ts"

let sb: Sandbox
let managed: string
let env: Record<string, string>
let keyId: string

async function keygen(out: string): Promise<{ key_id: string; public_key: string }> {
  const r = await ccode(sb, ["policy", "keygen", "--json", "--out", out])
  expect(r.code).toBe(0)
  return JSON.parse(r.stdout)
}

beforeAll(async () => {
  sb = sandbox()
  managed = join(sb.root, "etc-ccode")
  env = { CCODE_MANAGED_DIR: managed }
  mkdirSync(join(managed, "managed.d"), { recursive: true })
  const key = await keygen(join(sb.root, "org.key"))
  keyId = key.key_id
  writeFileSync(join(managed, "managed.yaml"), [
    "trusted_keys:", `  - ${key.public_key}`,
    "rules:", "  - id: no-forbidden", "    tool: shell", "    command: 'touch forbidden*'", "    decision: deny", "    reason: the organisation forbids it", "",
  ].join("\n"))
  writeFileSync(join(managed, "managed.d", "10-limits.yaml"), "limits:\n  max_steps: 9\n")
  const signed = await ccode(sb, ["policy", "sign", join(managed, "managed.d", "10-limits.yaml"), "--key", join(sb.root, "org.key")])
  expect(signed.code).toBe(0)
  expect(signed.stdout).toContain(keyId)
  // a repository that allows exactly what the organisation forbids, in yolo mode, and is trusted
  sb.file(".ccode/policy.yaml", "approval:\n  mode: yolo\nrules:\n  - id: touch-ok\n    tool: shell\n    command: 'touch *'\n    decision: allow\n")
  sb.file("task.yaml", "version: 1\nname: forbidden\nsteps:\n  - id: make\n    run: touch forbidden.txt\n")
  expect((await ccode(sb, ["trust"], { env })).code).toBe(0)
})
afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

describe("keys and signatures", () => {
  test("keygen writes a 0600 private key, a public key to pin, and prints the key id", () => {
    expect(statSync(join(sb.root, "org.key")).mode & 0o777).toBe(0o600)
    expect(readFileSync(join(sb.root, "org.key.pub"), "utf8")).toMatch(/^ed25519:[A-Za-z0-9_-]{43}\n$/)
    expect(keyId).toMatch(/^[0-9a-f]{16}$/)
  })

  test("keygen refuses to overwrite a key", async () => {
    const r = await ccode(sb, ["policy", "keygen", "--out", join(sb.root, "org.key")])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("exists")
  })
})

describe("a managed deny", () => {
  for (const [name, args, extra] of [
    ["a trusted workspace allow in yolo mode", [], {}],
    ["--yes", ["--yes"], {}],
    ["--auto-approve high", ["--auto-approve", "high"], {}],
    ["CCODE_AUTO_APPROVE=1", [], { CCODE_AUTO_APPROVE: "1", CCODE_AUTO_APPROVE_THRESHOLD: "high" }],
    ["--policy with an allow rule", ["--policy", "allow.yaml"], {}],
  ] as const) {
    test(`is not overridden by ${name}`, async () => {
      sb.file("allow.yaml", "approval: { mode: yolo }\nrules:\n  - { id: flag-allow, tool: shell, command: 'touch *', decision: allow }\n")
      const r = await ccode(sb, ["run", "task.yaml", "--non-interactive", "--json", ...args], { env: { ...env, ...extra } })
      expect(r.code).toBe(5)
      expect(existsSync(join(sb.work, "forbidden.txt"))).toBe(false)
      const decision = events(r.stdout).find((e) => e.type === "decision")!
      expect(decision.decision).toBe("deny")
      expect(String(decision.reason)).toContain(`no-forbidden (${join(managed, "managed.yaml")}:4)`)
      expect(decision.policy_fingerprint).toMatch(/^[0-9a-f]{16}$/)
      expect(decision.managed_keys).toEqual([keyId])
    })
  }

  test("policy check says the same, whatever the flags", async () => {
    const r = await ccode(sb, ["policy", "check", "--json", "--policy", "allow.yaml", "--", "touch", "forbidden.txt"], { env: { ...env, CCODE_AUTO_APPROVE: "1" } })
    expect(r.code).toBe(0)
    const d = JSON.parse(r.stdout)
    expect(d.decision).toBe("deny")
    expect(d.rules.map((x: { id: string }) => x.id)).toContain("no-forbidden")
  })

  test("a managed limit is not raised by the env; the attempt is reported with the managed source", async () => {
    const r = await ccode(sb, ["policy", "show", "--json"], { env: { ...env, CCODE_MAX_STEPS: "500" } })
    expect(r.code).toBe(0)
    const shown = JSON.parse(r.stdout)
    expect(shown.limits.max_steps).toBe(9)
    expect(shown.warnings.join("\n")).toContain(`env:CCODE_MAX_STEPS: limits.max_steps: 500 ignored: locked by the managed policy (${join(managed, "managed.d", "10-limits.yaml")}:2)`)
  })
})

describe("policy show", () => {
  test("marks managed values and rules with their source (text and --json)", async () => {
    const text = await ccode(sb, ["policy", "show"], { env })
    expect(text.code).toBe(0)
    expect(text.stdout).toMatch(new RegExp(`max_steps: 9 +# ${join(managed, "managed.d", "10-limits.yaml")}:2 \\(managed\\)`))
    expect(text.stdout).toContain(`no-forbidden  # ${join(managed, "managed.yaml")}:4 (managed)`)
    expect(text.stdout).toMatch(new RegExp(`# fingerprint [0-9a-f]{16}; managed policy signed by key ${keyId}`))
    const json = JSON.parse((await ccode(sb, ["policy", "show", "--json"], { env })).stdout)
    expect(json.locked["limits.max_steps"]).toBe(`${join(managed, "managed.d", "10-limits.yaml")}:2`)
    expect(json.rules.find((r: { id: string }) => r.id === "no-forbidden").layer).toBe("managed")
    expect(json.managed_keys).toEqual([keyId])
    expect(json.fingerprint).toMatch(/^[0-9a-f]{16}$/)
  })
})

describe("signed managed.d files", () => {
  const file = () => join(managed, "managed.d", "10-limits.yaml")

  test("an edited signed file is refused: exit 2 naming the file and the key id, nothing run", async () => {
    const original = readFileSync(file(), "utf8")
    try {
      writeFileSync(file(), "limits:\n  max_steps: 900\n")
      for (const args of [["policy", "show"], ["run", "task.yaml", "--non-interactive"]]) {
        const r = await ccode(sb, args, { env })
        expect(r.code).toBe(2)
        expect(r.stderr).toContain(file())
        expect(r.stderr).toContain(keyId)
      }
    } finally {
      writeFileSync(file(), original)
    }
    expect((await ccode(sb, ["policy", "show"], { env })).code).toBe(0)
  })

  test("a file signed by a key that is not pinned is refused", async () => {
    const stranger = await keygen(join(sb.root, "stranger.key"))
    const extra = join(managed, "managed.d", "20-loose.yaml")
    writeFileSync(extra, "limits:\n  max_steps: 900\n")
    try {
      expect((await ccode(sb, ["policy", "sign", extra, "--key", join(sb.root, "stranger.key")])).code).toBe(0)
      const r = await ccode(sb, ["policy", "show"], { env })
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(extra)
      expect(r.stderr).toContain(`key ${stranger.key_id}, which is not pinned`)
    } finally {
      rmSync(extra)
      rmSync(`${extra}.sig`)
    }
  })

  test("sign refuses a policy that would not load (exit 2, no .sig written)", async () => {
    const bad = join(sb.root, "bad.yaml")
    writeFileSync(bad, "limits:\n  max_stepz: 3\n")
    const r = await ccode(sb, ["policy", "sign", bad, "--key", join(sb.root, "org.key")])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${bad}:2`)
    expect(existsSync(`${bad}.sig`)).toBe(false)
  })
})

describe("hook mode", () => {
  test("a managed deny holds in `ccode hook claude` with CCODE_AUTO_APPROVE and CCODE_REDACT=0; the row is redacted and stamped", async () => {
    const original = readFileSync(join(managed, "managed.yaml"), "utf8")
    writeFileSync(join(managed, "managed.yaml"), `${original}redaction:\n  enabled: true\n`)
    const secret = `ghp_${"a1B2c3D4e5".repeat(4)}`
    const stdin = JSON.stringify({ session_id: "s1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: `touch forbidden-${secret}` }, cwd: sb.work })
    try {
      const r = await ccode(sb, ["hook", "claude"], { stdin, env: { ...env, CCODE_AUTO_APPROVE: "1", CCODE_REDACT: "0" } })
      expect(r.code).toBe(0)
      expect(JSON.parse(r.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: "deny" })
    } finally {
      writeFileSync(join(managed, "managed.yaml"), original)
    }
    // the row as stored (not through `audit`, which redacts its exports again)
    const db = new Database(sb.db, { readonly: true })
    const row = db.query("SELECT action, data FROM audit WHERE type = 'decision' AND actor = 'hook' ORDER BY id DESC LIMIT 1").get() as { action: string; data: string }
    db.close()
    expect(row.action).toContain("forbidden-")
    expect(`${row.action}${row.data}`).not.toContain(secret)
    expect(JSON.parse(row.data).policy_fingerprint).toMatch(/^[0-9a-f]{16}$/)
  })
})

describe("the audit names the policy that decided", () => {
  test("decision rows carry the fingerprint; --policy-fingerprint finds them", async () => {
    const show = JSON.parse((await ccode(sb, ["policy", "show", "--json"], { env })).stdout)
    const rows = JSON.parse((await ccode(sb, ["audit", "--json", "--type", "decision"])).stdout) as { data: Record<string, unknown>; result: string }[]
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(row.data.policy_fingerprint).toMatch(/^[0-9a-f]{16}$/)
      expect(row.data.managed_keys).toEqual([keyId])
    }
    // the plain runs (no extra flags) had exactly the policy `policy show` reports
    const mine = await ccode(sb, ["audit", "--json", "--type", "decision", "--policy-fingerprint", show.fingerprint.slice(0, 8)])
    expect(mine.code).toBe(0)
    const found = JSON.parse(mine.stdout) as { data: Record<string, unknown>; result: string }[]
    expect(found.length).toBeGreaterThan(0)
    // the runs with --yes, --policy or CCODE_AUTO_APPROVE had other policies: other fingerprints
    expect(found.length).toBeLessThan(rows.length)
    expect(found.every((r) => r.data.policy_fingerprint === show.fingerprint && r.result === "denied")).toBe(true)
    const bad = await ccode(sb, ["audit", "--policy-fingerprint", "xyz"])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("--policy-fingerprint")
  })
})
