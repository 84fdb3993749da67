// The audit hash chain: each row's hash covers its own fields and the previous row's hash. Pure.

export const GENESIS = "0".repeat(64)

export const AUDIT_TYPES = [
  "permission", "tool_call", "decision", "state_change", "checkpoint", "rollback",
  "error", "session_start", "session_end", "policy", "trust",
] as const
export type AuditType = (typeof AUDIT_TYPES)[number]
export const AUDIT_ACTORS = ["agent", "user", "policy", "guard", "hook", "system"] as const
export type AuditActor = (typeof AUDIT_ACTORS)[number]
export const AUDIT_RESULTS = ["approved", "denied", "asked", "success", "failed", "error"] as const
export type AuditResult = (typeof AUDIT_RESULTS)[number]

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
  return new Bun.CryptoHasher("sha256").update(`[${JSON.stringify(id)},${hashedFields(entry)},${JSON.stringify(prevHash)}]`).digest("hex")
}

/**
 * The hashed text of a row's own fields: the JSON array of the hash, without its brackets, its first
 * element (the id) and its last (prevHash). A database that assigns ids under its own lock hashes
 * `[id,` + this + `,"prevHash"]` itself (the PostgreSQL store's one-statement step commit).
 */
export function hashedFields(entry: AuditEntry): string {
  const fields = [
    entry.ts, entry.runId, entry.callId, entry.type, entry.actor, entry.tool, entry.action,
    entry.result, entry.risk, entry.autoApproved, entry.reason, entry.data,
  ]
  return JSON.stringify(fields).slice(1, -1)
}
