// What a guard says when it stops something: which guard, why, the evidence, and what the user
// can do about it. Pure: plain JSON values, no clock.
import type { GuardTrip } from "../policy/types.ts"

export type GuardName = "limit" | "loop" | "circuit_breaker" | "stalled" | "external_change"

/** Compatible with the policy engine's GuardTrip (pass it as DecideState.tripped to decide()). */
export interface Trip extends GuardTrip {
  guard: GuardName
  /** the full message for the user and the agent */
  reason: string
  action: "deny" | "pause"
  evidence: Record<string, unknown>
}

export function trip(guard: GuardName, action: Trip["action"], reason: string, evidence: Record<string, unknown>): Trip {
  return { guard, action, reason, evidence }
}

/** The closing advice every pausing guard gives. */
export function resumeHint(policyKey: string): string {
  return `If this is expected, raise ${policyKey} in the policy; then \`ccode resume\` to go on.`
}

/** A short, single-line rendering of a value for messages (never the whole thing). */
export function preview(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`
}
