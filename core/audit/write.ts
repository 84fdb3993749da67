// Appends audit rows to the chain. Must be called inside the store's write transaction, so the
// head it reads cannot change under it, even with several processes writing. Never redacts: callers
// hand it redacted data.
import type { SqliteStore as Store } from "../store/sqlite.ts"
import { GENESIS, rowHash, type AuditEntry } from "./chain.ts"

export type AuditInput = Partial<AuditEntry> & Pick<AuditEntry, "type" | "actor">

export function appendAudit(store: Store, input: AuditInput): number {
  return appendAuditRows(store, [input])[0]!
}

/** Several rows in order, reading and writing the chain head once (a call's commit, a bulk import). */
export function appendAuditRows(store: Store, inputs: readonly AuditInput[]): number[] {
  if (!inputs.length) return []
  const head = store.sqlite.query("SELECT last_id AS lastId, hash FROM audit_head WHERE id = 1").get() as
    | { lastId: number; hash: string }
    | null
  // The head, not the table, says what the last hash was: after someone deletes the last row, new
  // rows still link to the deleted one and verify sees the gap.
  let link = head ? { id: head.lastId + 1, prevHash: head.hash } : fromTable(store)
  const ids: number[] = []
  for (const input of inputs) {
    const entry = normalise(input)
    let id = link.id
    let hash = rowHash(id, entry, link.prevHash)
    try {
      insert(store, id, entry, link.prevHash, hash)
    } catch (error) {
      if (!/constraint/i.test((error as Error).message)) throw error
      // a row inserted past the head by hand holds this id: step over it, verify will name it
      id = fromTable(store).id
      hash = rowHash(id, entry, link.prevHash)
      insert(store, id, entry, link.prevHash, hash)
    }
    ids.push(id)
    link = { id: id + 1, prevHash: hash }
  }
  store.sqlite
    .query("INSERT INTO audit_head (id, last_id, hash) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET last_id = excluded.last_id, hash = excluded.hash")
    .run(link.id - 1, link.prevHash)
  return ids
}

/** The next link from the table itself: a database from before audit_head, or a head that was stepped over. */
function fromTable(store: Store): { id: number; prevHash: string } {
  const last = store.sqlite.query("SELECT id, hash FROM audit ORDER BY id DESC LIMIT 1").get() as { id: number; hash: string } | null
  return { id: (last?.id ?? 0) + 1, prevHash: last?.hash ?? GENESIS }
}

function insert(store: Store, id: number, entry: AuditEntry, prevHash: string, hash: string): void {
  store.sqlite
    .query(
      `INSERT INTO audit (id, ts, run_id, call_id, type, actor, tool, action, result, risk, auto_approved, reason, data, prev_hash, hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      id, entry.ts, entry.runId, entry.callId, entry.type, entry.actor, entry.tool, entry.action, entry.result,
      entry.risk, entry.autoApproved === null ? null : entry.autoApproved ? 1 : 0, entry.reason, entry.data, prevHash, hash,
    )
}

/** An input with every field present (null when not given): what the row hash is computed over. */
export function normalise(input: AuditInput): AuditEntry {
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
