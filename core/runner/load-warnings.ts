// Warnings found when a task is loaded, before anything runs: settings that would otherwise be
// silently ignored or capped. Pure: the policy, the steps and the task's trust are passed in.
import type { Policy } from "../policy/types.ts"
import { formatDuration, parseDuration } from "../base/duration.ts"

export interface StepTimeout {
  id: string
  tool: string
  /** the step's `timeout:` (or `with.timeout`), as written */
  timeout?: string | number
  /** the tool's own declared timeout */
  toolTimeout?: string | number
}

/** Limits that bound agent runs only: a scripted plan is bounded by itself (items x (1 + retries)). */
const AGENT_ONLY = ["max_steps", "max_tool_calls", "max_depth", "max_noop_iterations", "max_tokens", "max_cost"] as const

/**
 * `explicit(source)` says whether a policy value was set for this task (its own policy, a flag), as
 * opposed to a default or a user-wide policy that also serves agent runs.
 */
export function loadWarnings(
  policy: Policy, steps: StepTimeout[], opts: { scripted: boolean; trusted: boolean; explicit: (source: string) => boolean },
): string[] {
  const warnings: string[] = []
  for (const step of steps) {
    const asked = step.timeout === undefined ? undefined : parseDuration(step.timeout)
    if (asked === undefined) continue
    const { ceiling, key } = timeoutCeiling(policy, step.tool, step.toolTimeout)
    const allowed = opts.trusted && policy.limits.max_tool_timeout !== undefined ? Math.max(ceiling, policy.limits.max_tool_timeout) : ceiling
    if (asked <= allowed) continue
    const how = opts.trusted
      ? policy.limits.max_tool_timeout === undefined
        ? `raise ${key}, or set limits.max_tool_timeout, in a trusted policy`
        : `raise limits.max_tool_timeout (${formatDuration(policy.limits.max_tool_timeout)})`
      : `raise ${key} in a trusted policy (or trust this task with \`ccode trust\` and set limits.max_tool_timeout)`
    warnings.push(`step "${step.id}": timeout ${formatDuration(asked)} is above ${key} (${formatDuration(ceiling)}); it runs with ${formatDuration(allowed)}. To give it longer, ${how}`)
  }
  if (opts.scripted) {
    for (const limit of AGENT_ONLY) {
      const source = policy.sources[`limits.${limit}`]
      if (source && opts.explicit(source)) {
        warnings.push(`limits.${limit} (from ${source}) bounds agent runs only; this task is scripted: its plan bounds it (each step runs at most 1 + retries times)`)
      }
    }
  }
  return warnings
}

/** The timeout a call of `tool` gets unless its step asks for less, and the policy key that sets it. */
export function timeoutCeiling(policy: Policy, tool: string, toolTimeout?: string | number): { ceiling: number; key: string } {
  const own = policy.limits.tool_timeouts[tool]
  if (own !== undefined) return { ceiling: own, key: `limits.tool_timeouts.${tool}` }
  const declared = toolTimeout === undefined ? undefined : parseDuration(toolTimeout)
  if (declared !== undefined) return { ceiling: declared, key: `limits.tool_timeouts.${tool}` }
  return { ceiling: policy.limits.tool_timeout, key: `limits.tool_timeouts.${tool}` }
}
