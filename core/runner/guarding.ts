// Guards around each call: limits and circuit breakers before, the loop
// detector and breaker after, the workspace watch on both sides. Detectors are pure (core/guards);
// this module does the I/O around them and turns trips into events, audit rows and stops.
import {
  checkBeforeCall, diffFingerprints, externalChangeTrip, fingerprintWorkspace, recordCall, setTripped, startCall,
  type CallSummary, type Fingerprint, type Trip,
} from "../guards/index.ts"
import type { Transition } from "../guards/breaker.ts"
import type { ToolResult } from "../tools/types.ts"
import type { SnapshotCall } from "../snapshot/around-call.ts"
import type { RunContext } from "./context.ts"
import { loadFingerprint, storeFingerprint } from "../guards/fingerprint-file.ts"
import { applySizeLimits } from "./size-guard.ts"
import { isWatching, lookNow, noteOwn, startWatching, stopWatching } from "./watching.ts"
import { isReadOnly } from "../tools/declare.ts"

/** Own activity this recent explains a change; older than this, a change before a call is someone else's. */
const QUIET_MS = 250

export async function guardBefore(ctx: RunContext, tool: string): Promise<Trip | undefined> {
  const now = Date.now()
  const tripped = checkBeforeCall(ctx.state.guards, tool, now, ctx.governor.policy)
  if (tripped) return tripped
  // a call that cannot change the workspace is not harmed by a change: the next one that can is checked
  if (isReadOnly(ctx.registry.get(tool)?.tool)) return undefined
  return externalChange(ctx)
}

/** A guard wants the run to stop: with a person, ask continue once / stop; without, stop (exit 4). */
export async function haltOrContinue(ctx: RunContext, trip: Trip): Promise<boolean> {
  ctx.recorder.event("guard", { guard: trip.guard, reason: trip.reason, evidence: trip.evidence, loop_type: trip.evidence.loop_type })
  ctx.recorder.audit({ type: "state_change", actor: "guard", action: `guard:${trip.guard}`, result: "denied", reason: trip.reason, data: trip.evidence })
  if (ctx.human.interactive && (await ctx.human.guard(ctx.runId, trip.guard, trip.reason)) === "continue") {
    ctx.recorder.audit({ type: "permission", actor: "user", action: `guard:${trip.guard}:continue`, result: "approved", reason: "continue once" })
    const { tripped: _cleared, ...rest } = ctx.state.guards
    ctx.state.guards = trip.guard === "loop" ? { ...rest, history: [] } : rest
    return true
  }
  ctx.state.guards = setTripped(ctx.state.guards, trip)
  ctx.state.stoppedBy = trip.guard
  ctx.stop ??= { status: "stopped", reason: trip.reason }
  return false
}

export function guardStart(ctx: RunContext, tool: string): void {
  const started = startCall(ctx.state.guards, tool, Date.now(), ctx.governor.policy)
  ctx.state.guards = started.state
  recordTransitions(ctx, started.transitions)
  ctx.active++
}

/** After a call: breaker and loop detector, then the workspace (ccode's own changes, snapshots). */
export async function guardAfter(ctx: RunContext, summary: CallSummary, ran: boolean, seq = 0): Promise<void> {
  if (ran) ctx.active--
  const outcome = recordCall(ctx.state.guards, summary, Date.now(), ctx.governor.policy, ran ? undefined : "neutral")
  ctx.state.guards = outcome.state
  recordTransitions(ctx, outcome.transitions)
  if (ran && !isReadOnly(ctx.registry.get(summary.tool)?.tool)) await ownChanges(ctx, { callId: summary.id ?? "", seq, tool: summary.tool })
  if (outcome.trip && !ctx.stop) {
    ctx.state.guards = { ...ctx.state.guards, tripped: undefined }
    await haltOrContinue(ctx, outcome.trip)
  }
}

/** Take the first fingerprint of a segment (run start, resume). */
export async function watchStart(ctx: RunContext): Promise<Trip | undefined> {
  const detect = ctx.governor.policy.workspace.detect_external_changes
  if (!detect && !ctx.snapshots) return undefined
  const stored = loadFingerprint(ctx.state.fingerprint as Fingerprint | undefined)
  // used up here: later checkpoints of this segment need not carry it
  ctx.state.fingerprint = undefined
  const now = await fingerprint(ctx, stored)
  ctx.fingerprint = now
  ctx.fingerprintAt = Date.now()
  applySizeLimits(ctx, now)
  // from here on each step looks only at what a watch saw touched (or, without one, at every file)
  await startWatching(ctx).catch(() => false)
  if (!stored || !detect) return undefined
  const diff = diffFingerprints(stored, now)
  return diff.changed ? externalChangeTrip(diff) : undefined
}

/** End of a segment: the watch stops; the fingerprint stored with the run is a whole one. */
export async function watchEnd(ctx: RunContext): Promise<void> {
  await stopWatching(ctx)
  // a segment's snapshots as deltas in one pack rather than a disk block per object
  await ctx.snapshots?.snapshotter.pack().catch(() => 0)
  const home = ctx.ownPaths[0]
  if (ctx.fingerprint && home) ctx.fingerprint = storeFingerprint(ctx.fingerprint, home, ctx.runId)
}

async function externalChange(ctx: RunContext): Promise<Trip | undefined> {
  if (isWatching(ctx)) {
    // staged now whether or not it is reported: the next snapshot must hold it
    const look = await lookNow(ctx)
    if (!look || !ctx.governor.policy.workspace.detect_external_changes) return undefined
    if (ctx.active > 0 || Date.now() - ctx.fingerprintAt < QUIET_MS) {
      noteOwn(ctx, look.paths)
      return undefined
    }
    ctx.fingerprintAt = Date.now()
    return externalChangeTrip(look.diff)
  }
  if (!ctx.governor.policy.workspace.detect_external_changes || !ctx.fingerprint) return undefined
  // while other calls of this run are active, their changes cannot be told from someone else's
  if (ctx.active > 0 || Date.now() - ctx.fingerprintAt < QUIET_MS) return undefined
  const now = await fingerprint(ctx, ctx.fingerprint)
  const diff = diffFingerprints(ctx.fingerprint, now)
  ctx.fingerprint = now // a person who resumes accepts the workspace as it is now
  ctx.fingerprintAt = Date.now()
  return diff.changed ? externalChangeTrip(diff) : undefined
}

/** Changes the call made (even part-way, when it was interrupted) are ccode's own, not external ones. */
export async function ownChanges(ctx: RunContext, call: SnapshotCall): Promise<void> {
  if (isWatching(ctx)) {
    const look = await lookNow(ctx)
    if (look) {
      noteOwn(ctx, look.paths)
      await ctx.snapshots?.after(call)
    }
    ctx.fingerprintAt = Date.now()
    return
  }
  const previous = ctx.fingerprint
  if (!previous) return
  const now = await fingerprint(ctx, previous)
  ctx.fingerprint = now
  const diff = diffFingerprints(previous, now)
  if (diff.changed) {
    noteOwn(ctx, [...diff.added, ...diff.modified, ...diff.removed])
    await ctx.snapshots?.after(call)
  }
  // after the snapshot: a slow one must not make the next step look at the workspace again
  ctx.fingerprintAt = Date.now()
}

// The workspace as ccode sees it, without ccode's own files (its database, CCODE_HOME) when they live inside it.
function fingerprint(ctx: RunContext, previous: Fingerprint | undefined): Promise<Fingerprint> {
  return fingerprintWorkspace(ctx.workspace, { previous, ignore: ctx.ownPaths })
}

function recordTransitions(ctx: RunContext, transitions: Transition[]): void {
  for (const t of transitions) {
    ctx.recorder.event("breaker", { tool: t.tool, from: t.from, to: t.to, reason: t.reason })
    ctx.recorder.audit({ type: "state_change", actor: "guard", tool: t.tool, action: `breaker:${t.from}->${t.to}`, reason: t.reason })
  }
}

/** What the guards remember of a call: redacted (`safeArgs`, `safeText` already are), since guard state is stored in checkpoints. */
export function resultSummary(ctx: RunContext, callId: string, tool: string, safeArgs: Record<string, unknown>, result: ToolResult, safeText?: string): CallSummary {
  const error = result.error ? { ...result.error, message: ctx.redactor.text(result.error.message) } : undefined
  return { id: callId, tool, args: safeArgs, result: { status: result.status, text: safeText ?? ctx.redactor.text(result.text), error } }
}
