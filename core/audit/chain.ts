// The audit hash chain: each row's hash covers its own fields and the previous row's hash. Pure.
import { createHash } from "node:crypto"

export const GENESIS = "0".repeat(64)

export type AuditType =
  | "permission" | "tool_call" | "decision" | "state_change" | "checkpoint" | "rollback"
  | "error" | "session_start" | "session_end" | "policy" | "trust"
export type AuditActor = "agent" | "user" | "policy" | "guard" | "hook" | "system"
export type AuditResult = "approved" | "denied" | "asked" | "success" | "failed" | "error"

export interface AuditEntry {
  ts: number
  runId: string | null
  callId: string | null
  type: AuditType
  actor: AuditActor
  tool: string | null
  action: string | null
  result: AuditResult | null
  risk: string | null
  autoApproved: boolean | null
  reason: string | null
  /** redacted JSON text */
  data: string | null
}

export interface ChainedRow extends AuditEntry {
  id: number
  prevHash: string
  hash: string
}

/** Hash of a row: id and every field in a fixed order, chained to prevHash. */
export function rowHash(id: number, entry: AuditEntry, prevHash: string): string {
  const fields = [
    id, entry.ts, entry.runId, entry.callId, entry.type, entry.actor, entry.tool, entry.action,
    entry.result, entry.risk, entry.autoApproved, entry.reason, entry.data, prevHash,
  ]
  return createHash("sha256").update(JSON.stringify(fields)).digest("hex")
}
