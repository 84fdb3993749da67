// Flags given to `ccode resume`: the person changes how a stopped or paused run goes on (approval
// level, policy files, limits). They replace the run's stored options for this and later resumes,
// and are recorded in the audit as the person's change.
import { formatDuration } from "../base/duration.ts"
import type { RunContext, RunOptions } from "./context.ts"
import { transition } from "./plan.ts"

export interface ResumeOverrides {
  /** --policy files or bundled names, added on top of the run's own */
  policy?: string[]
  yes?: boolean
  autoApprove?: RunOptions["autoApprove"]
  maxSteps?: number
  /** ms */
  maxWallTime?: number
  /** --var again: the run's input values (never stored; the plan hash proves them the same) */
  vars?: Record<string, string>
}

/** The run's options with the person's overrides, and what changed (snake_case, for the audit). */
export function withOverrides(options: RunOptions, o: ResumeOverrides): { options: RunOptions; changed: Record<string, unknown> } {
  const next: RunOptions = { ...options }
  const changed: Record<string, unknown> = {}
  if (o.policy?.length) {
    next.policy = [...options.policy, ...o.policy.filter((p) => !options.policy.includes(p))]
    changed.policy = o.policy
  }
  if (o.yes && !options.yes) {
    next.yes = true
    next.autoApprove = undefined // --yes and --auto-approve are one setting: the latest wins
    changed.yes = true
  }
  if (o.autoApprove !== undefined) {
    next.autoApprove = o.autoApprove
    next.yes = false
    changed.auto_approve = o.autoApprove
  }
  if (o.maxSteps !== undefined) changed.max_steps = next.maxSteps = o.maxSteps
  if (o.maxWallTime !== undefined) changed.max_wall_time_ms = next.maxWallTime = o.maxWallTime
  return { options: next, changed }
}

/** Does the change touch how calls are approved (so waiting approvals are decided again)? */
export function changesApproval(changed: Record<string, unknown>): boolean {
  return "yes" in changed || "auto_approve" in changed || "policy" in changed
}

/**
 * Steps waiting for an approval are decided again under the changed policy: allowed now, they run;
 * still asking, they wait again (a new request). The old request is settled as superseded.
 */
export async function redecideWaiting(ctx: RunContext): Promise<void> {
  const pending = new Map((await ctx.store.requestsOf(ctx.runId, "pending")).map((r) => [r.id, r]))
  for (const [id, waiting] of Object.entries(ctx.state.waiting)) {
    if (waiting.kind !== "approval" || !waiting.call || !pending.has(waiting.requestId)) continue
    ctx.recorder.stage({ settlements: [{ id: waiting.requestId, status: "answered", answer: "decided again: the run was resumed with a changed policy", settledBy: "resume" }] })
    delete ctx.state.waiting[id]
    ctx.state.pending[id] = waiting.call
    ctx.state.plan = transition(ctx.state.plan, { type: "release", id })
  }
}

/** "--max-steps 10, --yes" */
export function describeOverrides(changed: Record<string, unknown>): string {
  return Object.entries(changed)
    .map(([key, value]) => {
      if (value === true) return `--${flag(key)}`
      const shown = key.endsWith("_ms") ? formatDuration(Number(value)) : Array.isArray(value) ? value.join(" ") : String(value)
      return `--${flag(key)} ${shown}`
    })
    .join(", ")
}

function flag(key: string): string {
  return key.replace(/_ms$/, "").replace(/_/g, "-")
}
