// Call rows (write-ahead: inserted as intent before the tool runs, completed after), checkpoints and plan rows.
import { and, asc, desc, eq, lt } from "drizzle-orm"
import type { Store } from "./open.ts"
import { calls, checkpoints, planItems } from "./schema.ts"

export type CallRow = typeof calls.$inferSelect
export type NewCall = typeof calls.$inferInsert

// The per-call writes are the runner's hot path: plain prepared statements (cached per connection).
const CALL_COLUMNS = [
  "id", "run_id", "seq", "item_id", "attempt", "tool", "args", "args_hash", "decision", "risk", "decided_by", "status",
  "started_at", "finished_at", "duration_ms", "exit_code", "pgid", "output", "bytes", "error_code", "error_type", "error_message",
] as const
const CALL_FIELDS: Record<string, keyof NewCall> = {
  id: "id", run_id: "runId", seq: "seq", item_id: "itemId", attempt: "attempt", tool: "tool", args: "args", args_hash: "argsHash",
  decision: "decision", risk: "risk", decided_by: "decidedBy", status: "status", started_at: "startedAt", finished_at: "finishedAt",
  duration_ms: "durationMs", exit_code: "exitCode", pgid: "pgid", output: "output", bytes: "bytes", error_code: "errorCode",
  error_type: "errorType", error_message: "errorMessage",
}

export function upsertCall(store: Store, row: NewCall): void {
  const given = CALL_COLUMNS.filter((c) => row[CALL_FIELDS[c]!] !== undefined)
  const sql = `INSERT INTO calls (${given.join(", ")}) VALUES (${given.map(() => "?").join(", ")})
    ON CONFLICT(id) DO UPDATE SET ${given.filter((c) => c !== "id").map((c) => `${c} = excluded.${c}`).join(", ")}`
  store.sqlite.query(sql).run(...given.map((c) => value(row[CALL_FIELDS[c]!])))
}

export function updateCall(store: Store, id: string, patch: Partial<NewCall>): void {
  const given = CALL_COLUMNS.filter((c) => c !== "id" && patch[CALL_FIELDS[c]!] !== undefined)
  if (!given.length) return
  store.sqlite.query(`UPDATE calls SET ${given.map((c) => `${c} = ?`).join(", ")} WHERE id = ?`).run(...given.map((c) => value(patch[CALL_FIELDS[c]!])), id)
}

function value(v: unknown): string | number | null {
  if (v === undefined || v === null) return null
  if (typeof v === "boolean") return v ? 1 : 0
  return v as string | number
}

export function getCall(store: Store, id: string): CallRow | undefined {
  return store.db.select().from(calls).where(eq(calls.id, id)).get()
}

export function callsOf(store: Store, runId: string): CallRow[] {
  return store.db.select().from(calls).where(eq(calls.runId, runId)).orderBy(asc(calls.seq)).all()
}

export function lastCallSeq(store: Store, runId: string): number {
  const row = store.sqlite.query("SELECT max(seq) AS seq FROM calls WHERE run_id = ?").get(runId) as { seq: number | null }
  return row.seq ?? 0
}

/** Calls whose intent was committed but whose result never was: in flight when the process died. */
export function inFlightCalls(store: Store, runId: string): CallRow[] {
  return store.db.select().from(calls).where(and(eq(calls.runId, runId), eq(calls.status, "running"))).all()
}

const KEEP_CHECKPOINTS = 2

/** `json`: the run's state, serialised */
export function saveCheckpoint(store: Store, runId: string, seq: number, json: string): void {
  store.sqlite
    .query("INSERT INTO checkpoints (run_id, seq, created_at, state) VALUES (?, ?, ?, ?) ON CONFLICT(run_id, seq) DO UPDATE SET state = excluded.state, created_at = excluded.created_at")
    .run(runId, seq, Date.now(), json)
  store.sqlite.query("DELETE FROM checkpoints WHERE run_id = ? AND seq < ?").run(runId, seq - KEEP_CHECKPOINTS + 1)
}

export function latestCheckpoint<T>(store: Store, runId: string): { seq: number; state: T } | undefined {
  const row = store.db
    .select()
    .from(checkpoints)
    .where(eq(checkpoints.runId, runId))
    .orderBy(desc(checkpoints.seq))
    .limit(1)
    .get()
  return row ? { seq: row.seq, state: JSON.parse(row.state) as T } : undefined
}

/** A plan item as stored: the rows are the plan's durable form (the checkpoint does not repeat it). */
export interface PlanRow {
  id: string
  title: string
  state: string
  attempts: number
  needs?: string[]
  continueOnError?: boolean
  depth?: number
  note?: string
  waiting?: boolean
  denied?: string
}

/** Upsert plan rows; `position` gives an item's place in the plan (default: its place in `items`). */
export function savePlan(store: Store, runId: string, items: PlanRow[], position: (item: PlanRow) => number = (item) => items.indexOf(item)): void {
  const now = Date.now()
  const upsert = store.sqlite.query(
    `INSERT INTO plan_items (run_id, id, seq, title, state, attempts, updated_at, needs, continue_on_error, depth, note, waiting, denied)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(run_id, id) DO UPDATE SET seq = excluded.seq, title = excluded.title, state = excluded.state,
       attempts = excluded.attempts, updated_at = excluded.updated_at, needs = excluded.needs,
       continue_on_error = excluded.continue_on_error, depth = excluded.depth, note = excluded.note,
       waiting = excluded.waiting, denied = excluded.denied`,
  )
  for (const item of items) {
    upsert.run(
      runId, item.id, position(item), item.title, item.state, item.attempts, now, JSON.stringify(item.needs ?? []),
      item.continueOnError ? 1 : 0, item.depth ?? 0, item.note ?? null, item.waiting ? 1 : 0, item.denied ?? null,
    )
  }
}

/** The stored plan, in order. */
export function loadPlan(store: Store, runId: string): PlanRow[] {
  const rows = store.sqlite
    .query("SELECT id, title, state, attempts, needs, continue_on_error, depth, note, waiting, denied FROM plan_items WHERE run_id = ? ORDER BY seq")
    .all(runId) as { id: string; title: string; state: string; attempts: number; needs: string; continue_on_error: number; depth: number; note: string | null; waiting: number; denied: string | null }[]
  return rows.map((r) => ({
    id: r.id, title: r.title, state: r.state, attempts: r.attempts, needs: JSON.parse(r.needs) as string[],
    continueOnError: r.continue_on_error === 1, depth: r.depth, note: r.note ?? undefined, waiting: r.waiting === 1, denied: r.denied ?? undefined,
  }))
}

export function planOf(store: Store, runId: string): (typeof planItems.$inferSelect)[] {
  return store.db.select().from(planItems).where(eq(planItems.runId, runId)).orderBy(asc(planItems.seq)).all()
}
