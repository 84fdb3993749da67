// One step's writes on PostgreSQL, in the caller's transaction. Every round trip counts (a step makes
// two commits), so independent statements are pipelined: sent together, executed in order by the
// server, one wait for all. The chain head's lock is sent last, behind the row writes, so a
// transaction takes its row locks before the head's, in the same order as every other writer
// (no deadlock), and holds the head only for the audit insert and the commit.
import { and, eq, sql } from "drizzle-orm"
import { checkpointJson, RequestConflict, runChanged, type CommitUnit, type Settlement } from "../api.ts"
import type { NewCall } from "../../store/calls.ts"
import { appendAuditPg, lockHead } from "./audit.ts"
import type { PgTx } from "./db.ts"
import { agentMessages, calls, events, grants, planItems, requests, runs, snapshots, usage } from "./schema.ts"
import { noNul } from "./text.ts"

const KEEP_CHECKPOINTS = 2

export async function commitUnit(t: PgTx, unit: CommitUnit): Promise<number[]> {
  if (unit.runIs) {
    // the run's row locked first (as every writer takes it before the head), held to the commit
    const [now] = await t.select({ status: runs.status, pid: runs.pid }).from(runs).where(eq(runs.id, unit.runId)).for("update")
    if (now?.status !== unit.runIs.status || now.pid !== unit.runIs.pid) throw runChanged(unit.runId, now)
  }
  // the run's row first, on its own: every other row of the unit refers to it
  if (unit.newRun) await t.insert(runs).values(unit.newRun)
  const writes: Promise<unknown>[] = []
  if (unit.run) writes.push(t.update(runs).set({ ...unit.run, updatedAt: Date.now() }).where(eq(runs.id, unit.runId)))
  for (const call of unit.calls ?? []) writes.push(upsertCall(t, call))
  if (unit.plan?.items.length) {
    const now = Date.now()
    const { items, positions } = unit.plan
    for (const [i, item] of items.entries()) {
      const row = {
        title: item.title, state: item.state, attempts: item.attempts, updatedAt: now, seq: positions?.[i] ?? i,
        needs: JSON.stringify(item.needs ?? []), continueOnError: Boolean(item.continueOnError), depth: item.depth ?? 0,
        note: noNul(item.note ?? null), waiting: Boolean(item.waiting), denied: item.denied ?? null,
      }
      writes.push(t.insert(planItems).values({ runId: unit.runId, id: item.id, ...row }).onConflictDoUpdate({ target: [planItems.runId, planItems.id], set: row }))
    }
  }
  if (unit.checkpoint) {
    const { seq } = unit.checkpoint
    const state = noNul(checkpointJson(unit.checkpoint))
    // one statement: upsert this checkpoint, drop the ones before the last two
    writes.push(
      t.execute(sql`
        WITH saved AS (
          INSERT INTO checkpoints (run_id, seq, created_at, state) VALUES (${unit.runId}, ${seq}, ${Date.now()}, ${state})
          ON CONFLICT (run_id, seq) DO UPDATE SET state = excluded.state, created_at = excluded.created_at)
        DELETE FROM checkpoints WHERE run_id = ${unit.runId} AND seq < ${seq - KEEP_CHECKPOINTS + 1}`),
    )
  }
  if (unit.events?.length) writes.push(t.insert(events).values(unit.events.map((e) => ({ runId: unit.runId, ts: e.ts, type: e.type, data: noNul(e.data) }))))
  if (unit.messages?.length) writes.push(t.insert(agentMessages).values(unit.messages.map((m) => ({ runId: unit.runId, seq: m.seq, message: noNul(m.message) }))))
  if (unit.usage?.length) writes.push(t.insert(usage).values(unit.usage.map((u) => ({ runId: unit.runId, ...u }))))
  const now = Date.now()
  if (unit.snapshots?.length) writes.push(t.insert(snapshots).values(unit.snapshots.map((s) => ({ runId: unit.runId, ...s, createdAt: now }))))
  if (unit.requests?.length) writes.push(t.insert(requests).values(unit.requests.map((r) => ({ ...r, title: noNul(r.title), detail: noNul(r.detail ?? null) }))))
  if (unit.grants?.length) writes.push(t.insert(grants).values(unit.grants))
  // call patches and settlements take several statements each, some after a result: they finish
  // before the head is locked, so no row lock is ever taken while holding the head
  const ordered = Boolean(unit.callPatches?.length || unit.settlements?.length)
  if (ordered) {
    await Promise.all(writes)
    writes.length = 0
    for (const { id, patch } of unit.callPatches ?? []) {
      const set = given(patch)
      if (Object.keys(set).length) await t.update(calls).set(set).where(eq(calls.id, id))
    }
    await settleAll(t, unit.settlements ?? [])
  }
  // drizzle sends a query when it is awaited: the batch first, then the lock behind it
  const batch = Promise.all(writes)
  const head = unit.audit?.length ? lockHead(t) : undefined
  // a failed write rejects the batch first; the lock's own failure then is the same abort
  head?.catch(() => {})
  await batch
  return appendAuditPg(t, unit.audit ?? [], head)
}

// only the fields given are written: a settle never blanks what the intent row recorded
async function upsertCall(t: PgTx, row: NewCall): Promise<void> {
  const clean = given(row) as typeof calls.$inferInsert
  const { id: _id, ...set } = clean
  await t.insert(calls).values(clean).onConflictDoUpdate({ target: calls.id, set })
}

function given(row: Partial<NewCall>): Partial<typeof calls.$inferInsert> {
  return Object.fromEntries(
    Object.entries(row)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, typeof v === "string" ? noNul(v) : v]),
  )
}

// the conditional update is the settlement: of two machines settling at once, one wins
export async function settleAll(t: PgTx, settlements: Settlement[]): Promise<void> {
  for (const s of settlements) {
    const done = await t
      .update(requests)
      .set({ status: s.status, answer: noNul(s.answer ?? null), forRun: s.forRun ?? false, settledBy: s.settledBy, settledAt: Date.now() })
      .where(and(eq(requests.id, s.id), eq(requests.status, "pending")))
      .returning({ id: requests.id })
    if (!done.length) {
      const [current] = await t.select({ status: requests.status }).from(requests).where(eq(requests.id, s.id))
      throw new RequestConflict(`request ${s.id} is ${current ? `already ${current.status}` : "unknown"}`)
    }
  }
}
