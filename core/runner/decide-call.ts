// Deciding one proposed call: the tool's own argument defaults applied, the policy's decision,
// plugin beforeCall hooks (which may only restrict), and a person's earlier approval.
import type { Trip } from "../guards/index.ts"
import { decideWithHooks } from "../plugins/hooks.ts"
import type { Risk } from "../policy/risk.ts"
import type { Call, Decision } from "../policy/types.ts"
import { redactGrant } from "./approve.ts"
import type { RunContext } from "./context.ts"
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
  const tool = ctx.registry.get(proposal.tool)?.tool
  // rules see what the tool will receive (zod defaults filled in); invalid arguments are decided
  // as given and fail as a param error when the tool runs
  const parsed = tool?.args.safeParse(proposal.args)
  const given = parsed?.success && isRecord(parsed.data) ? { ...proposal, args: parsed.data } : proposal
  const decideArgs = async (args: Record<string, unknown>) => {
    const call = await ctx.governor.prepare(proposal.tool, args, ctx.cwd, staticRisk(tool?.risk, args, ctx), tool)
    return { call, decision: ctx.governor.decide(call, { tripped: trip, grants: ctx.state.grants }) }
  }
  let { call, decision } = await decideArgs(given.args)
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
      if (grant && decision.risk !== "critical") ctx.state.grants.push(redactGrant(ctx, grant))
    }
  }
  return { proposal: effective, call, decision }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return Boolean(value) && typeof value === "object" && !Array.isArray(value)
}

// A tool's declared risk: static, or computed from the arguments (a risk function that throws is not trusted to say "low").
function staticRisk(risk: unknown, args: Record<string, unknown>, ctx: RunContext): Risk | undefined {
  if (typeof risk !== "function") return risk as Risk | undefined
  try {
    return (risk as (a: unknown, c: { cwd: string; workspace: string }) => Risk)(args, { cwd: ctx.cwd, workspace: ctx.workspace })
  } catch {
    return "high"
  }
}
