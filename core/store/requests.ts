// Requests for a person (approval, question, breakpoint, in-flight call) and run grants.
import { and, asc, eq } from "drizzle-orm"
import type { Store } from "./open.ts"
import { grants, requests } from "./schema.ts"

export type RequestRow = typeof requests.$inferSelect
export type RequestKind = "approval" | "question" | "breakpoint" | "in_flight"
export type RequestStatus = "pending" | "approved" | "denied" | "answered" | "cancelled"

export function insertRequest(store: Store, row: typeof requests.$inferInsert): void {
  store.db.insert(requests).values(row).run()
}

export function getRequest(store: Store, id: string): RequestRow | undefined {
  return store.db.select().from(requests).where(eq(requests.id, id)).get()
}

export function requestsOf(store: Store, runId: string, status?: RequestStatus): RequestRow[] {
  const where = status ? and(eq(requests.runId, runId), eq(requests.status, status)) : eq(requests.runId, runId)
  return store.db.select().from(requests).where(where).orderBy(asc(requests.createdAt), asc(requests.id)).all()
}

export function settleRequest(
  store: Store,
  id: string,
  patch: { status: RequestStatus; answer?: string | null; forRun?: boolean; settledBy: string },
): void {
  store.db
    .update(requests)
    .set({ ...patch, settledAt: Date.now() })
    .where(and(eq(requests.id, id), eq(requests.status, "pending")))
    .run()
}

export function insertGrant(store: Store, row: typeof grants.$inferInsert): void {
  store.db.insert(grants).values(row).run()
}
