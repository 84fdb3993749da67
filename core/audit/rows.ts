// Audit rows as stored (snake_case columns) and as the chain sees them. Pure.
import type { AuditActor, AuditResult, AuditType, ChainedRow } from "./chain.ts"

export interface RawAuditRow {
  id: number
  ts: number
  run_id: string | null
  call_id: string | null
  type: string
  actor: string
  tool: string | null
  action: string | null
  result: string | null
  risk: string | null
  auto_approved: number | null
  reason: string | null
  data: string | null
  prev_hash: string
  hash: string
}

/** A stored row back into the shape its hash was computed over. A value the writer could not have
 *  written (auto_approved 2, a text ts) is kept as it is, so the hash no longer matches. */
export function readRow(raw: RawAuditRow): ChainedRow {
  const auto = raw.auto_approved
  return {
    id: raw.id,
    ts: raw.ts,
    runId: raw.run_id,
    callId: raw.call_id,
    type: raw.type as AuditType,
    actor: raw.actor as AuditActor,
    tool: raw.tool,
    action: raw.action,
    result: raw.result as AuditResult | null,
    risk: raw.risk,
    autoApproved: (auto === null ? null : auto === 1 ? true : auto === 0 ? false : auto) as boolean | null,
    reason: raw.reason,
    data: raw.data,
    prevHash: raw.prev_hash,
    hash: raw.hash,
  }
}
