// Which rules and grants match a prepared call, part by part (the rules and grants steps of decide()).
// deny > ask > allow; an allow (rule or grant) must cover every simple command. Pure.
import { couldMatchCommandPattern, matchCommandPattern } from "../shell/index.ts"
import type { SimpleCommand } from "../shell/types.ts"
import type { DecisionKind } from "../base/risk.ts"
import type { Call, Grant, MatchedRule } from "./types.ts"
import type { CompiledPolicy, CompiledRule, PathSet } from "./compile.ts"
import { grantCovers } from "./grants.ts"

export interface PartOutcome {
  decision?: DecisionKind
  rule?: string
  /** covered by a grant but by no allow rule */
  grant?: Grant
}

export interface RuleOutcome {
  /** every rule that matched at least one part, in policy order */
  matched: MatchedRule[]
  deny?: CompiledRule
  ask?: CompiledRule
  /** every part is covered by an allow rule or a grant */
  covered: boolean
  /** the grant that covered a part no allow rule did (the decision is then by grant) */
  grant?: Grant
  parts: PartOutcome[]
}

const NO_PART = [undefined]

export function matchRules(cp: CompiledPolicy, call: Call, grants: readonly Grant[]): RuleOutcome {
  const shell = call.shell
  const parts: readonly (SimpleCommand | undefined)[] = shell && shell.commands.length ? shell.commands : NO_PART
  // an unresolvable command is never allowed by a rule; deny/ask rules still see its best-effort parts
  const allowBlocked = shell?.unresolvable === true
  const outcomes: PartOutcome[] = parts.map(() => ({}))
  const matched: MatchedRule[] = []
  let deny: CompiledRule | undefined
  let ask: CompiledRule | undefined

  for (const cr of cp.rules) {
    if (cr.tool && !cr.tool(call.tool)) continue
    if (!cr.restrict && allowBlocked) continue
    if (cr.args && !argsMatch(cr.args, call.args)) continue
    if (cr.paths && !pathsMatch(cr.paths, cr.access, call, cr.restrict)) continue
    let hit: DecisionKind | undefined
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]
      let decision = cr.rule.decision
      if (cr.commands) {
        if (!part) continue
        if (!commandMatches(cr, part)) {
          // a deny/ask rule that words known only at run time could meet (`touch $(..)`, `xargs touch`):
          // it cannot be ruled out, so the call is not auto-approved
          if (!cr.restrict || !commandCouldMatch(cr, part)) continue
          decision = "ask"
        }
      }
      if (!cr.restrict && part?.loaderEnv) continue
      if (!hit || rank(decision) > rank(hit)) hit = decision
      const out = outcomes[i]!
      if (!out.decision || rank(decision) > rank(out.decision)) {
        out.decision = decision
        out.rule = cr.rule.id
      }
    }
    if (!hit) continue
    matched.push({ id: cr.rule.id, decision: hit, source: cr.rule.source, reason: cr.rule.reason })
    if (hit === "deny") deny ??= cr
    else if (hit === "ask") ask ??= cr
  }

  let covered = true
  let byGrant: Grant | undefined
  for (let i = 0; i < parts.length; i++) {
    const out = outcomes[i]!
    if (out.decision) continue
    const part = parts[i]
    const grant = allowBlocked || part?.loaderEnv ? undefined : grants.find((g) => grantCovers(g, call, part))
    if (grant) {
      out.decision = "allow"
      out.grant = grant
      byGrant ??= grant
    } else covered = false
  }
  // a part an allow rule covered only counts when no restrictive rule took it over
  if (covered) covered = outcomes.every((o) => o.decision === "allow")
  return { matched, deny, ask, covered, grant: byGrant, parts: outcomes }
}

function commandCouldMatch(cr: CompiledRule, part: SimpleCommand): boolean {
  return cr.commands!.some((c) => (c.program === undefined || c.program === part.program) && couldMatchCommandPattern(c.pattern, part))
}

function commandMatches(cr: CompiledRule, part: SimpleCommand): boolean {
  const mode = cr.restrict ? "restrict" : "allow"
  for (const c of cr.commands!) {
    if (c.program !== undefined && c.program !== part.program) continue
    if (matchCommandPattern(c.pattern, part, mode)) return true
  }
  return false
}

/** Restrictive rules need one touched path to match; allow rules need every (and at least one). */
export function pathsMatch(set: PathSet, access: "read" | "write" | "any", call: Call, restrict: boolean): boolean {
  const re = set.regex(call.workspace, call.home)
  let seen = 0
  for (const p of call.paths) {
    if (access !== "any" && p.access !== access) continue
    seen++
    // a deny/ask rule fails closed (case ignored, a glob that could match counts); an allow rule is exact
    const hit = restrict ? set.hits(p.path, call.workspace, call.home, p.glob) : re.test(p.path)
    if (restrict && hit) return true
    if (!restrict && !hit) return false
  }
  return !restrict && seen > 0
}

function argsMatch(args: [string, RegExp][], values: Record<string, unknown>): boolean {
  for (const [field, re] of args) {
    if (!Object.hasOwn(values, field)) return false
    const value = values[field]
    if (value === undefined || value === null) return false
    if (!re.test(typeof value === "string" ? value : JSON.stringify(value))) return false
  }
  return true
}

function rank(d: DecisionKind): number {
  return d === "deny" ? 2 : d === "ask" ? 1 : 0
}
