// A malformed policy fails closed: exit 2 with file:line:col and the reason, never "no rules".
import { describe, expect, test } from "bun:test"
import { parsePolicy } from "../../core/policy/parse.ts"
import { ConfigError } from "../../core/base/yaml.ts"

const FILE = "/repo/.ccode/policy.yaml"

async function problem(yaml: string): Promise<string> {
  try {
    await parsePolicy(yaml, FILE, { name: "workspace", trusted: true })
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError)
    return (err as Error).message
  }
  throw new Error("expected the policy to be rejected")
}

describe("a bad policy file is rejected with file:line:col", () => {
  test("malformed YAML", async () => {
    expect(await problem("rules:\n  - id: x\n    decision: [deny\n")).toMatch(/^\/repo\/\.ccode\/policy\.yaml:\d+:\d+: invalid YAML/)
  })

  test("an unknown key, at the key", async () => {
    expect(await problem("approval:\n  mode: auto\n  treshold: low\n")).toBe(`${FILE}:3:3: unknown key "treshold" in approval`)
  })

  test("an unknown risk level", async () => {
    expect(await problem("approval:\n  threshold: extreme\n")).toMatch(new RegExp(`^${FILE}:2:\\d+: approval.threshold: expected one of "safe", "low", "medium", "high", "critical"`))
  })

  test("a rule that names no tool and no matcher", async () => {
    expect(await problem("rules:\n  - id: vague\n    decision: deny\n")).toBe(`${FILE}:2:5: rule "vague" names neither a tool nor a command, path or args to match`)
  })

  test("a command pattern on a tool that is not the shell", async () => {
    expect(await problem("rules:\n  - tool: write_file\n    command: 'rm *'\n    decision: deny\n")).toContain(`${FILE}:3:5: rule 1: command patterns only match the shell tool`)
  })

  test("an invalid regex", async () => {
    expect(await problem("risk:\n  commands:\n    - regex: 'curl (|'\n      level: high\n")).toMatch(new RegExp(`^${FILE}:3:\\d+: risk.commands\\[0\\].regex: invalid regular expression`))
  })

  test("a regex with catastrophic backtracking", async () => {
    const msg = await problem("rules:\n  - tool: http_request\n    args: { url: '^(a+)+$' }\n    decision: deny\n")
    expect(msg).toMatch(new RegExp(`^${FILE}:3:\\d+: rules\\[0\\].args.url: nested quantifier`))
    expect(await problem("redaction:\n  patterns: [{ id: t, regex: '(\\w*)*x' }]\n")).toContain("nested quantifier")
  })

  test("an example that its own rule does not match names the rule and the example", async () => {
    const msg = await problem(`
rules:
  - id: no-force-push
    command: "git push --force *"
    decision: deny
    examples:
      match: ["git push --force origin main", "git push origin main --force-with-lease"]
`)
    expect(msg).toBe(`${FILE}:7:47: rule "no-force-push": example "git push origin main --force-with-lease" should match but does not`)
  })

  test("a no_match example that matches", async () => {
    const msg = await problem(`
risk:
  commands:
    - id: curl-pipe
      regex: 'curl.*\\|'
      level: critical
      examples: { no_match: ["curl x | jq ."] }
`)
    expect(msg).toContain(`risk command "curl-pipe": example "curl x | jq ." should not match but does`)
  })
})

describe("a good policy file", () => {
  test("keeps file:line for every value", async () => {
    const layer = await parsePolicy("approval:\n  threshold: medium\nrules:\n  - id: a\n    tool: grep\n    decision: allow\n", FILE, { name: "workspace", trusted: false })
    expect(layer.at["approval.threshold"]).toBe(`${FILE}:2`)
    expect(layer.at["rules.0"]).toBe(`${FILE}:4`)
    expect(layer.trusted).toBe(false)
  })

  test("proves examples of path, args and tool-only rules", async () => {
    const layer = await parsePolicy(`
rules:
  - id: no-prod
    tool: write_file
    path: "infra/prod/**"
    decision: deny
    examples: { match: ["infra/prod/main.tf", "infra/prod"], no_match: ["infra/dev/main.tf"] }
  - id: api
    tool: http_request
    args: { url: '^https://api\\.example\\.com/' }
    decision: allow
    examples: { match: ["https://api.example.com/v1"], no_match: ["http://api.example.com/"] }
  - id: mcp-ro
    tool: "mcp:docs/*"
    decision: allow
    examples: { match: ["mcp:docs/search"], no_match: ["mcp:github/search"] }
  - id: json-example
    tool: [write_file, edit_file]
    path: "~/.config/**"
    decision: ask
    examples: { match: ['{"tool": "edit_file", "args": {"path": "~/.config/x"}}'], no_match: ['{"tool": "read_file", "args": {"path": "~/.config/x"}}'] }
`, FILE, { name: "workspace", trusted: true })
    expect(layer.value.rules).toHaveLength(4)
  })
})
