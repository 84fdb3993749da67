// Appends audit rows to the chain. Must be called inside the store's write transaction, so the
// head it reads cannot change under it, even with several processes writing. Never redacts: callers
// hand it redacted data.
import type { SqliteStore as Store } from "../store/sqlite.ts"
import { GENESIS, rowHash, type AuditEntry } from "./chain.ts"

export type AuditInput = Partial<AuditEntry> & Pick<AuditEntry, "type" | "actor">

export function appendAudit(store: Store, input: AuditInput): number {
  const entry = normalise(input)
  const { id, prevHash } = nextLink(store)
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
  store.sqlite
    .query("INSERT INTO audit_head (id, last_id, hash) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET last_id = excluded.last_id, hash = excluded.hash")
    .run(id, hash)
  return id
}

/**
 * Where the next row goes. The head, not the table, says what the last hash was: after someone
 * deletes the last row, new rows still link to the deleted one and verify sees the gap. A row
 * inserted past the head (by hand) pushes the id on, so appends never fail on a tampered table.
 */
function nextLink(store: Store): { id: number; prevHash: string } {
  const head = store.sqlite.query("SELECT last_id AS lastId, hash FROM audit_head WHERE id = 1").get() as
    | { lastId: number; hash: string }
    | null
  const last = store.sqlite.query("SELECT id, hash FROM audit ORDER BY id DESC LIMIT 1").get() as
    | { id: number; hash: string }
    | null
  if (!head) return { id: (last?.id ?? 0) + 1, prevHash: last?.hash ?? GENESIS } // a database from before audit_head
  return { id: Math.max(head.lastId, last?.id ?? 0) + 1, prevHash: head.hash }
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
