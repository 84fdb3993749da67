// Deciding one proposed call: the tool's own argument defaults applied, the policy's decision,
// plugin beforeCall hooks (which may only restrict), and a person's earlier approval.
import type { Trip } from "../guards/index.ts"
import { decideWithHooks } from "../plugins/hooks.ts"
import type { Risk } from "../base/risk.ts"
import type { Call, Decision } from "../policy/types.ts"
import { recordGrant } from "./approve.ts"
import type { DecideState } from "../policy/types.ts"
import type { ToolRegistry } from "../tools/registry.ts"
import type { Governor, RunContext } from "./context.ts"
import type { PendingCall } from "./state.ts"

export interface Decided<P extends { tool: string; args: Record<string, unknown> }> {
  /** the proposal as it will run: parsed arguments, possibly rewritten by a hook */
  proposal: P
  call: Call
  decision: Decision
}

export async function decideCall<P extends { tool: string; args: Record<string, unknown> }>(
  ctx: RunContext, proposal: P, callId: string, trip: Trip | undefined, pending?: PendingCall,
): Promise<Decided<P>> {
  const first = await decideProposed(ctx, proposal.tool, proposal.args, { tripped: trip, grants: ctx.state.grants })
  const given = { ...proposal, args: first.args }
  const decideArgs = (args: Record<string, unknown>) => decideProposed(ctx, proposal.tool, args, { tripped: trip, grants: ctx.state.grants })
  let { call, decision } = first
  let effective = given
  if (ctx.hooks.length && !trip) {
    const hooked = await decideWithHooks({
      hooks: ctx.hooks,
      call: { tool: proposal.tool, args: given.args, cwd: ctx.cwd, workspace: ctx.workspace, runId: ctx.runId, callId },
      decision,
      redecide: async (args) => {
        const again = await decideArgs(args)
        call = again.call
        return again.decision
      },
    })
    decision = hooked.decision
    effective = { ...given, args: hooked.args }
  }
  if (pending?.approved && decision.decision === "ask") {
    decision = { ...decision, decision: "allow", by: "user", reason: "approved by a person" }
    if (pending.forRun) {
      const grant = ctx.governor.grantFor(call, decision)
      if (grant && decision.risk !== "critical") recordGrant(ctx, grant)
    }
  }
  return { proposal: effective, call, decision }
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
/** A tool's own risk for these arguments (static, or its risk function's answer). */
export function toolRiskOf(tool: { risk?: unknown }, args: Record<string, unknown>, at: { cwd: string; workspace: string }): Risk | undefined {
  return staticRisk(tool.risk, args, at)
}

function staticRisk(risk: unknown, args: Record<string, unknown>, ctx: { cwd: string; workspace: string }): Risk | undefined {
  if (typeof risk !== "function") return risk as Risk | undefined
  try {
    return (risk as (a: unknown, c: { cwd: string; workspace: string }) => Risk)(args, { cwd: ctx.cwd, workspace: ctx.workspace })
  } catch {
    return "high"
  }
}
