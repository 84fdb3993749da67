// Call rows (write-ahead: inserted as intent before the tool runs, completed after), checkpoints and plan rows.
import { and, asc, desc, eq, lt } from "drizzle-orm"
import type { Store } from "./open.ts"
import { calls, checkpoints, planItems } from "./schema.ts"

export type CallRow = typeof calls.$inferSelect
export type NewCall = typeof calls.$inferInsert

export function upsertCall(store: Store, row: NewCall): void {
  store.db.insert(calls).values(row).onConflictDoUpdate({ target: calls.id, set: row }).run()
}

export function updateCall(store: Store, id: string, patch: Partial<NewCall>): void {
  store.db.update(calls).set(patch).where(eq(calls.id, id)).run()
}

export function getCall(store: Store, id: string): CallRow | undefined {
  return store.db.select().from(calls).where(eq(calls.id, id)).get()
}

export function callsOf(store: Store, runId: string): CallRow[] {
  return store.db.select().from(calls).where(eq(calls.runId, runId)).orderBy(asc(calls.seq)).all()
}

/** Calls whose intent was committed but whose result never was: in flight when the process died. */
export function inFlightCalls(store: Store, runId: string): CallRow[] {
  return store.db.select().from(calls).where(and(eq(calls.runId, runId), eq(calls.status, "running"))).all()
}

const KEEP_CHECKPOINTS = 2

export function saveCheckpoint(store: Store, runId: string, seq: number, state: unknown): void {
  const json = JSON.stringify(state)
  store.db
    .insert(checkpoints)
    .values({ runId, seq, createdAt: Date.now(), state: json })
    .onConflictDoUpdate({ target: [checkpoints.runId, checkpoints.seq], set: { state: json, createdAt: Date.now() } })
    .run()
  store.db.delete(checkpoints).where(and(eq(checkpoints.runId, runId), lt(checkpoints.seq, seq - KEEP_CHECKPOINTS + 1))).run()
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

export interface PlanRow {
  id: string
  title: string
  state: string
  attempts: number
}

export function savePlan(store: Store, runId: string, items: PlanRow[]): void {
  const now = Date.now()
  items.forEach((item, seq) => {
    store.db
      .insert(planItems)
      .values({ runId, id: item.id, seq, title: item.title, state: item.state, attempts: item.attempts, updatedAt: now })
      .onConflictDoUpdate({
        target: [planItems.runId, planItems.id],
        set: { state: item.state, attempts: item.attempts, title: item.title, seq, updatedAt: now },
      })
      .run()
  })
}

export function planOf(store: Store, runId: string): (typeof planItems.$inferSelect)[] {
  return store.db.select().from(planItems).where(eq(planItems.runId, runId)).orderBy(asc(planItems.seq)).all()
}
