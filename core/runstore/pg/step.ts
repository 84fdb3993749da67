// A step's writes on PostgreSQL as ONE statement: data-modifying CTEs, one round trip, committed on
// their own (a single statement is its own transaction: all of it or none of it). The audit rows are
// chained by the server under the head's row lock, hashing exactly the text rowHash hashes, so a
// writer never needs the head before it sends: 16 writers on 16 machines still queue on that one
// lock. What it does not carry (a new run, requests, grants, settlements, a `runIs` condition) goes
// through commitUnit's transaction, as does an append that meets a row planted past the head.
import type { SQL } from "bun"
import { getTableColumns } from "drizzle-orm"
import type { PgTable } from "drizzle-orm/pg-core"
import { hashedFields } from "../../audit/chain.ts"
import { normalise, type AuditInput } from "../../audit/write.ts"
import { checkpointJson, type CommitUnit } from "../api.ts"
import type { NewCall } from "../../store/calls.ts"
import { calls, runs } from "./schema.ts"
import { noNul } from "./text.ts"

const KEEP_CHECKPOINTS = 2

/**
 * The unit written as one statement, returning its audit ids; undefined when it must go through
 * commitUnit's transaction instead (nothing was written).
 */
export async function commitStatement(client: SQL, unit: CommitUnit): Promise<number[] | undefined> {
  if (unit.runIs || unit.newRun || unit.requests?.length || unit.grants?.length || unit.settlements?.length) return undefined
  const built = buildStatement(unit)
  if (!built) return []
  if (built.params.length > MAX_PARAMS) return undefined
  try {
    const [row] = await client.unsafe(built.text, built.params)
    return ((row?.ids as (number | string)[] | null) ?? []).map(Number)
  } catch (error) {
    if (chainNeedsCare(error)) return undefined
    throw error
  }
}

/** Audit rows alone (a hook's decision, `ccode trust`'s row), as one statement. */
export function appendStatement(client: SQL, rows: AuditInput[]): Promise<number[] | undefined> {
  // no run: no row writes, and the run id goes unused
  return commitStatement(client, { runId: "", audit: rows })
}

// PostgreSQL's limit of parameters per statement
const MAX_PARAMS = 65_535

/**
 * The server could not chain the rows as sent (a row planted past the head, the head row removed):
 * nothing was written, and the transaction path, which steps over planted ids, takes the unit.
 */
function chainNeedsCare(error: unknown): boolean {
  const { errno, constraint } = error as { errno?: string; constraint?: string }
  return (errno === "23505" && constraint === "audit_pkey") || errno === HEAD_MISSING
}

// division by zero is the statement's own way to abort when the head row is missing (no row chained)
const HEAD_MISSING = "22012"

/** The statement and its parameters; undefined when the unit writes nothing. */
export function buildStatement(unit: CommitUnit): { text: string; params: unknown[] } | undefined {
  const s = new Statement(unit.runId)
  const now = Date.now()
  if (unit.run) s.write(`UPDATE runs SET ${assignments(s, runs, { ...unit.run, updatedAt: now })} WHERE id = $1`)
  for (const { row, upsert } of callWrites(unit)) {
    const cols = Object.keys(row)
    const names = cols.map((k) => column(calls, k))
    if (upsert) {
      const set = names.filter((c) => c !== "id").map((c) => `${c} = excluded.${c}`).join(", ")
      s.write(`INSERT INTO calls (${names.join(", ")}) VALUES (${cols.map((k) => s.param(row[k])).join(", ")})
        ON CONFLICT (id) DO ${set ? `UPDATE SET ${set}` : "NOTHING"}`)
    } else if (cols.length > 1) {
      const { id, ...patch } = row
      s.write(`UPDATE calls SET ${assignments(s, calls, patch)} WHERE id = ${s.param(id)}`)
    }
  }
  const items = lastById(planRows(unit, now))
  if (items.length) {
    s.write(`INSERT INTO plan_items (run_id, id, seq, title, state, attempts, updated_at, needs, continue_on_error, depth, note, waiting, denied)
      VALUES ${items.map((r) => s.row(["$1", ...r])).join(", ")}
      ON CONFLICT (run_id, id) DO UPDATE SET seq = excluded.seq, title = excluded.title, state = excluded.state,
        attempts = excluded.attempts, updated_at = excluded.updated_at, needs = excluded.needs,
        continue_on_error = excluded.continue_on_error, depth = excluded.depth, note = excluded.note,
        waiting = excluded.waiting, denied = excluded.denied`)
  }
  if (unit.checkpoint) {
    const { seq } = unit.checkpoint
    s.write(`INSERT INTO checkpoints (run_id, seq, created_at, state) VALUES ($1, ${s.param(seq)}, ${s.param(now)}, ${s.param(noNul(checkpointJson(unit.checkpoint)))})
      ON CONFLICT (run_id, seq) DO UPDATE SET state = excluded.state, created_at = excluded.created_at`)
    s.write(`DELETE FROM checkpoints WHERE run_id = $1 AND seq < ${s.param(seq - KEEP_CHECKPOINTS + 1)}`)
  }
  // multi-row VALUES insert in their order: the identity ids follow it, as the events' order must
  if (unit.events?.length) s.write(`INSERT INTO events (run_id, ts, type, data) VALUES ${unit.events.map((e) => s.row(["$1", e.ts, e.type, noNul(e.data)])).join(", ")}`)
  if (unit.messages?.length) s.write(`INSERT INTO agent_messages (run_id, seq, message) VALUES ${unit.messages.map((m) => s.row(["$1", m.seq, noNul(m.message)])).join(", ")}`)
  if (unit.usage?.length) {
    s.write(`INSERT INTO usage (run_id, turn, model, input_tokens, output_tokens, cost, created_at) VALUES ${unit.usage
      .map((u) => s.row(["$1", u.turn, u.model, u.inputTokens, u.outputTokens, u.cost, u.createdAt]))
      .join(", ")}`)
  }
  if (unit.snapshots?.length) s.write(`INSERT INTO snapshots (run_id, call_id, step, ref, created_at) VALUES ${unit.snapshots.map((r) => s.row(["$1", r.callId, r.step, r.ref, now])).join(", ")}`)
  const audit = unit.audit ?? []
  if (!audit.length && !s.writes.length) return undefined
  const relaxed = Boolean(unit.relaxed && !audit.length && !unit.checkpoint)
  // asynchronous commit for this statement's own transaction only
  if (relaxed) s.ctes.push(`relaxed AS (SELECT set_config('synchronous_commit', 'off', true) AS off)`)
  if (!audit.length) return s.finish(`SELECT NULL::bigint[] AS ids${relaxed ? ", (SELECT off FROM relaxed)" : ""}`)
  chainAudit(s, audit)
  return s.finish(`SELECT (SELECT array_agg(id ORDER BY id) FROM chained) AS ids, 1 / ((SELECT count(*) FROM chained) = ${audit.length})::int AS complete`)
}

/**
 * The head is locked after every row write above has run (its condition reads them all first), so a
 * step takes its row locks before the head's, in the same order as every other writer. The chain is
 * computed row by row from the locked head: hash = sha256 of `[id,` + hashedFields + `,"prev"]`.
 */
function chainAudit(s: Statement, inputs: NonNullable<CommitUnit["audit"]>): void {
  const rows = inputs.map((input, i) => {
    const e = normalise(input)
    const entry = { ...e, action: noNul(e.action), reason: noNul(e.reason), data: noNul(e.data), tool: noNul(e.tool) }
    const cast = i === 0
    const p = (v: unknown, type: string) => `${s.param(v)}${cast ? `::${type}` : ""}`
    return `(${i + 1}, ${p(entry.ts, "bigint")}, ${p(entry.runId, "text")}, ${p(entry.callId, "text")}, ${p(entry.type, "text")}, ${p(entry.actor, "text")}, ${p(entry.tool, "text")}, ${p(entry.action, "text")}, ${p(entry.result, "text")}, ${p(entry.risk, "text")}, ${p(entry.autoApproved, "boolean")}, ${p(entry.reason, "text")}, ${p(entry.data, "text")}, ${p(hashedFields(entry), "text")})`
  })
  // the key share every insert here takes for its reference to the run (checked at the statement's
  // end), taken before the head as a separate statement would take it
  if (s.writes.length) s.ctes.push(`run_key AS (SELECT 1 FROM runs WHERE id = $1 FOR KEY SHARE)`)
  const before = s.writes.length ? ["run_key", ...s.writes].map((w) => `SELECT 1 FROM ${w}`).join(" UNION ALL ") : ""
  s.ctes.push(
    `audit_in (ord, ts, run_id, call_id, type, actor, tool, action, result, risk, auto_approved, reason, data, fields) AS (VALUES ${rows.join(", ")})`,
    `head AS (SELECT last_id, hash FROM audit_head WHERE id = 1${before && ` AND (SELECT count(*) FROM (${before}) w) >= 0`} FOR UPDATE)`,
    `chain (ord, id, prev, hash) AS (
      SELECT 0, last_id, NULL::text, hash FROM head
      UNION ALL
      SELECT c.ord + 1, c.id + 1, c.hash, encode(sha256(convert_to('[' || (c.id + 1) || ',' || i.fields || ',"' || c.hash || '"]', 'UTF8')), 'hex')
      FROM chain c JOIN audit_in i ON i.ord = c.ord + 1)`,
    `chained AS (
      INSERT INTO audit (id, ts, run_id, call_id, type, actor, tool, action, result, risk, auto_approved, reason, data, prev_hash, hash)
      SELECT c.id, i.ts, i.run_id, i.call_id, i.type, i.actor, i.tool, i.action, i.result, i.risk, i.auto_approved, i.reason, i.data, c.prev, c.hash
      FROM chain c JOIN audit_in i ON i.ord = c.ord RETURNING id)`,
    `moved AS (UPDATE audit_head h SET last_id = e.id, hash = e.hash FROM (SELECT id, hash FROM chain ORDER BY ord DESC LIMIT 1) e WHERE h.id = 1)`,
  )
}

class Statement {
  readonly params: unknown[]
  readonly ctes: string[] = []
  /** names of the row-writing CTEs, in order */
  readonly writes: string[] = []

  constructor(runId: string) {
    this.params = [runId]
  }

  param(value: unknown): string {
    this.params.push(value === undefined ? null : value)
    return `$${this.params.length}`
  }

  /** a VALUES row; "$1" stands for the run id */
  row(values: unknown[]): string {
    return `(${values.map((v) => (v === "$1" ? "$1" : this.param(v))).join(", ")})`
  }

  write(statement: string): void {
    const name = `w${this.writes.length}`
    this.writes.push(name)
    this.ctes.push(`${name} AS (${statement} RETURNING 1)`)
  }

  finish(select: string): { text: string; params: unknown[] } {
    // $1 typed here too: a unit of call patches alone names the run nowhere else
    return { text: `WITH RECURSIVE ${this.ctes.join(",\n")}\n${select}, $1::text AS run_id`, params: this.params }
  }
}

function assignments(s: Statement, table: PgTable, patch: Record<string, unknown>): string {
  return Object.entries(patch)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${column(table, k)} = ${s.param(typeof v === "string" ? noNul(v) : v)}`)
    .join(", ")
}

function column(table: PgTable, key: string): string {
  const col = (getTableColumns(table) as Record<string, { name: string } | undefined>)[key]
  if (!col) throw new Error(`no column for ${key}`)
  return col.name
}

/**
 * One write per call id (a statement may change a row only once): the unit's rows and then its
 * patches merged in order, only the fields given (a settle never blanks what the intent recorded).
 * An id with a row is upserted; an id with only patches is updated (never created).
 */
function callWrites(unit: CommitUnit): { row: Record<string, unknown>; upsert: boolean }[] {
  const byId = new Map<string, { row: Record<string, unknown>; upsert: boolean }>()
  const add = (id: string, fields: Partial<NewCall>, upsert: boolean) => {
    const at = byId.get(id) ?? { row: { id }, upsert: false }
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) at.row[k] = typeof v === "string" ? noNul(v) : v
    at.upsert ||= upsert
    byId.set(id, at)
  }
  for (const call of unit.calls ?? []) add(call.id, call, true)
  for (const { id, patch } of unit.callPatches ?? []) add(id, patch, false)
  return [...byId.values()]
}

function planRows(unit: CommitUnit, now: number): { id: string; values: unknown[] }[] {
  if (!unit.plan?.items.length) return []
  const { items, positions } = unit.plan
  return items.map((item, i) => ({
    id: item.id,
    values: [
      item.id, positions?.[i] ?? i, item.title, item.state, item.attempts, now, JSON.stringify(item.needs ?? []),
      Boolean(item.continueOnError), item.depth ?? 0, noNul(item.note ?? null), Boolean(item.waiting), item.denied ?? null,
    ],
  }))
}

// the same item twice in a unit (merged steps): the later one is what the separate writes would leave
function lastById(rows: { id: string; values: unknown[] }[]): unknown[][] {
  return [...new Map(rows.map((r) => [r.id, r.values])).values()]
}
