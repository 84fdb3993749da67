// What happens when a call needs a person: prompt when someone is there, otherwise follow
// approval.on_ask — pause with a request (exit 3 later) or deny. Grants never cover critical.
import type { Call, Decision, Grant } from "../policy/types.ts"
import { grantLabel } from "../policy/grants.ts"
import type { RunContext } from "./context.ts"
import type { Proposal } from "./call.ts"
import { newId } from "./ids.ts"
import { proposedDiff } from "./proposed-diff.ts"
import type { StateWrites } from "./recorder.ts"

export type AskResolution =
  | { kind: "decided"; decision: Decision }
  | { kind: "waiting"; requestId: string; writes: StateWrites }

export async function resolveAsk(
  ctx: RunContext,
  ask: { callId: string; proposal: Proposal; call: Call; decision: Decision },
): Promise<AskResolution> {
  const { decision, proposal, callId } = ask
  const action = decision.on_ask === "prompt" && !ctx.human.interactive ? "pause" : decision.on_ask
  if (action === "deny") {
    const reason = `${decision.reason} (approval.on_ask: deny, nobody to ask)`
    ctx.recorder.audit({ type: "permission", actor: "policy", callId, tool: proposal.tool, action: "on_ask:deny", result: "denied", risk: decision.risk, reason })
    return { kind: "decided", decision: { ...decision, decision: "deny", reason } }
  }
  if (action === "prompt") {
    const grant = ctx.governor.grantFor(ask.call, decision)
    const diff = proposedDiff(proposal.tool, proposal.args, ask.call.cwd, ask.call.workspace)
    const answer = await ctx.human.approve(
      { runId: ctx.runId, tool: proposal.tool, args: proposal.args, decision, step: proposal.itemId, grant, ...(diff && { diff: ctx.redactor.text(diff) }) },
      ctx.governor.policy.approval.timeout,
    )
    if (answer !== "timeout") return { kind: "decided", decision: applyAnswer(ctx, answer, ask, grant) }
  }
  const requestId = newId("q")
  const title = `${proposal.tool}: ${summarizeArgs(proposal.args)}`
  // what `ccode approve --for-run` would grant, so the person sees it before approving
  const offered = ctx.governor.grantFor(ask.call, decision)
  const grant = offered && decision.risk !== "critical" ? redactGrant(ctx, offered) : undefined
  const grantPatterns = grant ? (grant.patterns ?? (grant.pattern === undefined ? [`any ${grant.tool} call`] : [grant.pattern])) : null
  ctx.recorder.event("request.created", {
    req: requestId, kind: "approval", call: callId, step: proposal.itemId, tool: proposal.tool, args: proposal.args,
    risk: decision.risk, reason: decision.reason, rules: decision.rules, grant: grantPatterns,
  })
  ctx.recorder.audit({
    type: "permission", actor: "policy", callId, tool: proposal.tool, action: "request", result: "asked", risk: decision.risk,
    reason: decision.reason, data: { request: requestId, args: proposal.args },
  })
  const detail = JSON.stringify(ctx.redactor.value({ tool: proposal.tool, args: proposal.args, risk: decision.risk, reason: decision.reason, rules: decision.rules, grant: grantPatterns }))
  const request = {
    id: requestId, runId: ctx.runId, callId, itemId: proposal.itemId ?? null, kind: "approval" as const, status: "pending" as const,
    title: ctx.redactor.text(title), detail, createdAt: Date.now(),
  }
  return { kind: "waiting", requestId, writes: { requests: [request] } }
}

function applyAnswer(
  ctx: RunContext,
  answer: "once" | "run" | "deny" | "stop",
  ask: { callId: string; proposal: Proposal; decision: Decision },
  grant: ReturnType<RunContext["governor"]["grantFor"]>,
): Decision {
  const { decision, proposal, callId } = ask
  const approved = answer === "once" || answer === "run"
  ctx.recorder.audit({
    type: "permission", actor: "user", callId, tool: proposal.tool, action: `prompt:${answer}`,
    result: approved ? "approved" : "denied", risk: decision.risk, autoApproved: false,
    reason: approved ? "approved at the prompt" : "denied at the prompt",
  })
  if (answer === "run" && grant && decision.risk !== "critical") {
    ctx.state.grants.push(redactGrant(ctx, grant))
    recordGrant(ctx, grant)
  }
  if (answer === "stop") ctx.stop = { status: "denied", reason: `denied at the prompt: ${proposal.tool}` }
  return {
    ...decision,
    decision: approved ? "allow" : "deny",
    by: "user",
    reason: approved ? `approved by a person${answer === "run" ? " for this run" : ""}` : "denied by a person",
  }
}

/** A person's "allow for this run": in the run's grants, the audit and the grants table, every pattern it covers. */
export function recordGrant(ctx: RunContext, grant: Grant): void {
  const safe = redactGrant(ctx, grant)
  ctx.state.grants.push(safe)
  ctx.recorder.audit({ type: "permission", actor: "user", tool: grant.tool, action: "grant", result: "approved", reason: `allow for this run: ${grantLabel(safe)}`, data: { patterns: safe.patterns ?? (safe.pattern === undefined ? [] : [safe.pattern]) } })
  // stored with the step's commit, as the grant's audit row is
  ctx.recorder.stage({ grants: (safe.patterns ?? [safe.pattern ?? null]).map((pattern) => ({ runId: ctx.runId, tool: grant.tool, pattern, source: grant.source, createdAt: Date.now() })) })
}

/** Grants are kept in checkpoints: a secret in a pattern is masked (the grant then matches less, never more). */
export function redactGrant(ctx: RunContext, grant: Grant): Grant {
  const pattern = grant.pattern === undefined ? undefined : ctx.redactor.text(grant.pattern)
  const patterns = grant.patterns?.map((p) => ctx.redactor.text(p))
  return { ...grant, ...(pattern !== undefined && { pattern }), ...(patterns && { patterns }) }
}

export function summarizeArgs(args: Record<string, unknown>): string {
  const main = args.command ?? args.path ?? args.pattern ?? args.url
  const text = typeof main === "string" ? main : JSON.stringify(args)
  return text.length > 120 ? `${text.slice(0, 117)}...` : text
}
