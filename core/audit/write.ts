// Appends audit rows to the chain. Must be called inside the store's write transaction, so the
// "last hash" it reads cannot change under it, even with several processes writing.
import type { Store } from "../store/open.ts"
import { GENESIS, rowHash, type AuditEntry } from "./chain.ts"

export type AuditInput = Partial<AuditEntry> & Pick<AuditEntry, "type" | "actor">

export function appendAudit(store: Store, input: AuditInput): number {
  const entry = normalise(input)
  const last = store.sqlite.query("SELECT id, hash FROM audit ORDER BY id DESC LIMIT 1").get() as
    | { id: number; hash: string }
    | null
  const id = (last?.id ?? 0) + 1
  const prevHash = last?.hash ?? GENESIS
  const hash = rowHash(id, entry, prevHash)
  store.sqlite
    .query(
      `INSERT INTO audit (id, ts, run_id, call_id, type, actor, tool, action, result, risk, auto_approved, reason, data, prev_hash, hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      id, entry.ts, entry.runId, entry.callId, entry.type, entry.actor, entry.tool, entry.action, entry.result,
      entry.risk, entry.autoApproved === null ? null : entry.autoApproved ? 1 : 0, entry.reason, entry.data, prevHash, hash,
    )
  return id
}

function normalise(input: AuditInput): AuditEntry {
  return {
    ts: input.ts ?? Date.now(),
    runId: input.runId ?? null,
    callId: input.callId ?? null,
    type: input.type,
    actor: input.actor,
    tool: input.tool ?? null,
    action: input.action ?? null,
    result: input.result ?? null,
    risk: input.risk ?? null,
    autoApproved: input.autoApproved ?? null,
    reason: input.reason ?? null,
    data: input.data ?? null,
  }
}
