// decide(policy, call, state): the one place a call's fate is computed, in this order:
// guards, risk, rules, approval mode, the critical hard rail, grants, on_ask. Pure: no fs, no db, no clock.
import { atMost } from "../base/risk.ts"
import type { Call, CommandVerdict, Decision, DecideState, GuardTrip, Policy } from "./types.ts"
import { compilePolicy, type CompiledRule } from "./compile.ts"
import { assessRisk, type RiskAssessment } from "./assess.ts"
import { matchRules, type RuleOutcome } from "./match.ts"
import { grantLabel } from "./grants.ts"

type Verdict = Pick<Decision, "decision" | "by" | "reason">

export function decide(policy: Policy, call: Call, state: DecideState): Decision {
  const cp = compilePolicy(policy)
  const assessed = assessRisk(cp, call)
  if (state.tripped) return fromGuard(state.tripped, policy, call, assessed)
  const outcome = matchRules(cp, call, state.grants)
  const verdict = railed(resolve(policy, call, assessed, outcome, cp.allowlisted), assessed)
  return {
    decision: verdict.decision,
    risk: assessed.risk,
    reason: verdict.reason,
    by: verdict.by,
    rules: outcome.matched,
    commands: commandVerdicts(call, assessed, outcome),
    on_ask: policy.approval.on_ask,
    sandboxed: call.sandboxed === true,
  }
}

function resolve(
  policy: Policy, call: Call, assessed: RiskAssessment, outcome: RuleOutcome, allowlisted: (tool: string) => boolean,
): Verdict {
  if (outcome.deny) return { decision: "deny", by: "rule", reason: ruleReason("denied by", outcome.deny) }
  if (outcome.ask) return { decision: "ask", by: "rule", reason: ruleReason("approval required by", outcome.ask) }
  if (outcome.covered) {
    const ruleIds = [...new Set(outcome.parts.map((p) => p.rule).filter((id) => id !== undefined))]
    if (!ruleIds.length && outcome.grant) {
      return { decision: "allow", by: "grant", reason: `allowed for this run (${grantLabel(outcome.grant)}, ${outcome.grant.source})` }
    }
    const sources = outcome.matched.filter((m) => m.decision === "allow" && ruleIds.includes(m.id))
    return { decision: "allow", by: outcome.grant ? "grant" : "rule", reason: `allowed by ${sources.map((m) => `rule ${m.id} (${m.source})`).join(", ")}` }
  }
  const { mode, threshold } = policy.approval
  const why = assessed.reasons[0] ? ` (${assessed.reasons[0]})` : ""
  switch (mode) {
    case "manual":
      return { decision: "ask", by: "mode", reason: `approval mode manual: every call needs approval; risk ${assessed.risk}${why}` }
    case "yolo":
      return { decision: "allow", by: "mode", reason: `approval mode yolo; risk ${assessed.risk}${why}` }
    case "allowlist":
      return allowlisted(call.tool)
        ? { decision: "allow", by: "mode", reason: `${call.tool} is in approval.tools; risk ${assessed.risk}${why}` }
        : { decision: "ask", by: "mode", reason: `${call.tool} is not in approval.tools; risk ${assessed.risk}${why}` }
    case "auto": {
      if (atMost(assessed.risk, threshold)) {
        return { decision: "allow", by: "threshold", reason: `risk ${assessed.risk} is within the auto-approve threshold ${threshold}${why}` }
      }
      // the OS sandbox bounds what a misjudged command can do, so it may run with less asking
      const boxed = policy.approval.sandboxed_threshold
      if (call.sandboxed && !call.shell?.exposesSecrets && atMost(assessed.risk, boxed)) {
        return { decision: "allow", by: "threshold", reason: `risk ${assessed.risk} is within the sandboxed auto-approve threshold ${boxed} (the call runs in the OS sandbox)${why}` }
      }
      const sandboxNote = !call.sandboxed ? "" : call.shell?.exposesSecrets ? " (the sandbox passes the environment through, so its threshold does not apply)" : ` (sandboxed: ${boxed})`
      return { decision: "ask", by: "threshold", reason: `risk ${assessed.risk} is above the auto-approve threshold ${threshold}${sandboxNote}${why}` }
    }
  }
}

// Step 5: nothing but a person at the prompt approves critical risk.
function railed(verdict: Verdict, assessed: RiskAssessment): Verdict {
  if (verdict.decision !== "allow" || assessed.risk !== "critical") return verdict
  return {
    decision: "ask",
    by: verdict.by,
    reason: `critical risk is never auto-approved (${assessed.reasons[0] ?? "critical"}); it would have been ${verdict.reason}`,
  }
}

function fromGuard(trip: GuardTrip, policy: Policy, call: Call, assessed: RiskAssessment): Decision {
  return {
    decision: trip.action === "deny" ? "deny" : "ask",
    risk: assessed.risk,
    reason: `${trip.guard}: ${trip.reason}`,
    by: "guard",
    guard: trip.guard,
    rules: [],
    commands: commandVerdicts(call, assessed, undefined),
    // a guard that pauses wants a person; nobody there means a pause, never a silent deny
    on_ask: trip.action === "pause" ? "pause" : policy.approval.on_ask,
    sandboxed: call.sandboxed === true,
  }
}

function ruleReason(verb: string, cr: CompiledRule): string {
  const r = cr.rule
  return `${verb} rule ${r.id} (${r.source})${r.reason ? `: ${r.reason}` : ""}`
}

function commandVerdicts(call: Call, assessed: RiskAssessment, outcome: RuleOutcome | undefined): CommandVerdict[] {
  const commands = call.shell?.commands
  if (!commands) return []
  return commands.map((cmd, i) => {
    const own = assessed.commands[i]
    const part = outcome?.parts[i]
    const verdict: CommandVerdict = {
      text: cmd.text, program: cmd.program, args: cmd.args, risk: own?.risk ?? cmd.risk, reasons: own?.reasons ?? cmd.reasons,
    }
    if (part?.decision) verdict.decision = part.decision
    if (part?.rule) verdict.rule = part.rule
    else if (part?.grant) verdict.rule = `grant: ${grantLabel(part.grant)}`
    return verdict
  })
}
