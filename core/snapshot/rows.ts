// The snapshots table: which snapshot holds the workspace as it was before which call of a run.
// Each row is written with its audit row in one transaction.
import { appendAudit } from "../audit/write.ts"
import type { Store } from "../store/open.ts"

export interface SnapshotRow {
  id: number
  runId: string
  callId: string | null
  /** the workspace as it was before the call with this seq */
  step: number
  ref: string
  createdAt: number
}

export function recordSnapshot(store: Store, row: Omit<SnapshotRow, "id" | "createdAt">, label: string): void {
  const now = Date.now()
  store.tx(() => {
    store.sqlite
      .query("INSERT INTO snapshots (run_id, call_id, step, ref, created_at) VALUES (?, ?, ?, ?, ?)")
      .run(row.runId, row.callId, row.step, row.ref, now)
    appendAudit(store, {
      ts: now, runId: row.runId, callId: row.callId, type: "checkpoint", actor: "system", action: "snapshot",
      result: "success", reason: label, data: JSON.stringify({ ref: row.ref, step: row.step }),
    })
  })
}

export function snapshotsOf(store: Store, runId: string): SnapshotRow[] {
  return store.sqlite
    .query("SELECT id, run_id AS runId, call_id AS callId, step, ref, created_at AS createdAt FROM snapshots WHERE run_id = ? ORDER BY step, id")
    .all(runId) as SnapshotRow[]
}

/** The snapshot holding the workspace as it was before call `step`: the last one taken at or before it,
 *  or the run's first when `step` comes before every snapshot (nothing had changed yet). Pure. */
export function snapshotBefore(rows: readonly SnapshotRow[], step?: number): SnapshotRow | undefined {
  if (step === undefined) return rows[0]
  let found: SnapshotRow | undefined
  for (const row of rows) if (row.step <= step) found = row
  return found ?? rows[0]
}
