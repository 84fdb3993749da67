// The RunStore on PostgreSQL: drizzle pg-core over Bun's SQL client. Opening checks the schema and
// refuses a database that is behind (`ccode db migrate` first) or newer; it never migrates.
import { and, asc, desc, eq, inArray, like, sql } from "drizzle-orm"
import { RequestConflict, type CommitUnit, type NewRun, type PruneCandidate, type RunStore, type Settlement } from "../api.ts"
import type { CallRow, NewCall, PlanRow } from "../calls.ts"
import type { RequestRow } from "../requests.ts"
import { RunNotFound, type RunRow } from "../runs.ts"
import { StoreError } from "../sqlite.ts"
import { redactUrl } from "../target.ts"
import { appendAuditPg, queryAuditPg, verifyAuditPg } from "./audit.ts"
import { pgClient, pgDb, type PgTx } from "./db.ts"
import { behindSchema, newerSchema, pgSchemaStatus } from "./migrate.ts"
import { calls, checkpoints, events, grants, planItems, requests, runs, snapshots, trust } from "./schema.ts"
import { noNul } from "./text.ts"

const KEEP_CHECKPOINTS = 2
const RESUMABLE = ["running", "paused", "stopped", "interrupted", "denied"]

export async function openPgRunStore(url: string): Promise<RunStore> {
  const location = redactUrl(url)
  const client = pgClient(url)
  try {
    const status = await pgSchemaStatus(client, location)
    if (status.state === "behind") throw behindSchema(status)
    if (status.state === "newer") throw newerSchema(status)
  } catch (error) {
    await client.close()
    throw error instanceof StoreError ? error : pgProblem(error, location)
  }
  const db = pgDb(client)
  const tx = <T>(fn: (tx: PgTx) => Promise<T>): Promise<T> => db.transaction(fn)

  return {
    backend: "postgres",
    location,
    close: () => client.close(),

    createRun: async (row) => void (await db.insert(runs).values(row as NewRun)),
    updateRun: async (id, patch) => void (await db.update(runs).set({ ...patch, updatedAt: Date.now() }).where(eq(runs.id, id))),
    findRun: async (idOrPrefix) => {
      const [exact] = await db.select().from(runs).where(eq(runs.id, idOrPrefix))
      if (exact) return exact as RunRow
      const matches = await db.select().from(runs).where(like(runs.id, `${idOrPrefix.replace(/[%_\\]/g, "")}%`)).limit(2)
      if (matches.length === 1) return matches[0] as RunRow
      if (matches.length > 1) throw new RunNotFound(`run id "${idOrPrefix}" is ambiguous; give more characters`)
      throw new RunNotFound(`no run "${idOrPrefix}" in ${location}; see \`ccode runs ls\``)
    },
    listRuns: async ({ limit = 50, status } = {}) =>
      (await db.select().from(runs).where(status ? eq(runs.status, status) : undefined).orderBy(desc(runs.createdAt), desc(runs.id)).limit(limit)) as RunRow[],
    lastResumable: async () => {
      const [row] = await db.select().from(runs).where(inArray(runs.status, RESUMABLE)).orderBy(desc(runs.updatedAt), desc(runs.id)).limit(1)
      return row as RunRow | undefined
    },
    pruneCandidates: async () =>
      (await db.execute(sql`SELECT r.id, r.task, r.status, r.pid,
            greatest(r.updated_at, coalesce((SELECT max(c.created_at) FROM checkpoints c WHERE c.run_id = r.id), 0)) AS "touchedAt"
          FROM runs r ORDER BY r.created_at`)).map((r) => ({ ...r, touchedAt: Number(r.touchedAt) }) as PruneCandidate),
    deleteRuns: async (ids) => {
      if (!ids.length) return []
      return tx(async (t) => {
        const refs = await t.selectDistinct({ ref: snapshots.ref }).from(snapshots).where(inArray(snapshots.runId, ids))
        await t.delete(runs).where(inArray(runs.id, ids))
        return refs.map((r) => r.ref)
      })
    },

    commit: (unit) => tx((t) => commitUnit(t, unit)),
    getCall: async (id) => (await db.select().from(calls).where(eq(calls.id, id)))[0] as CallRow | undefined,
    callsOf: async (runId) => (await db.select().from(calls).where(eq(calls.runId, runId)).orderBy(asc(calls.seq))) as CallRow[],
    lastCallSeq: async (runId) => {
      const [row] = await db.select({ seq: sql<number | null>`max(${calls.seq})` }).from(calls).where(eq(calls.runId, runId))
      return Number(row?.seq ?? 0)
    },
    inFlightCalls: async (runId) => (await db.select().from(calls).where(and(eq(calls.runId, runId), eq(calls.status, "running")))) as CallRow[],
    latestCheckpoint: async <T>(runId: string) => {
      const [row] = await db.select().from(checkpoints).where(eq(checkpoints.runId, runId)).orderBy(desc(checkpoints.seq)).limit(1)
      return row ? { seq: row.seq, state: JSON.parse(row.state) as T } : undefined
    },
    loadPlan: async (runId) => {
      const rows = await db.select().from(planItems).where(eq(planItems.runId, runId)).orderBy(asc(planItems.seq))
      return rows.map((r): PlanRow => ({
        id: r.id, title: r.title, state: r.state, attempts: r.attempts, needs: JSON.parse(r.needs) as string[],
        continueOnError: r.continueOnError, depth: r.depth, note: r.note ?? undefined, waiting: r.waiting, denied: r.denied ?? undefined,
      }))
    },
    runEvents: async (runId) =>
      (await db.select({ data: events.data }).from(events).where(eq(events.runId, runId)).orderBy(asc(events.id))).map((r) => JSON.parse(r.data) as Record<string, unknown>),

    getRequest: async (id) => (await db.select().from(requests).where(eq(requests.id, id)))[0] as RequestRow | undefined,
    requestsOf: async (runId, status) =>
      (await db
        .select()
        .from(requests)
        .where(status ? and(eq(requests.runId, runId), eq(requests.status, status)) : eq(requests.runId, runId))
        .orderBy(asc(requests.createdAt), asc(requests.id))) as RequestRow[],
    settleRequests: (settlements, auditRows) =>
      tx(async (t) => {
        await settleAll(t, settlements)
        await appendAuditPg(t, auditRows)
      }),

    isTrusted: async (workspace, path, hash) => {
      const [row] = await db.select({ hash: trust.hash }).from(trust).where(and(eq(trust.workspace, workspace), eq(trust.path, path)))
      return row?.hash === hash
    },
    recordTrust: (workspace, path, hash, auditRow) =>
      tx(async (t) => {
        await t
          .insert(trust)
          .values({ workspace, path, hash, trustedAt: Date.now() })
          .onConflictDoUpdate({ target: [trust.workspace, trust.path], set: { hash, trustedAt: Date.now() } })
        if (auditRow) await appendAuditPg(t, [auditRow])
      }),
    revokeTrust: (workspace, path, auditRow) =>
      tx(async (t) => {
        const removed = await t.delete(trust).where(and(eq(trust.workspace, workspace), eq(trust.path, path))).returning({ path: trust.path })
        if (removed.length && auditRow) await appendAuditPg(t, [auditRow])
        return removed.length > 0
      }),
    trustedFiles: async () => db.select().from(trust).orderBy(asc(trust.workspace), asc(trust.path)),

    appendAudit: (rows) => tx((t) => appendAuditPg(t, rows)),
    queryAudit: (filter) => queryAuditPg(db, filter),
    verifyAudit: () => verifyAuditPg(db),

    schemaStatus: () => pgSchemaStatus(client, location),
  }
}

async function commitUnit(t: PgTx, unit: CommitUnit): Promise<number[]> {
  if (unit.run) await t.update(runs).set({ ...unit.run, updatedAt: Date.now() }).where(eq(runs.id, unit.runId))
  for (const call of unit.calls ?? []) await upsertCall(t, call)
  for (const { id, patch } of unit.callPatches ?? []) {
    const set = given(patch)
    if (Object.keys(set).length) await t.update(calls).set(set).where(eq(calls.id, id))
  }
  if (unit.plan?.items.length) {
    const now = Date.now()
    const { items, positions } = unit.plan
    for (const [i, item] of items.entries()) {
      const row = {
        title: item.title, state: item.state, attempts: item.attempts, updatedAt: now, seq: positions?.[i] ?? i,
        needs: JSON.stringify(item.needs ?? []), continueOnError: Boolean(item.continueOnError), depth: item.depth ?? 0,
        note: noNul(item.note ?? null), waiting: Boolean(item.waiting), denied: item.denied ?? null,
      }
      await t.insert(planItems).values({ runId: unit.runId, id: item.id, ...row }).onConflictDoUpdate({ target: [planItems.runId, planItems.id], set: row })
    }
  }
  if (unit.checkpoint) {
    const { seq } = unit.checkpoint
    const state = noNul(JSON.stringify(unit.checkpoint.state))
    // one statement (one round trip): upsert this checkpoint, drop the ones before the last two
    await t.execute(sql`
      WITH saved AS (
        INSERT INTO checkpoints (run_id, seq, created_at, state) VALUES (${unit.runId}, ${seq}, ${Date.now()}, ${state})
        ON CONFLICT (run_id, seq) DO UPDATE SET state = excluded.state, created_at = excluded.created_at)
      DELETE FROM checkpoints WHERE run_id = ${unit.runId} AND seq < ${seq - KEEP_CHECKPOINTS + 1}`)
  }
  if (unit.events?.length) await t.insert(events).values(unit.events.map((e) => ({ runId: unit.runId, ts: e.ts, type: e.type, data: noNul(e.data) })))
  const ids = await appendAuditPg(t, unit.audit ?? [])
  if (unit.requests?.length) await t.insert(requests).values(unit.requests.map((r) => ({ ...r, title: noNul(r.title), detail: noNul(r.detail ?? null) })))
  await settleAll(t, unit.settlements ?? [])
  if (unit.grants?.length) await t.insert(grants).values(unit.grants)
  return ids
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
async function settleAll(t: PgTx, settlements: Settlement[]): Promise<void> {
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

/** A connection failure as a clear error (exit 2), with the URL's password hidden. */
export function pgProblem(error: unknown, location: string): StoreError {
  const message = (error as Error)?.message ?? String(error)
  return new StoreError(`cannot use PostgreSQL database ${location}: ${message} (check --db / CCODE_DB)`)
}
