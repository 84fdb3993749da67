// Rule `examples` are self-tests: each `match` must be matched by its own rule, each `no_match` must not.
// Shell rules: the example is a command. Other rules: a path, an argument value, a tool name, or JSON
// {"tool", "args", "paths"} (see docs/policy.md). No fs; shell analysis only.
import { expandHome } from "../base/paths.ts"
import { analyzeShell } from "../shell/index.ts"
import type { TouchedPath } from "../shell/types.ts"
import type { Call, PolicyRule } from "./types.ts"
import type { Layer } from "./layer.ts"
import type { Rule } from "./schema.ts"
import { compilePolicy } from "./compile.ts"
import { fallbackPolicy } from "./defaults.ts"
import { matchRules } from "./match.ts"
import { isGlob } from "./glob.ts"
import { compileRegex } from "./regex.ts"

export interface ExampleFailure {
  /** rule or risk command id (or its position when it has none) */
  rule: string
  example: string
  expected: "match" | "no_match"
  /** dotted key of the example in its layer ("rules.2.examples.match.0") */
  path: string
  problem: string
}

const WORKSPACE = "/workspace"
const HOME = "/home/user"

/** Every failing example of a layer's rules and risk commands (empty: all pass). */
export async function runExamples(value: Layer["value"]): Promise<ExampleFailure[]> {
  const failures: ExampleFailure[] = []
  for (const [i, rule] of (value.rules ?? []).entries()) {
    for (const expected of ["match", "no_match"] as const) {
      for (const [j, example] of (rule.examples?.[expected] ?? []).entries()) {
        const path = `rules.${i}.examples.${expected}.${j}`
        const id = rule.id ?? `rules[${i}]`
        try {
          const hit = await ruleMatchesExample(rule, example)
          if (hit !== (expected === "match")) {
            failures.push({ rule: id, example, expected, path, problem: describe("rule", id, example, expected) })
          }
        } catch (err) {
          failures.push({ rule: id, example, expected, path, problem: `rule "${id}": example "${example}": ${(err as Error).message}` })
        }
      }
    }
  }
  for (const [i, rc] of (value.risk?.commands ?? []).entries()) {
    const re = compileRegex(rc.regex)
    for (const expected of ["match", "no_match"] as const) {
      for (const [j, example] of (rc.examples?.[expected] ?? []).entries()) {
        const id = rc.id ?? `risk.commands[${i}]`
        if (re.test(example) !== (expected === "match")) {
          failures.push({
            rule: id, example, expected, path: `risk.commands.${i}.examples.${expected}.${j}`,
            problem: describe("risk command", id, example, expected),
          })
        }
      }
    }
  }
  return failures
}

export async function ruleMatchesExample(rule: Rule, example: string): Promise<boolean> {
  const policyRule: PolicyRule = { ...rule, id: rule.id ?? "example", source: "example", layer: "builtin", trusted: true }
  const policy = { ...fallbackPolicy(), rules: [policyRule] }
  const call = await exampleCall(rule, example)
  const outcome = matchRules(compilePolicy(policy), call, [])
  return rule.decision === "allow" ? outcome.covered && !outcome.grant : outcome.matched.length > 0
}

async function exampleCall(rule: Rule, example: string): Promise<Call> {
  const base = { cwd: WORKSPACE, workspace: WORKSPACE, home: HOME, tmpDirs: ["/tmp"] }
  if (rule.command !== undefined) {
    const shell = await analyzeShell(example, { cwd: WORKSPACE, workspace: WORKSPACE, home: HOME, env: {} })
    return { ...base, tool: "shell", args: { command: example }, shell, paths: shell.paths }
  }
  const tool = exampleTool(rule)
  const access = rule.access === "read" ? "read" : "write"
  if (example.trim().startsWith("{")) {
    const parsed = JSON.parse(example) as { tool?: string; args?: Record<string, unknown>; paths?: string[] }
    const args = parsed.args ?? {}
    const named = parsed.paths ?? (typeof args.path === "string" ? [args.path] : [])
    return { ...base, tool: parsed.tool ?? tool, args, paths: named.map((p) => touched(p, access)) }
  }
  if (rule.path !== undefined) return { ...base, tool, args: { path: example }, paths: [touched(example, access)] }
  const fields = Object.keys(rule.args ?? {})
  if (fields.length === 1) return { ...base, tool, args: { [fields[0]!]: example }, paths: [] }
  if (fields.length > 1) throw new Error(`a rule with several args needs JSON examples like {"args": {...}}`)
  return { ...base, tool: example, args: {}, paths: [] }
}

function exampleTool(rule: Rule): string {
  const tools = rule.tool === undefined ? [] : Array.isArray(rule.tool) ? rule.tool : [rule.tool]
  const literal = tools.find((t) => !isGlob(t))
  if (literal) return literal
  if (tools[0]) return tools[0].replace(/[*?]/g, "example").replace(/[[\]{}]/g, "")
  return rule.path !== undefined ? "write_file" : "example_tool"
}

function touched(path: string, access: "read" | "write"): TouchedPath {
  const abs = path.startsWith("/") ? path : path === "~" || path.startsWith("~/") ? expandHome(path, HOME) : `${WORKSPACE}/${path.replace(/^\.\//, "")}`
  return { path: abs, access }
}

function describe(kind: string, id: string, example: string, expected: "match" | "no_match"): string {
  return expected === "match"
    ? `${kind} "${id}": example "${example}" should match but does not`
    : `${kind} "${id}": example "${example}" should not match but does`
}
