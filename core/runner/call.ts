// One tool call under governance: decide, ask when needed, commit the intent, run, commit the
// result together with the new checkpoint (write-ahead: intent is committed before the effect, the
// result with the checkpoint, so a crash at any instant leaves a state resume can finish).
import { sha256 } from "../base/hash.ts"
import { canonicalJson } from "../base/json.ts"
import type { Call, Decision } from "../policy/types.ts"
import { policyStamp } from "../policy/fingerprint.ts"
import type { NewCall } from "../store/calls.ts"
import type { CallStatus } from "../store/schema.ts"
import { errorResult } from "../tools/envelope.ts"
import { executeTool } from "../tools/execute.ts"
import type { ToolResult } from "../tools/types.ts"
import { toolTimeoutFor, type Trip } from "../guards/index.ts"
import { afterHooks } from "../plugins/hooks.ts"
import { planIndex } from "./plan.ts"
import { resolveAsk } from "./approve.ts"
import { decideCall } from "./decide-call.ts"
import { approvalDigest } from "./approved.ts"
import { guardAfter, guardBefore, guardStart, haltOrContinue, ownChanges, resultSummary } from "./guarding.ts"
import type { RunContext } from "./context.ts"
import { newId } from "./ids.ts"
import { excerpt } from "./output.ts"
import type { PendingCall } from "./state.ts"
import { previewCall, previewUnavailable, wantsPreview } from "./preview.ts"
import type { Sandbox } from "../sandbox/session.ts"
import type { StateWrites } from "./recorder.ts"

export interface Proposal {
  tool: string
  args: Record<string, unknown>
  itemId?: string
  /** step timeout from task.yaml */
  timeoutMs?: number
  /** which attempt of its plan item this is (1-based) */
  attempt?: number
  /** the step asks for preview, confirm, commit */
  preview?: boolean
  /** the step's own env over the task's ($CCODE_OUTPUT, `env:` of the step) */
  env?: Record<string, string>
  /** the step's last word on its result before anything records it (a bad $CCODE_OUTPUT fails it) */
  finish?: (result: ToolResult) => ToolResult
}

export type CallOutcome =
  | { kind: "ran"; callId: string; seq: number; result: ToolResult; decision: Decision }
  | { kind: "denied"; callId: string; seq: number; result: ToolResult; decision: Decision }
  /** `shown`: the digest of the call the person is asked about (approved.ts) */
  | { kind: "waiting"; callId: string; seq: number; requestId: string; decision: Decision; shown?: string }
  /** a guard stopped the run before this call; it runs again on resume */
  | { kind: "halted"; callId: string; seq: number; trip: Trip }
  /** a signal stopped ccode while the call ran: it stays in flight, and a person settles it on resume */
  | { kind: "interrupted"; callId: string; seq: number }

/**
 * Run one call. `applyOutcome` applies the outcome to ctx.state (plan transitions, counters) synchronously,
 * before the outcome is committed, so the checkpoint written with it already reflects it.
 */
export async function runCall(
  ctx: RunContext,
  proposal: Proposal,
  applyOutcome: (outcome: CallOutcome) => void,
  pending?: PendingCall,
): Promise<CallOutcome> {
  const callId = pending?.callId ?? newId("c")
  const seq = pending?.seq ?? ++ctx.state.callSeq
  const registered = ctx.registry.get(proposal.tool)
  let trip = await guardBefore(ctx, proposal.tool)
  if (trip?.action === "pause" && (await haltOrContinue(ctx, trip))) trip = undefined
  if (trip?.action === "pause") {
    const outcome: CallOutcome = { kind: "halted", callId, seq: pending?.seq ?? seq, trip }
    if (!pending) ctx.state.callSeq-- // nothing was recorded under this number
    applyOutcome(outcome)
    await commitWithCheckpoint(ctx)
    return outcome
  }
  const decided = await decideCall(ctx, proposal, callId, trip, pending)
  proposal = decided.proposal
  const call = decided.call
  let decision = decided.decision
  const safeArgs = ctx.redactor.value(proposal.args) // redacted once: the call row and the guards' memory
  const row = {
    id: callId,
    runId: ctx.runId,
    seq,
    itemId: proposal.itemId ?? null,
    tool: proposal.tool,
    args: JSON.stringify(safeArgs),
    argsHash: hashArgs(proposal.tool, proposal.args),
    startedAt: Date.now(),
  }
  const rec = ctx.recorder
  if (!pending) rec.event("step.started", { step: proposal.itemId, call: callId, tool: proposal.tool, args: proposal.args })
  const stamp = policyStamp(ctx.governor.policy)
  rec.event("decision", {
    call: callId, decision: decision.decision, risk: decision.risk, rules: decision.rules, reason: decision.reason, by: decision.by,
    sandboxed: decision.sandboxed === true, ...stamp,
  })
  rec.audit({
    type: "decision", actor: decision.by === "user" ? "user" : decision.by === "guard" ? "guard" : "policy", callId,
    tool: proposal.tool, action: "decide", result: decision.decision === "allow" ? "approved" : decision.decision === "deny" ? "denied" : "asked",
    risk: decision.risk, autoApproved: decision.decision === "allow" && decision.by !== "user", reason: decision.reason,
    data: { args: proposal.args, rules: decision.rules, by: decision.by, sandboxed: decision.sandboxed === true, ...stamp },
  })

  if (decision.decision === "ask") {
    const resolved = await resolveAsk(ctx, { callId, proposal, call, decision })
    if (resolved.kind === "waiting") return await waitFor(ctx, { ...resolved, shown: approvalDigest(call, proposal.args, decision) }, { row, decision }, applyOutcome)
    decision = resolved.decision
  }

  if (decision.decision === "deny" && trip) {
    // refused by a guard (an open circuit): a failed call, not a policy denial
    const result = errorResult("CIRCUIT_OPEN", "circuit_open", trip.reason)
    const outcome: CallOutcome = { kind: "ran", callId, seq, result, decision }
    await guardAfter(ctx, resultSummary(ctx, callId, proposal.tool, safeArgs, result), false)
    applyOutcome(outcome)
    rec.event("step.finished", finishedFields(callId, proposal.itemId, result, ""))
    await commitWithCheckpoint(ctx, { calls: [{ ...pendingRow(row, decision, "error"), finishedAt: Date.now(), durationMs: 0, errorCode: "CIRCUIT_OPEN", errorType: "circuit_open", errorMessage: trip.reason }] })
    return outcome
  }

  if (decision.decision === "deny") {
    const result = errorResult("DENIED", "denied", `denied: ${decision.reason}`)
    const outcome: CallOutcome = { kind: "denied", callId, seq, result, decision }
    ctx.state.counters.denied++
    applyOutcome(outcome)
    rec.event("step.finished", finishedFields(callId, proposal.itemId, result, ""))
    await commitWithCheckpoint(ctx, { calls: [{ ...pendingRow(row, decision, "denied"), finishedAt: Date.now(), durationMs: 0, errorCode: "DENIED", errorType: "denied", errorMessage: result.error!.message }] })
    return outcome
  }

  // intent first: if the process dies while the tool runs, resume knows this call was in flight
  guardStart(ctx, proposal.tool)
  await ctx.snapshots?.before({ callId, seq, tool: proposal.tool })
  // (no checkpoint here: the running call row is what resume needs; see reconcile.ts)
  await ctx.recorder.commit({ calls: [pendingRow(row, decision, "running")] })
  let result: ToolResult
  const preview = registered ? wantsPreview(ctx, proposal, call) : false
  if (preview === "unavailable") result = previewUnavailable()
  else if (preview) {
    const previewed = await previewCall(ctx, proposal, callId, decision, pending, (view) => execute(ctx, proposal, callId, call, view))
    if (previewed.kind === "waiting") {
      ctx.active-- // it ran (in its scratch copy); the workspace is untouched until approved
      return await waitFor(ctx, previewed, { row, decision }, applyOutcome)
    }
    result = previewed.result
  } else {
    result = registered
      ? await execute(ctx, proposal, callId, call)
      : errorResult("NOT_FOUND", "not_found", `no tool named "${proposal.tool}"`)
  }
  ctx.state.counters.calls++
  if (result.error?.code === "INTERRUPTED") return await leaveInFlight(ctx, { callId, seq, tool: proposal.tool, step: proposal.itemId, risk: decision.risk, result }, applyOutcome)
  if (proposal.finish) result = proposal.finish(result)
  if (ctx.hooks.length) await reportHookProblems(ctx, callId, proposal, result)
  const output = ctx.redactor.text(result.text)
  await guardAfter(ctx, resultSummary(ctx, callId, proposal.tool, safeArgs, result, output), true, seq)
  const outcome: CallOutcome = { kind: "ran", callId, seq, result, decision }
  applyOutcome(outcome)
  rec.event("step.finished", finishedFields(callId, proposal.itemId, result, output))
  rec.audit({
    type: "tool_call", actor: "agent", callId, tool: proposal.tool, action: "run",
    result: result.status === "ok" ? "success" : "failed",
    risk: decision.risk, reason: result.error?.message ?? null,
    data: { exit_code: exitCode(result), duration_ms: result.stats.duration_ms, bytes: result.stats.bytes, error: result.error, sandboxed: decision.sandboxed === true },
  })
  await commitWithCheckpoint(ctx, {
    callPatches: [{ id: callId, patch: {
      status: result.status === "ok" ? "ok" : "error",
      finishedAt: Date.now(),
      durationMs: result.stats.duration_ms,
      exitCode: exitCode(result),
      output,
      bytes: result.stats.bytes,
      errorCode: result.error?.code ?? null,
      errorType: result.error?.type ?? null,
      errorMessage: result.error ? ctx.redactor.text(result.error.message) : null,
    } }],
  })
  return outcome
}

/** The call waits for a person: its row (pending) and the request are committed with the checkpoint. */
async function waitFor(
  ctx: RunContext,
  request: { requestId: string; writes: StateWrites; shown?: string },
  { row, decision }: { row: Omit<NewCall, "status">; decision: Decision },
  applyOutcome: (outcome: CallOutcome) => void,
): Promise<CallOutcome> {
  const outcome: CallOutcome = { kind: "waiting", callId: row.id, seq: row.seq, requestId: request.requestId, decision, ...(request.shown && { shown: request.shown }) }
  applyOutcome(outcome)
  await commitWithCheckpoint(ctx, { calls: [pendingRow(row, decision, "pending")], ...request.writes })
  return outcome
}

/**
 * SIGINT/SIGTERM while the call ran: the tool was stopped part-way, so whether its effect happened is
 * unknown. Its row stays `running` (in flight), exactly as after a kill -9, and resume asks a person
 * (run again / done / skip / failed) instead of running it again by itself.
 */
async function leaveInFlight(
  ctx: RunContext,
  call: { callId: string; seq: number; tool: string; step: string | undefined; risk: string; result: ToolResult },
  applyOutcome: (outcome: CallOutcome) => void,
): Promise<CallOutcome> {
  // what it changed before it was stopped is this run's doing, not an external change
  await ownChanges(ctx, { callId: call.callId, seq: call.seq, tool: call.tool })
  const outcome: CallOutcome = { kind: "interrupted", callId: call.callId, seq: call.seq }
  applyOutcome(outcome)
  ctx.recorder.event("step.finished", finishedFields(call.callId, call.step, call.result, ctx.redactor.text(call.result.text)))
  ctx.recorder.audit({
    type: "tool_call", actor: "agent", callId: call.callId, tool: call.tool, action: "run", result: "error", risk: call.risk,
    reason: "interrupted by a signal while running; left in flight for a person to settle on resume",
    data: { duration_ms: call.result.stats.duration_ms, error: call.result.error },
  })
  await commitWithCheckpoint(ctx, { callPatches: [{ id: call.callId, patch: { errorCode: "INTERRUPTED", errorMessage: "interrupted by a signal while running" } }] })
  return outcome
}

async function reportHookProblems(ctx: RunContext, callId: string, proposal: Proposal, result: ToolResult): Promise<void> {
  const problems = await afterHooks(ctx.hooks, { tool: proposal.tool, args: proposal.args, cwd: ctx.cwd, workspace: ctx.workspace, runId: ctx.runId, callId }, result)
  for (const problem of problems) {
    ctx.recorder.event("tool.warning", { call: callId, tool: proposal.tool, message: problem })
    ctx.recorder.audit({ type: "error", actor: "system", callId, tool: proposal.tool, action: "afterCall", result: "error", reason: problem })
  }
}

/** Commit buffered events/audit rows with `writes` and a fresh checkpoint, in one transaction. */
export async function commitWithCheckpoint(ctx: RunContext, writes: StateWrites = {}): Promise<void> {
  ctx.recorder.audit({ type: "checkpoint", actor: "system", action: `checkpoint ${ctx.checkpointSeq + 1}`, result: "success" })
  await ctx.recorder.commit({ ...writes, ...checkpointWrites(ctx) })
}

/** The run's state as of now, as a checkpoint and the plan rows that changed since the last one. */
function checkpointWrites(ctx: RunContext): StateWrites {
  // the plan's durable form is its rows (only what changed): a checkpoint of a 10,000-step plan
  // stays small instead of repeating every item after every call. Serialised now: the commit may
  // be stored later, and the state moves on meanwhile
  const checkpoint = { seq: ++ctx.checkpointSeq, json: JSON.stringify({ ...ctx.state, plan: undefined }) }
  // write only the items that changed (transition() replaces exactly the items it changes, so identity tells)
  const items = ctx.state.plan.items
  if (items === ctx.savedPlan) return { checkpoint }
  const changed = items.filter((item, i) => ctx.savedPlan[i] !== item)
  ctx.savedPlan = items
  if (!changed.length) return { checkpoint }
  return { checkpoint, plan: { items: changed, positions: changed.map((item) => planIndex(ctx.state.plan, item.id)) } }
}


/** `view`: a preview runs in a scratch copy of the workspace, with a sandbox that writes only there. */
async function execute(ctx: RunContext, proposal: Proposal, callId: string, call: Call, view?: { cwd: string; workspace: string; sandbox: Sandbox }): Promise<ToolResult> {
  const { tool } = ctx.registry.get(proposal.tool)!
  const limits = ctx.governor.policy.limits
  const asked = proposal.args.timeout
  const stepTimeout = proposal.timeoutMs ?? (typeof asked === "string" || typeof asked === "number" ? asked : undefined)
  const timeoutMs = toolTimeoutFor(limits, proposal.tool, tool.timeout, stepTimeout, Boolean(proposal.itemId) && ctx.driver.stepTimeouts)
  const stream = ctx.redactor.stream()
  const sandbox = view?.sandbox ?? (call.sandboxed ? ctx.sandbox : undefined)
  const result = await executeTool(tool, proposal.args, {
    cwd: view?.cwd ?? ctx.cwd,
    workspace: view?.workspace ?? ctx.workspace,
    // steps can see where they are: e.g. a flaky check that passes on its second attempt
    env: { ...ctx.env, ...proposal.env, CCODE_RUN_ID: ctx.runId, CCODE_CALL_ID: callId, CCODE_STEP: proposal.itemId ?? "", CCODE_ATTEMPT: String(proposal.attempt ?? 1) },
    runId: ctx.runId,
    callId,
    confine: ctx.governor.policy.workspace.confine,
    timeoutMs,
    idleTimeoutMs: limits.idle_timeout,
    signal: ctx.cancel.signal,
    sandbox,
    // recorded at once (outside the result's transaction): after a crash, resume finds the step's
    // processes by its group and knows whether its command had already exited, and how
    // (a PostgreSQL server crash may lose them; resume then asks a person about the call, as without them)
    onProcess: ({ pgid }) => ctx.recorder.write({ callPatches: [{ id: callId, patch: { pgid } }], relaxed: true }),
    onExit: (code) => ctx.recorder.write({ callPatches: [{ id: callId, patch: { exitCode: code } }], relaxed: true }),
    onOutput: (chunk) => {
      const safe = stream.push(chunk)
      if (safe) ctx.reporter.output(ctx.runId, callId, safe)
    },
  })
  const rest = stream.flush()
  if (rest) ctx.reporter.output(ctx.runId, callId, rest)
  return sandbox ? sandbox.explain(result, view?.cwd ?? ctx.cwd, callId) : result
}

function pendingRow(row: Omit<NewCall, "status">, decision: Decision, status: CallStatus): NewCall {
  return { ...row, status, decision: decision.decision, risk: decision.risk, decidedBy: decision.by }
}

// `output` is redacted; the event carries its head and tail with the full byte count (output.ts)
function finishedFields(callId: string, step: string | undefined, result: ToolResult, output: string) {
  return {
    call: callId,
    step: step ?? null,
    status: result.status,
    exit_code: exitCode(result),
    duration_ms: result.stats.duration_ms,
    error: result.error ?? null,
    ...excerpt(output, output ? result.stats.bytes : 0),
  }
}

export function exitCode(result: ToolResult): number | null {
  const data = result.data as { exit_code?: unknown } | undefined
  return typeof data?.exit_code === "number" ? data.exit_code : null
}

export function hashArgs(tool: string, args: unknown): string {
  return sha256(`${tool}\0${canonicalJson(args)}`).slice(0, 32)
}

