// The snapshots table: which snapshot holds the workspace as it was before which call of a run.
// Each row is written with its audit row in one transaction. The snapshots themselves (the shadow
// repository under CCODE_HOME) never leave the machine that took them; the rows go where the run's
// rows go (this machine's SQLite file, or a shared PostgreSQL database).
import { appendAudit, type AuditInput } from "../audit/write.ts"
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

/** Where a run's snapshot rows and their audit rows are recorded. */
export interface SnapshotLog {
  /** the ref of the run's last snapshot so far (a resumed run has some) */
  lastRef(runId: string): Promise<string | undefined>
  record(row: Omit<SnapshotRow, "id" | "createdAt">, label: string): Promise<void>
  /** a snapshot that could not be taken: its audit row */
  failed(at: { runId: string; callId: string }, message: string): Promise<void>
}

/** This machine's SQLite file: each row at once, in its own transaction. */
export function localSnapshotLog(store: Store): SnapshotLog {
  return {
    lastRef: async (runId) => snapshotsOf(store, runId).at(-1)?.ref,
    record: async (row, label) => recordSnapshot(store, row, label),
    failed: async ({ runId, callId }, message) => store.tx(() => void appendAudit(store, failedRow(runId, callId, message))),
  }
}

/**
 * With the step's own commit (the call's intent, or its result): the rows land in the run's store,
 * whichever it is, in the transaction of the step that took the snapshot. `stage` and `audit` are
 * the run's recorder's. `holds`: is a ref in this machine's shadow repository? A run resumed on
 * another machine has its earlier snapshots there only: here it starts over with a snapshot of its own
 * before its next writing call, so undo here reaches back to where this machine took the run up.
 */
export function stepSnapshotLog(
  snapshotsOf: (runId: string) => Promise<{ ref: string }[]>,
  recorder: { stage(writes: { snapshots: { callId: string | null; step: number; ref: string }[] }): void; audit(row: Omit<AuditInput, "runId" | "data"> & { data?: unknown }): void },
  holds: (ref: string) => boolean,
): SnapshotLog {
  return {
    lastRef: async (runId) => {
      const last = (await snapshotsOf(runId)).at(-1)?.ref
      return last && holds(last) ? last : undefined
    },
    record: async (row, label) => {
      recorder.stage({ snapshots: [{ callId: row.callId, step: row.step, ref: row.ref }] })
      recorder.audit({ ts: Date.now(), callId: row.callId, type: "checkpoint", actor: "system", action: "snapshot", result: "success", reason: label, data: { ref: row.ref, step: row.step } })
    },
    failed: async ({ runId, callId }, message) => {
      const { runId: _run, ...row } = failedRow(runId, callId, message)
      recorder.audit(row)
    },
  }
}

function failedRow(runId: string, callId: string, message: string): AuditInput {
  return { runId, callId, type: "error", actor: "system", action: "snapshot", result: "error", reason: message }
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
