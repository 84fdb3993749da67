// The effective policy prepared for fast decisions: tool globs, regexes and path patterns compiled once
// per Policy object (memoised; treat a Policy as immutable once decided on). Pure: no fs, no clock.
import type { Risk } from "../base/risk.ts"
import type { Policy, PolicyRule } from "./types.ts"
import { toolMatcher } from "./glob.ts"
import { compileRegex } from "./regex.ts"
import { absolutePattern, pathPatternRegex, pathPatternsRegex } from "./paths.ts"
import { globsMeet, hasGlob } from "./globmeet.ts"
import { unicodeFold } from "../shell/index.ts"
import { credentialSet, inEveryHome, viaRealHome } from "./credentials.ts"

export interface CompiledRule {
  rule: PolicyRule
  restrict: boolean
  /** undefined: any tool (a rule with only `command` means the shell tool) */
  tool?: (tool: string) => boolean
  commands?: { pattern: string; program?: string }[]
  paths?: PathSet
  access: "read" | "write" | "any"
  args?: [field: string, re: RegExp][]
}

export interface CompiledPolicy {
  rules: CompiledRule[]
  toolRisk(tool: string): Risk | undefined
  toolFloor(tool: string): Risk | undefined
  riskCommands: { id: string; source: string; re: RegExp; level: Risk; reason?: string }[]
  /** the policy's risk.paths, then the built-in credential locations (reason set) */
  riskPaths: { pattern: string; level: Risk; set: PathSet; reason?: string }[]
  protectedPaths: PathSet
  allowlisted(tool: string): boolean
}

/** Path patterns whose regex depends on the call's workspace and home; compiled on first use per pair. */
export interface PathSet {
  patterns: string[]
  /** exact: for allow rules and grants (a path that differs in case is not what was allowed) */
  regex(workspace: string, home: string): RegExp
  /** fail closed, for risk.paths, workspace.protected and deny/ask rules: case ignored (a
   *  case-insensitive file system takes ~/.SSH for ~/.ssh), and a touched path that is still a shell glob
   *  (under a `~/.secr*` directory) hits when some path could match both */
  hits(path: string, workspace: string, home: string, glob?: boolean): boolean
}

const memo = new WeakMap<Policy, CompiledPolicy>()

/** Where credentials live (core/base/secrets.ts): high whatever the policy says, one set for all,
 *  built on first use (other users' homes come from /etc/passwd). */
let credentials: CompiledPolicy["riskPaths"][number] | undefined
function builtInCredentials(): CompiledPolicy["riskPaths"][number] {
  return (credentials ??= {
    pattern: "built-in credential locations", level: "high", set: credentialSet(pathSet),
    reason: "is where credentials are kept (a read sends them to the model)",
  })
}

/** Whether a path rule of the policy (without one: the built-in credential locations) names a real
 *  path: what the on-disk lookups pick among the files they find. */
export function pathJudge(policy: Policy | undefined, workspace: string, home: string): (path: string) => boolean {
  const sets = policy ? compilePolicy(policy).riskPaths : [builtInCredentials()]
  return (path) => sets.some((rp) => rp.set.hits(path, workspace, home))
}

export function compilePolicy(policy: Policy): CompiledPolicy {
  const hit = memo.get(policy)
  if (hit) return hit
  const tools = policy.risk.tools
  const floors = policy.risk.tool_floors ?? {}
  const compiled: CompiledPolicy = {
    rules: policy.rules.map(compileRule),
    toolRisk: mapLookup(tools),
    toolFloor: mapLookup(floors),
    riskCommands: policy.risk.commands.map((c) => ({
      id: c.id, source: c.source, re: compileRegex(c.regex), level: c.level, reason: c.reason,
    })),
    riskPaths: [
      // a `~/` entry counts below every home: the caller's HOME is not the only one a command can read
      ...policy.risk.paths.map((p) => ({ pattern: p.path, level: p.level, set: p.path.startsWith("~/") ? inEveryHome(pathSet([p.path])) : pathSet([p.path]) })),
      builtInCredentials(),
    ],
    protectedPaths: viaRealHome(pathSet(policy.workspace.protected)),
    allowlisted: toolMatcher(policy.approval.tools),
  }
  memo.set(policy, compiled)
  return compiled
}

export function compileRule(rule: PolicyRule): CompiledRule {
  const list = (v: string | string[] | undefined) => (v === undefined ? undefined : Array.isArray(v) ? v : [v])
  const tools = list(rule.tool)
  const commands = list(rule.command)
  const paths = list(rule.path)
  return {
    rule,
    restrict: rule.decision !== "allow",
    tool: tools ? toolMatcher(tools) : commands ? (t) => t === "shell" : undefined,
    commands: commands?.map((pattern) => ({ pattern, program: patternProgram(pattern) })),
    paths: paths ? viaRealHome(pathSet(paths)) : undefined,
    access: rule.access ?? "any",
    args: rule.args ? Object.entries(rule.args).map(([field, re]) => [field, compileRegex(re)]) : undefined,
  }
}

export function pathSet(patterns: string[]): PathSet {
  const exact = memoRoot((ws, home) => (patterns.length === 1 ? pathPatternRegex(patterns[0]!, ws, home) : pathPatternsRegex(patterns, ws, home)))
  const folded = memoRoot((ws, home) => (patterns.length === 1 ? pathPatternRegex(patterns[0]!, ws, home, true) : pathPatternsRegex(patterns, ws, home, true)))
  const globs = memoRoot((ws, home) => patterns.map((p) => absolutePattern(p, ws, home)))
  return {
    patterns,
    regex: exact,
    hits(path, workspace, home, glob) {
      if (folded(workspace, home).test(path)) return true
      const other = unicodeFold(path)
      if (other !== undefined && folded(workspace, home).test(other)) return true
      return glob === true && hasGlob(path) && globs(workspace, home).some((g) => globsMeet(path, g, true))
    },
  }
}

// one value per (workspace, home): a process decides for one pair nearly always
function memoRoot<T>(make: (workspace: string, home: string) => T): (workspace: string, home: string) => T {
  let lastKey = ""
  let last: T | undefined
  const byRoot = new Map<string, T>()
  return (workspace, home) => {
    const key = workspace + "\0" + home
    if (key === lastKey && last !== undefined) return last
    let v = byRoot.get(key)
    if (v === undefined) {
      v = make(workspace, home)
      byRoot.set(key, v)
    }
    lastKey = key
    last = v
    return v
  }
}

// The literal program a pattern names, so most rules are skipped without token matching.
// Only plain words qualify: anything with quoting, globs, variables or a path is matched in full.
function patternProgram(pattern: string): string | undefined {
  const first = pattern.trim().split(/\s+/, 1)[0] ?? ""
  return /^[A-Za-z0-9_.+-]+$/.test(first) ? first : undefined
}

function mapLookup(map: Record<string, Risk>): (tool: string) => Risk | undefined {
  const globs = Object.keys(map).filter((k) => /[*?[{]/.test(k))
  const matchers = globs.map((g) => [toolMatcher([g]), map[g]!] as const)
  return (tool) => {
    const exact = Object.hasOwn(map, tool) ? map[tool] : undefined
    if (exact !== undefined || !matchers.length) return exact
    for (const [match, level] of matchers) if (match(tool)) return level
    return undefined
  }
}
