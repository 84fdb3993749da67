// Turns what a user types after `ccode audit` into an AuditFilter, with errors that name the flag.
// Pure: the current time is passed in.
import { RISKS, type Risk } from "../base/risk.ts"
import { parseDuration } from "../base/duration.ts"
import { AUDIT_RESULTS, AUDIT_TYPES } from "./chain.ts"

export interface AuditFilter {
  /** run ids (exact) */
  runs?: string[]
  types?: string[]
  tools?: string[]
  /** audit `result` values: approved, denied, asked, success, failed, error */
  results?: string[]
  risks?: Risk[]
  /** ms since the epoch, inclusive */
  since?: number
  /** ms since the epoch, inclusive */
  until?: number
  limit?: number
  /** decision rows of the policy with this fingerprint (or a prefix of it) */
  policyFingerprint?: string
}

export interface FilterFlags {
  run?: string
  type?: string
  tool?: string
  decision?: string
  risk?: string
  since?: string
  until?: string
  limit?: string
  "policy-fingerprint"?: string
}

export class AuditFilterError extends Error {
  /** bad input: exit 2 */
  readonly exitCode = 2
  override name = "UsageError"
}

/** The words of a policy decision mapped to the audit results that record them. */
const DECISION_WORDS: Record<string, string[]> = {
  allow: ["approved"], allowed: ["approved"], deny: ["denied"], ask: ["asked"],
}

export function parseFilter(flags: FilterFlags, now: number): AuditFilter {
  const filter: AuditFilter = {}
  if (flags.run) filter.runs = list(flags.run)
  if (flags.type) filter.types = list(flags.type).map((t) => oneOf(t, AUDIT_TYPES, "--type"))
  if (flags.tool) filter.tools = list(flags.tool)
  if (flags.decision) {
    filter.results = list(flags.decision).flatMap((d) => DECISION_WORDS[d] ?? [oneOf(d, AUDIT_RESULTS, "--decision", Object.keys(DECISION_WORDS))])
  }
  if (flags.risk) filter.risks = list(flags.risk).flatMap(parseRisk)
  if (flags.since) filter.since = parseTime(flags.since, now, "--since")
  if (flags.until) filter.until = parseTime(flags.until, now, "--until")
  if (filter.since !== undefined && filter.until !== undefined && filter.since > filter.until) {
    throw new AuditFilterError(`--since (${new Date(filter.since).toISOString()}) is after --until (${new Date(filter.until).toISOString()})`)
  }
  if (flags.limit) {
    const n = Number(flags.limit)
    if (!Number.isInteger(n) || n < 1) throw new AuditFilterError(`--limit takes a whole number of at least 1, got "${flags.limit}"`)
    filter.limit = n
  }
  const fp = flags["policy-fingerprint"]?.trim().toLowerCase()
  if (fp !== undefined) {
    if (!/^[0-9a-f]{4,64}$/.test(fp)) throw new AuditFilterError(`--policy-fingerprint takes the hex fingerprint \`ccode policy show\` prints (at least 4 digits), got "${flags["policy-fingerprint"]}"`)
    filter.policyFingerprint = fp
  }
  return filter
}

/**
 * A moment: a duration back from now (`1h`, `30m`, `7d`), an ISO date or date-time
 * (`2026-01-31`, `2026-01-31T12:00:00Z`), or milliseconds since the epoch (13 digits).
 */
export function parseTime(value: string, now: number, flag: string): number {
  const text = value.trim()
  if (/^\d{13}$/.test(text)) return Number(text)
  if (/^\d+(\.\d+)?\s*(ms|s|m|h|d)$/.test(text)) return now - parseDuration(text)!
  if (/^\d{4}-\d{2}-\d{2}/.test(text)) {
    const ms = Date.parse(text)
    if (!Number.isNaN(ms)) return ms
  }
  throw new AuditFilterError(`${flag} takes a duration back from now (1h, 30m, 7d), a date (2026-01-31) or a date-time (2026-01-31T12:00:00Z); got "${value}"`)
}

/** `high` is exactly high; `high+` is high or above. */
function parseRisk(value: string): Risk[] {
  const atLeast = value.endsWith("+")
  const level = oneOf(atLeast ? value.slice(0, -1) : value, RISKS, "--risk") as Risk
  return atLeast ? RISKS.slice(RISKS.indexOf(level)) : [level]
}

function list(value: string): string[] {
  return value.split(",").map((v) => v.trim()).filter(Boolean)
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string, extra: string[] = []): T {
  if ((allowed as readonly string[]).includes(value)) return value as T
  throw new AuditFilterError(`${flag} takes one of ${[...extra, ...allowed].join(", ")} (comma-separated for several); got "${value}"`)
}
