// Doom-loop detector over the recent calls: the same call getting the same answer, the same tool
// failing the same way, or two calls ping-ponging. Pure: history is plain JSON, `now` is passed in.
import type { Policy } from "../policy/types.ts"
import type { ToolResult } from "../tools/types.ts"
import { formatDuration } from "../base/duration.ts"
import { canonicalArgs, jaccard, normaliseError, outputHash, shortHash, wordSet } from "./similarity.ts"
import { preview, resumeHint, trip, type Trip } from "./trip.ts"

export type LoopPolicy = Policy["loop_detection"]
export type LoopType = "repeat" | "error_repeat" | "oscillation"

/** What the runner knows after a call ran. Args and result text go into the checkpoint as previews: pass them redacted. */
export interface CallSummary {
  id?: string
  tool: string
  args: unknown
  result: Pick<ToolResult, "status" | "text" | "error">
}

/** One remembered call. */
export interface LoopEntry {
  id?: string
  tool: string
  /** hash of tool + canonical args: "the same call" */
  key: string
  /** hash of what came back (numbers masked, so timings do not make every answer new) */
  outcome: string
  ok: boolean
  /** error code, message and output tail, as the agent saw them (short) */
  error?: string
  /** canonical args, shortened, for messages */
  args: string
  at: number
}

export interface LoopFinding {
  loop_type: LoopType
  tool: string
  count: number
  calls: LoopEntry[]
  errors?: string[]
}

const ERROR_TAIL = 400
const MIN_CYCLES = 3

export function loopEntry(summary: CallSummary, now: number): LoopEntry {
  const args = canonicalArgs(summary.args)
  const ok = summary.result.status === "ok"
  const error = ok ? undefined : errorSignature(summary.result)
  const outcome = ok ? outputHash(summary.result.text ?? "") : shortHash(`error\0${normaliseError(error!)}`)
  const entry: LoopEntry = {
    tool: summary.tool,
    key: shortHash(`${summary.tool}\0${args}`),
    outcome,
    ok,
    args: preview(args),
    at: now,
  }
  if (summary.id !== undefined) entry.id = summary.id
  if (error !== undefined) entry.error = error
  return entry
}

/** Appends a call, keeping only as many as any detector can look at. */
export function remember(history: readonly LoopEntry[], entry: LoopEntry, policy: LoopPolicy): LoopEntry[] {
  const keep = Math.max(policy.window, 2 * cycles(policy))
  const next = [...history, entry]
  return next.length > keep ? next.slice(next.length - keep) : next
}

/**
 * Looks for a loop that ends with the newest call, so a call that is not part of the pattern
 * never re-trips an old one. Order: a failing call's error loop, then exact repeats, then oscillation.
 */
export function detectLoop(history: readonly LoopEntry[], now: number, policy: LoopPolicy): LoopFinding | undefined {
  const recent = history.filter((entry) => now - entry.at <= policy.time_window).slice(-policy.window)
  const latest = recent.at(-1)
  if (!latest) return undefined
  if (!latest.ok) {
    const words = wordSet(normaliseError(latest.error ?? ""))
    const similar = recent.filter(
      (entry) => !entry.ok && entry.tool === latest.tool && jaccard(wordSet(normaliseError(entry.error ?? "")), words) >= policy.similarity,
    )
    if (similar.length >= policy.error_repeat_threshold) {
      return { loop_type: "error_repeat", tool: latest.tool, count: similar.length, calls: similar, errors: similar.map((e) => e.error ?? "") }
    }
  }
  const same = recent.filter((entry) => entry.key === latest.key && entry.outcome === latest.outcome)
  if (same.length >= policy.repeat_threshold) return { loop_type: "repeat", tool: latest.tool, count: same.length, calls: same }
  if (policy.oscillation) {
    const tail = recent.slice(-2 * cycles(policy))
    if (tail.length === 2 * cycles(policy) && alternates(tail)) {
      return { loop_type: "oscillation", tool: latest.tool, count: tail.length, calls: tail }
    }
  }
  return undefined
}

export function loopTrip(finding: LoopFinding, policy: LoopPolicy): Trip {
  const scope = `in the last ${policy.window} calls within ${formatDuration(policy.time_window)}`
  const first = finding.calls[0]!
  let reason: string
  if (finding.loop_type === "error_repeat") {
    reason =
      `Loop detected (error_repeat): ${finding.tool} failed ${finding.count} times with the same error ${scope}` +
      ` (loop_detection.error_repeat_threshold: ${policy.error_repeat_threshold}, similarity >= ${policy.similarity}).` +
      ` Last error: "${preview(finding.errors!.at(-1)!, 200)}". ${resumeHint("loop_detection.error_repeat_threshold")}`
  } else if (finding.loop_type === "repeat") {
    reason =
      `Loop detected (repeat): ${finding.tool} ${first.args} was called ${finding.count} times with the same result ${scope}` +
      ` (loop_detection.repeat_threshold: ${policy.repeat_threshold}). ${resumeHint("loop_detection.repeat_threshold")}`
  } else {
    const other = finding.calls[1]!
    reason =
      `Loop detected (oscillation): the agent keeps alternating between ${first.tool} ${first.args} and ${other.tool} ${other.args}` +
      ` (${finding.count} calls ${scope}). If this is expected, set loop_detection.oscillation: false in the policy;` +
      " then `ccode resume` to go on."
  }
  const evidence: Record<string, unknown> = {
    loop_type: finding.loop_type,
    tool: finding.tool,
    count: finding.count,
    calls: finding.calls.map(({ id, tool, args, ok, error, at }) => ({ id, tool, args, status: ok ? "ok" : "error", error, at })),
  }
  if (finding.errors) evidence.errors = finding.errors
  return trip("loop", "pause", reason, evidence)
}

function cycles(policy: LoopPolicy): number {
  return Math.max(MIN_CYCLES, policy.repeat_threshold)
}

// A,B,A,B,... with A != B: even positions share one call, odd positions another.
function alternates(tail: readonly LoopEntry[]): boolean {
  const [a, b] = tail
  if (!a || !b || a.key === b.key) return false
  return tail.every((entry, i) => entry.key === (i % 2 === 0 ? a.key : b.key))
}

function errorSignature(result: CallSummary["result"]): string {
  const head = result.error ? `${result.error.code} ${result.error.message}` : "error"
  const text = result.text ?? ""
  // the agent reads the output of a failed command, not only "exited with code 1"
  const tail = text && text !== result.error?.message ? ` ${text.slice(-ERROR_TAIL)}` : ""
  return preview(`${head}${tail}`, ERROR_TAIL + 200)
}
