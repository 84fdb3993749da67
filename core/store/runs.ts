// Run rows: create, update, find (by id or unique prefix), list, delete.
import { desc, eq, inArray, like } from "drizzle-orm"
import type { Store } from "./open.ts"
import { runs } from "./schema.ts"

export type RunRow = typeof runs.$inferSelect
export type { RunStatus } from "./schema.ts"
import type { RunStatus } from "./schema.ts"
export const TERMINAL: RunStatus[] = ["completed", "failed", "cancelled"]

export function insertRun(store: Store, row: typeof runs.$inferInsert): void {
  store.db.insert(runs).values(row).run()
}

export function updateRun(store: Store, id: string, patch: Partial<typeof runs.$inferInsert>): void {
  store.db.update(runs).set({ ...patch, updatedAt: Date.now() }).where(eq(runs.id, id)).run()
}

export class RunNotFound extends Error {
  readonly exitCode = 2
}

/** A run by full id or unique prefix. */
export function findRun(store: Store, idOrPrefix: string): RunRow {
  const exact = store.db.select().from(runs).where(eq(runs.id, idOrPrefix)).get()
  if (exact) return exact
  const matches = store.db.select().from(runs).where(like(runs.id, `${idOrPrefix.replace(/[%_]/g, "")}%`)).limit(2).all()
  if (matches.length === 1) return matches[0]!
  if (matches.length > 1) throw new RunNotFound(`run id "${idOrPrefix}" is ambiguous; give more characters`)
  throw new RunNotFound(`no run "${idOrPrefix}" in ${store.path}; see \`ccode runs ls\``)
}

export function listRuns(store: Store, limit = 50, status?: RunStatus): RunRow[] {
  const query = store.db.select().from(runs)
  const filtered = status ? query.where(eq(runs.status, status)) : query
  return filtered.orderBy(desc(runs.createdAt), desc(runs.id)).limit(limit).all()
}

/** The newest run that can be resumed. */
export function lastResumable(store: Store): RunRow | undefined {
  return store.db
    .select()
    .from(runs)
    .where(inArray(runs.status, ["running", "paused", "stopped", "interrupted", "denied"]))
    .orderBy(desc(runs.updatedAt), desc(runs.id))
    .limit(1)
    .get()
}
