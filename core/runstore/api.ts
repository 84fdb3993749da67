// The store as the runner, agent, MCP server, hooks, audit and CLI need it: one async interface,
// repository style (callers name what they want; the SQL lives in the backends). Two backends
// implement it: SQLite (core/runstore/sqlite.ts, over the synchronous functions in core/store) and
// PostgreSQL (core/runstore/pg/backend.ts). tests/store/conformance.ts holds both to the same behaviour.
import type { AuditInput } from "../audit/write.ts"
import type { ChainedRow } from "../audit/chain.ts"
import type { AuditFilter } from "../audit/filter.ts"
import type { VerifyResult } from "../audit/verify.ts"
import type { CallRow, NewCall, PlanRow } from "../store/calls.ts"
import type { RequestRow, RequestStatus } from "../store/requests.ts"
import type { RunRow } from "../store/runs.ts"
import type { grants, requests, runs, RunStatus } from "../store/schema.ts"
import type { TrustedFile } from "../store/trust.ts"

export type Backend = "sqlite" | "postgres"
export type NewRun = typeof runs.$inferInsert
export type RunPatch = Partial<NewRun>
export type NewRequest = typeof requests.$inferInsert
export type NewGrant = Omit<typeof grants.$inferInsert, "id">

/**
 * Everything one step of a run writes, committed in ONE transaction: either all of it is stored or
 * none of it (a crash or a failed statement anywhere leaves the database as it was). Written in this
 * order: the new run's row, run row patch, calls, call patches, plan rows, checkpoint, events,
 * messages, usage, snapshots, requests, grants, settlements, and audit rows last (the chain head is
 * locked as late as it can be, so it is held shortest).
 */
export interface CommitUnit {
  runId: string
  /** the run's row, created with its first step's writes (a run never exists without its first checkpoint) */
  newRun?: NewRun
  /**
   * the run's row as the caller read it: the unit is written only if its status and pid still are
   * these (no resume or cancel on another machine got there first), else RunChanged and nothing is written
   */
  runIs?: { status: RunStatus; pid: number | null }
  run?: RunPatch
  /** upserted by id: the write-ahead intent (status "running") or the settled result */
  calls?: NewCall[]
  /** fields changed on existing call rows (resume marking a call interrupted, a late result) */
  callPatches?: { id: string; patch: Partial<NewCall> }[]
  /** plan items that changed; `positions[i]` is items[i]'s place in the plan (default: its index) */
  plan?: { items: PlanRow[]; positions?: number[] }
  /**
   * the run's state after this step; older checkpoints beyond the last two are dropped. `json`: the
   * state already serialised (a caller that queues its commit must not let later changes leak in)
   */
  checkpoint?: { seq: number; state: unknown } | { seq: number; json: string }
  /** redacted events: `data` is the whole event as JSON, exactly as it was emitted */
  events?: { ts: number; type: string; data: string }[]
  /** redacted audit rows, chained in order */
  audit?: AuditInput[]
  requests?: NewRequest[]
  /** an agent run's conversation rows appended this step (redacted JSON of one message each) */
  messages?: { seq: number; message: string }[]
  /** model usage of the agent's turns this step */
  usage?: { turn: number; model: string; inputTokens: number; outputTokens: number; cost: number; createdAt: number }[]
  /** undo snapshots taken this step: `ref` in the machine's own shadow repository */
  snapshots?: { callId: string | null; step: number; ref: string }[]
  /** requests the run settles itself (a breakpoint passed, an override); only pending ones, else RequestConflict */
  settlements?: Settlement[]
  grants?: NewGrant[]
  /**
   * a write that may wait for the next durable commit to reach the disk (PostgreSQL: asynchronous
   * commit): it is lost only if the database server itself crashes first, never if ccode does. For
   * what helps resume after a crash of ccode (a running tool's process group, its exit status) and
   * costs a disk flush per write otherwise. Nothing with audit rows or a checkpoint is relaxed.
   */
  relaxed?: boolean
}

/** One request settled by a person (from any machine): only a pending request can be settled. */
export interface Settlement {
  id: string
  status: Exclude<RequestStatus, "pending">
  answer?: string | null
  forRun?: boolean
  settledBy: string
}

/** A run prune may remove: `touchedAt` is the last time its row or a checkpoint changed. */
export interface PruneCandidate {
  id: string
  task: string
  status: RunStatus
  pid: number | null
  /** the host its last segment ran on (its pid means something only there) */
  host: string | null
  touchedAt: number
}

export interface SchemaStatus {
  backend: Backend
  /** the file, or the URL without its password */
  location: string
  /** migrations applied to this database */
  applied: number
  /** migrations this ccode carries */
  latest: number
  /** tags of the migrations not applied yet */
  pending: string[]
  state: "current" | "behind" | "newer"
}

export interface RunStore {
  readonly backend: Backend
  readonly location: string
  close(): Promise<void>

  // runs
  createRun(row: NewRun): Promise<void>
  /** patch a run row (updated_at is set to now) */
  updateRun(id: string, patch: RunPatch): Promise<void>
  /**
   * Take a run over as it was read (resume): the patch is written only when its status and pid are
   * still `expected` (no `ccode cancel` or other resume got there first). True when it was.
   */
  claimRun(id: string, expected: { status: RunStatus; pid: number | null }, patch: RunPatch): Promise<boolean>
  /** by full id or unique prefix; RunNotFound (exit 2) otherwise */
  findRun(idOrPrefix: string): Promise<RunRow>
  listRuns(opts?: { limit?: number; status?: RunStatus }): Promise<RunRow[]>
  lastResumable(): Promise<RunRow | undefined>
  pruneCandidates(): Promise<PruneCandidate[]>
  /** delete runs with their rows (audit rows stay); returns the snapshot refs they held */
  deleteRuns(ids: string[]): Promise<string[]>

  // a step's writes, and what resume reads back
  commit(unit: CommitUnit): Promise<number[]>
  getCall(id: string): Promise<CallRow | undefined>
  callsOf(runId: string): Promise<CallRow[]>
  lastCallSeq(runId: string): Promise<number>
  /** calls whose intent was committed but whose result never was */
  inFlightCalls(runId: string): Promise<CallRow[]>
  latestCheckpoint<T>(runId: string): Promise<{ seq: number; state: T } | undefined>
  loadPlan(runId: string): Promise<PlanRow[]>
  /** the run's events as emitted, oldest first; `type`: only those of that type (the summary's guard events) */
  runEvents(runId: string, type?: string): Promise<Record<string, unknown>[]>
  /** an agent run's stored conversation, in order */
  messagesOf(runId: string): Promise<{ seq: number; message: string }[]>
  usageOf(runId: string): Promise<{ turn: number; model: string; inputTokens: number; outputTokens: number; cost: number; createdAt: number }[]>
  snapshotsOf(runId: string): Promise<{ id: number; runId: string; callId: string | null; step: number; ref: string; createdAt: number }[]>
  /** of these snapshot refs, the ones a run in the store still holds (a prune keeps them) */
  snapshotRefsInUse(refs: string[]): Promise<Set<string>>

  // requests for a person
  getRequest(id: string): Promise<RequestRow | undefined>
  requestsOf(runId: string, status?: RequestStatus): Promise<RequestRow[]>
  /**
   * Settle requests and append their audit rows in one transaction. Fails with RequestConflict
   * (exit 2), writing nothing, when any of them is no longer pending (settled meanwhile elsewhere).
   */
  settleRequests(settlements: Settlement[], audit: AuditInput[]): Promise<void>

  // trusted files (paths already resolved by the caller)
  isTrusted(workspace: string, path: string, hash: string): Promise<boolean>
  recordTrust(workspace: string, path: string, hash: string, audit?: AuditInput): Promise<void>
  revokeTrust(workspace: string, path: string, audit?: AuditInput): Promise<boolean>
  trustedFiles(): Promise<TrustedFile[]>
  /**
   * Trust (a hash) or revoke (null) several files and append one audit row, in one transaction
   * (`ccode trust`, `ccode init`). `audit` is given, per file, whether anything changed (a revoke of
   * a file that was not trusted changes nothing); so is the caller.
   */
  setTrust(files: { workspace: string; path: string; hash: string | null }[], audit: (changed: boolean[]) => AuditInput): Promise<boolean[]>

  // the audit log
  /** append rows to the one hash chain, in their own transaction */
  appendAudit(rows: AuditInput[]): Promise<number[]>
  queryAudit(filter: AuditFilter): Promise<ChainedRow[]>
  /** a run id from its full id or a unique prefix, looked up in the audit (its run may be pruned) */
  resolveAuditRun(idOrPrefix: string): Promise<string>
  /** head and rows read from one snapshot of the database */
  verifyAudit(): Promise<VerifyResult>

  // schema
  schemaStatus(): Promise<SchemaStatus>
}

/** `lookup` over `values` in slices small enough for any backend's limit of parameters per statement. */
export async function inSlices<T>(values: readonly string[], lookup: (slice: string[]) => Promise<T[]>): Promise<T[]> {
  const found: T[] = []
  for (let i = 0; i < values.length; i += 500) found.push(...(await lookup(values.slice(i, i + 500))))
  return found
}

/** The checkpoint of a CommitUnit as stored: JSON text. */
export function checkpointJson(checkpoint: NonNullable<CommitUnit["checkpoint"]>): string {
  return "json" in checkpoint ? checkpoint.json : JSON.stringify(checkpoint.state)
}

export class RequestConflict extends Error {
  readonly exitCode = 2
}

/** A CommitUnit's `runIs` no longer held: the run changed since it was read (nothing was written). */
export class RunChanged extends Error {
  readonly exitCode = 2
}

export function runChanged(runId: string, now: { status: string; pid: number | null } | undefined): RunChanged {
  return new RunChanged(`run ${runId} changed meanwhile (${now ? `now ${now.status}${now.pid === null ? "" : `, pid ${now.pid}`}` : "gone"}); nothing was written — see \`ccode runs show ${runId}\``)
}
