// Deciding one proposed call: the tool's own argument defaults applied, the policy's decision,
// plugin beforeCall hooks (which may only restrict), and a person's earlier approval. `--dry-run`
// and `policy check` (for plugin tools) decide through decideProposal.
import type { Trip } from "../guards/index.ts"
import { decideWithHooks } from "../plugins/hooks.ts"
import type { Risk } from "../base/risk.ts"
import type { Call, Decision } from "../policy/types.ts"
import { recordGrant } from "./approve.ts"
import { approvalChanged, approvalDigest } from "./approved.ts"
import type { DecideState } from "../policy/types.ts"
import type { ToolRegistry } from "../tools/registry.ts"
import type { Governor, RunContext } from "./context.ts"
import type { PendingCall } from "./state.ts"
import type { PluginHooks } from "../plugins/validate.ts"

export interface Decided<P extends { tool: string; args: Record<string, unknown> }> {
  /** the proposal as it will run: parsed arguments, possibly rewritten by a hook */
  proposal: P
  call: Call
  decision: Decision
}

export async function decideCall<P extends { tool: string; args: Record<string, unknown> }>(
  ctx: RunContext, proposal: P, callId: string, trip: Trip | undefined, pending?: PendingCall,
): Promise<Decided<P>> {
  const decided = await decideProposal({ ...ctx, hooks: trip ? [] : ctx.hooks }, proposal, { callId, state: { tripped: trip, grants: ctx.state.grants } })
  let { decision } = decided
  const changed = pending?.approved && decision.decision === "ask" ? approvalChanged(pending.shown, approvalDigest(decided.call, decided.proposal.args, decision)) : undefined
  if (changed) decision = { ...decision, reason: `${decision.reason} (${changed})` }
  else if (pending?.approved && decision.decision === "ask") {
    decision = { ...decision, decision: "allow", by: "user", reason: "approved by a person" }
    if (pending.forRun) {
      const grant = ctx.governor.grantFor(decided.call, decision)
      if (grant && decision.risk !== "critical") recordGrant(ctx, grant)
    }
  }
  return { ...decided, decision }
}

/**
 * A proposed call as the run decides it, before any person: the policy's decision (decideProposed),
 * then the plugins' beforeCall hooks, which may deny or rewrite (a rewrite is decided again). The one
 * path for a run, a resume, an MCP client's call and `--dry-run`. (A guard that tripped skips the hooks.)
 */
export async function decideProposal<P extends { tool: string; args: Record<string, unknown> }>(
  d: Deciding & { hooks: readonly PluginHooks[]; runId: string }, proposal: P, at: { callId: string; state: DecideState },
): Promise<Decided<P>> {
  const first = await decideProposed(d, proposal.tool, proposal.args, at.state)
  const given = { ...proposal, args: first.args }
  let { call, decision } = first
  if (!d.hooks.length) return { proposal: given, call, decision }
  const hooked = await decideWithHooks({
    hooks: d.hooks,
    call: { tool: proposal.tool, args: given.args, cwd: d.cwd, workspace: d.workspace, runId: d.runId, callId: at.callId },
    decision,
    redecide: async (args) => {
      const again = await decideProposed(d, proposal.tool, args, at.state)
      call = again.call
      return again.decision
    },
  })
  return { proposal: { ...given, args: hooked.args }, call, decision: hooked.decision }
}

/** What deciding a proposed call needs: the run's tools and policy, where it runs. */
export interface Deciding {
  registry: ToolRegistry
  governor: Governor
  cwd: string
  workspace: string
}

/**
 * The one path from a proposed call to the policy's decision, for a run, `--dry-run` and `policy
 * check` alike: the tool's zod defaults filled in (rules see what the tool will receive; invalid
 * arguments are decided as given and fail as a param error when the tool runs), the tool's own risk
 * (static or its risk function), then the policy.
 */
export async function decideProposed(d: Deciding, toolName: string, args: Record<string, unknown>, state: DecideState): Promise<{ args: Record<string, unknown>; call: Call; decision: Decision }> {
  const tool = d.registry.get(toolName)?.tool
  const parsed = tool?.args.safeParse(args)
  const given = parsed?.success && isRecord(parsed.data) ? parsed.data : args
  // the tool's declaration says which arguments are paths and what it does to them
  const call = await d.governor.prepare(toolName, given, d.cwd, staticRisk(tool?.risk, given, d), tool)
  return { args: given, call, decision: d.governor.decide(call, state) }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return Boolean(value) && typeof value === "object" && !Array.isArray(value)
}

// A tool's declared risk: static, or computed from the arguments (a risk function that throws is not trusted to say "low").
function staticRisk(risk: unknown, args: Record<string, unknown>, ctx: { cwd: string; workspace: string }): Risk | undefined {
  if (typeof risk !== "function") return risk as Risk | undefined
  try {
    return (risk as (a: unknown, c: { cwd: string; workspace: string }) => Risk)(args, { cwd: ctx.cwd, workspace: ctx.workspace })
  } catch {
    return "high"
  }
}
