// The RunStore on PostgreSQL: drizzle pg-core over Bun's SQL client. Opening checks the schema and
// refuses a database that is behind (`ccode db migrate` first) or newer; it never migrates.
import { and, asc, desc, eq, inArray, isNull, like, sql } from "drizzle-orm"
import { inSlices, type NewRun, type PruneCandidate, type RunStore } from "../api.ts"
import type { CallRow, PlanRow } from "../../store/calls.ts"
import type { RequestRow } from "../../store/requests.ts"
import { RunNotFound, type RunRow } from "../../store/runs.ts"
import { StoreError } from "../../store/sqlite.ts"
import { redactUrl } from "../../store/target.ts"
import { appendAuditPg, queryAuditPg, resolveAuditRunPg, verifyAuditPg } from "./audit.ts"
import { commitUnit, settleAll } from "./commit.ts"
import { pgClient, pgDb, type PgTx } from "./db.ts"
import { appendStatement, commitStatement } from "./step.ts"
import { behindSchema, newerSchema, pgSchemaStatus } from "./migrate.ts"
import { agentMessages, calls, checkpoints, events, planItems, requests, runs, snapshots, trust, usage } from "./schema.ts"

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
    claimRun: async (id, expected, patch) => {
      const claimed = await db
        .update(runs)
        .set({ ...patch, updatedAt: Date.now() })
        .where(and(eq(runs.id, id), eq(runs.status, expected.status), expected.pid === null ? isNull(runs.pid) : eq(runs.pid, expected.pid)))
        .returning({ id: runs.id })
      return claimed.length === 1
    },
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
      (await db.execute(sql`SELECT r.id, r.task, r.status, r.pid, r.host,
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

    commit: async (unit) =>
      (await commitStatement(client, unit)) ??
      tx(async (t) => {
        if (unit.relaxed && !unit.audit?.length && !unit.checkpoint) await t.execute(sql`SET LOCAL synchronous_commit TO OFF`)
        return commitUnit(t, unit)
      }),
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
    messagesOf: async (runId) =>
      db.select({ seq: agentMessages.seq, message: agentMessages.message }).from(agentMessages).where(eq(agentMessages.runId, runId)).orderBy(asc(agentMessages.seq)),
    usageOf: async (runId) =>
      db
        .select({ turn: usage.turn, model: usage.model, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, cost: usage.cost, createdAt: usage.createdAt })
        .from(usage)
        .where(eq(usage.runId, runId))
        .orderBy(asc(usage.id)),
    snapshotsOf: async (runId) => db.select().from(snapshots).where(eq(snapshots.runId, runId)).orderBy(asc(snapshots.step), asc(snapshots.id)),
    snapshotRefsInUse: async (refs) =>
      new Set((await inSlices(refs, (slice) => db.selectDistinct({ ref: snapshots.ref }).from(snapshots).where(inArray(snapshots.ref, slice)))).map((r) => r.ref)),
    runEvents: async (runId, type) =>
      (await db.select({ data: events.data }).from(events).where(type === undefined ? eq(events.runId, runId) : and(eq(events.runId, runId), eq(events.type, type))).orderBy(asc(events.id))).map((r) => JSON.parse(r.data) as Record<string, unknown>),

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
    setTrust: (files, auditRow) =>
      tx(async (t) => {
        const changed: boolean[] = []
        for (const f of files) {
          if (f.hash === null) {
            const removed = await t.delete(trust).where(and(eq(trust.workspace, f.workspace), eq(trust.path, f.path))).returning({ path: trust.path })
            changed.push(removed.length > 0)
            continue
          }
          await t.insert(trust).values({ workspace: f.workspace, path: f.path, hash: f.hash, trustedAt: Date.now() })
            .onConflictDoUpdate({ target: [trust.workspace, trust.path], set: { hash: f.hash, trustedAt: Date.now() } })
          changed.push(true)
        }
        await appendAuditPg(t, [auditRow(changed)])
        return changed
      }),

    appendAudit: async (rows) => (await appendStatement(client, rows)) ?? tx((t) => appendAuditPg(t, rows)),
    queryAudit: (filter) => queryAuditPg(db, filter),
    resolveAuditRun: (idOrPrefix) => resolveAuditRunPg(db, idOrPrefix, location),
    verifyAudit: () => verifyAuditPg(db),

    schemaStatus: () => pgSchemaStatus(client, location),
  }
}

/** A connection failure as a clear error (exit 2), with the URL's password hidden. */
export function pgProblem(error: unknown, location: string): StoreError {
  const message = (error as Error)?.message ?? String(error)
  return new StoreError(`cannot use PostgreSQL database ${location}: ${message} (check --db / CCODE_DB)`)
}
