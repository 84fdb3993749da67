// The RunStore over SQLite: the synchronous functions of core/store and core/audit, each call in an
// async method, every multi-row write in one IMMEDIATE transaction (store.tx).
import { Database } from "bun:sqlite"
import { existsSync } from "node:fs"
import { and, asc, eq, inArray } from "drizzle-orm"
import { appendAuditRows } from "../audit/write.ts"
import { queryAudit, resolveAuditRun } from "../audit/query.ts"
import { verifyStore } from "../audit/verify.ts"
import { checkpointJson, inSlices, RequestConflict, runChanged, type CommitUnit, type PruneCandidate, type RunStore, type SchemaStatus, type Settlement } from "./api.ts"
import { callsOf, getCall, inFlightCalls, lastCallSeq, latestCheckpoint, loadPlan, saveCheckpoint, savePlan, updateCall, upsertCall } from "../store/calls.ts"
import { migrations } from "../store/migrations.gen.ts"
import { openStore, type OpenOptions, type Store } from "../store/open.ts"
import { getRequest, insertGrant, insertRequest, requestsOf, settleRequest } from "../store/requests.ts"
import { findRun, insertRun, lastResumable, listRuns, updateRun } from "../store/runs.ts"
import { agentMessages, events, runs, snapshots, usage } from "../store/schema.ts"
import { isTrustedFile, recordTrust, revokeTrust, trustedFiles } from "../store/trust.ts"

export function openSqliteRunStore(path: string, opts: OpenOptions = {}): RunStore {
  return sqliteRunStore(openStore(path, opts))
}

export function sqliteRunStore(store: Store): RunStore {
  const { db } = store
  return {
    backend: "sqlite",
    location: store.path,
    close: async () => store.close(),

    createRun: async (row) => insertRun(store, row),
    updateRun: async (id, patch) => updateRun(store, id, patch),
    claimRun: async (id, expected, patch) =>
      store.tx(() => {
        const current = db.select({ status: runs.status, pid: runs.pid }).from(runs).where(eq(runs.id, id)).get()
        if (current?.status !== expected.status || current.pid !== expected.pid) return false
        updateRun(store, id, patch)
        return true
      }),
    findRun: async (idOrPrefix) => findRun(store, idOrPrefix),
    listRuns: async (opts = {}) => listRuns(store, opts.limit, opts.status),
    lastResumable: async () => lastResumable(store),
    pruneCandidates: async () =>
      store.sqlite
        .query(
          `SELECT r.id, r.task, r.status, r.pid, r.host,
                  max(r.updated_at, coalesce((SELECT max(c.created_at) FROM checkpoints c WHERE c.run_id = r.id), 0)) AS touchedAt
           FROM runs r ORDER BY r.created_at`,
        )
        .all() as PruneCandidate[],
    deleteRuns: async (ids) => {
      if (!ids.length) return []
      return store.tx(() => {
        const refs = db.selectDistinct({ ref: snapshots.ref }).from(snapshots).where(inArray(snapshots.runId, ids)).all()
        db.delete(runs).where(inArray(runs.id, ids)).run()
        return refs.map((r) => r.ref)
      })
    },

    // a lone call patch (a running tool's pgid or exit status, once or twice per step) is one
    // statement: atomic by itself, without the cost of an IMMEDIATE transaction around it
    commit: async (unit) => (isLonePatch(unit) ? commitUnit(store, unit) : store.tx(() => commitUnit(store, unit))),
    getCall: async (id) => getCall(store, id),
    callsOf: async (runId) => callsOf(store, runId),
    lastCallSeq: async (runId) => lastCallSeq(store, runId),
    inFlightCalls: async (runId) => inFlightCalls(store, runId),
    latestCheckpoint: async (runId) => latestCheckpoint(store, runId),
    loadPlan: async (runId) => loadPlan(store, runId),
    messagesOf: async (runId) =>
      db.select({ seq: agentMessages.seq, message: agentMessages.message }).from(agentMessages).where(eq(agentMessages.runId, runId)).orderBy(asc(agentMessages.seq)).all(),
    usageOf: async (runId) =>
      db
        .select({ turn: usage.turn, model: usage.model, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, cost: usage.cost, createdAt: usage.createdAt })
        .from(usage)
        .where(eq(usage.runId, runId))
        .orderBy(asc(usage.id))
        .all(),
    snapshotsOf: async (runId) => db.select().from(snapshots).where(eq(snapshots.runId, runId)).orderBy(asc(snapshots.step), asc(snapshots.id)).all(),
    snapshotRefsInUse: async (refs) =>
      new Set((await inSlices(refs, async (slice) => db.selectDistinct({ ref: snapshots.ref }).from(snapshots).where(inArray(snapshots.ref, slice)).all())).map((r) => r.ref)),
    runEvents: async (runId, type) =>
      db.select({ data: events.data }).from(events).where(type === undefined ? eq(events.runId, runId) : and(eq(events.runId, runId), eq(events.type, type))).orderBy(asc(events.id)).all().map((r) => JSON.parse(r.data) as Record<string, unknown>),

    getRequest: async (id) => getRequest(store, id),
    requestsOf: async (runId, status) => requestsOf(store, runId, status),
    settleRequests: async (settlements, audit) =>
      store.tx(() => {
        settleAll(store, settlements)
        appendAuditRows(store, audit)
      }),

    isTrusted: async (workspace, path, hash) => isTrustedFile(store, workspace, path, hash),
    recordTrust: async (workspace, path, hash, audit) =>
      store.tx(() => {
        recordTrust(store, workspace, path, hash)
        if (audit) appendAuditRows(store, [audit])
      }),
    revokeTrust: async (workspace, path, audit) =>
      store.tx(() => {
        const removed = revokeTrust(store, workspace, path)
        if (removed && audit) appendAuditRows(store, [audit])
        return removed
      }),
    trustedFiles: async () => trustedFiles(store),
    setTrust: async (files, audit) =>
      store.tx(() => {
        const changed = files.map((f) => (f.hash === null ? revokeTrust(store, f.workspace, f.path) : (recordTrust(store, f.workspace, f.path, f.hash), true)))
        appendAuditRows(store, [audit(changed)])
        return changed
      }),

    appendAudit: async (rows) => store.tx(() => appendAuditRows(store, rows)),
    queryAudit: async (filter) => queryAudit(store, filter),
    resolveAuditRun: async (idOrPrefix) => resolveAuditRun(store, idOrPrefix),
    verifyAudit: async () => verifyStore(store),

    schemaStatus: async () => sqliteSchemaStatus(store.path, store.sqlite),
  }
}

function commitUnit(store: Store, unit: CommitUnit): number[] {
  if (unit.runIs) {
    // inside the write lock: what is read here cannot change before the writes below
    const now = store.db.select({ status: runs.status, pid: runs.pid }).from(runs).where(eq(runs.id, unit.runId)).get()
    if (now?.status !== unit.runIs.status || now.pid !== unit.runIs.pid) throw runChanged(unit.runId, now)
  }
  if (unit.newRun) insertRun(store, unit.newRun)
  if (unit.run) updateRun(store, unit.runId, unit.run)
  for (const call of unit.calls ?? []) upsertCall(store, call)
  for (const { id, patch } of unit.callPatches ?? []) updateCall(store, id, patch)
  if (unit.plan?.items.length) {
    const { items, positions } = unit.plan
    const at = new Map(items.map((item, i) => [item, positions?.[i] ?? i]))
    savePlan(store, unit.runId, items, (item) => at.get(item)!)
  }
  if (unit.checkpoint) saveCheckpoint(store, unit.runId, unit.checkpoint.seq, checkpointJson(unit.checkpoint))
  if (unit.events?.length) {
    // every commit of every step has events: a prepared statement, not a query built by the ORM each time
    const insert = store.sqlite.query("INSERT INTO events (run_id, ts, type, data) VALUES (?, ?, ?, ?)")
    for (const e of unit.events) insert.run(unit.runId, e.ts, e.type, e.data)
  }
  if (unit.messages?.length) store.db.insert(agentMessages).values(unit.messages.map((m) => ({ runId: unit.runId, ...m }))).run()
  if (unit.usage?.length) store.db.insert(usage).values(unit.usage.map((u) => ({ runId: unit.runId, ...u }))).run()
  const now = Date.now()
  if (unit.snapshots?.length) store.db.insert(snapshots).values(unit.snapshots.map((s) => ({ runId: unit.runId, ...s, createdAt: now }))).run()
  for (const request of unit.requests ?? []) insertRequest(store, request)
  for (const grant of unit.grants ?? []) insertGrant(store, grant)
  settleAll(store, unit.settlements ?? [])
  return appendAuditRows(store, unit.audit ?? [])
}

function isLonePatch(unit: CommitUnit): boolean {
  return unit.callPatches?.length === 1 && Object.keys(unit).every((key) => key === "runId" || key === "callPatches" || key === "relaxed")
}

// inside the write transaction: the status read here cannot change before the update
function settleAll(store: Store, settlements: Settlement[]): void {
  for (const s of settlements) {
    const current = getRequest(store, s.id)
    if (current?.status !== "pending") throw new RequestConflict(`request ${s.id} is ${current ? `already ${current.status}` : "unknown"}`)
    settleRequest(store, s.id, { status: s.status, answer: s.answer ?? null, forRun: s.forRun ?? false, settledBy: s.settledBy })
  }
}

/** The schema version of a SQLite file, read without migrating it (a missing file has none). */
export function sqliteSchemaStatus(path: string, open?: Database): SchemaStatus {
  let applied = 0
  if (open) applied = userVersion(open)
  else if (path === ":memory:" || existsSync(path)) {
    const sqlite = new Database(path, { readonly: true })
    try {
      applied = userVersion(sqlite)
    } finally {
      sqlite.close()
    }
  }
  const latest = migrations.length
  return {
    backend: "sqlite", location: path, applied, latest,
    pending: migrations.slice(applied).map((m) => m.tag),
    state: applied > latest ? "newer" : applied < latest ? "behind" : "current",
  }
}

function userVersion(sqlite: Database): number {
  return (sqlite.query("PRAGMA user_version").get() as { user_version: number }).user_version
}
