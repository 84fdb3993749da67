// Reads audit rows for `ccode audit`: filters become one indexed SQL query. Read only.
import type { Store } from "../store/open.ts"
import type { AuditFilter } from "./filter.ts"
import { readRow, type RawAuditRow } from "./rows.ts"
import type { ChainedRow } from "./chain.ts"

/** An audit row as exports show it: the documented export field names (docs/audit.md), ts as ISO-8601, data parsed. */
export interface AuditView {
  id: number
  ts: string
  run: string | null
  call: string | null
  type: string
  actor: string
  tool: string | null
  action: string | null
  result: string | null
  risk: string | null
  auto_approved: boolean | null
  reason: string | null
  data: unknown
  prev_hash: string
  hash: string
}

export const VIEW_FIELDS = [
  "id", "ts", "run", "call", "type", "actor", "tool", "action", "result", "risk", "auto_approved", "reason", "data", "prev_hash", "hash",
] as const satisfies readonly (keyof AuditView)[]

export class AuditQueryError extends Error {
  /** bad input: exit 2 */
  readonly exitCode = 2
  override name = "UsageError"
}

export function queryAudit(store: Store, filter: AuditFilter): ChainedRow[] {
  const where: string[] = []
  const params: (string | number)[] = []
  const inList = (column: string, values: readonly string[] | undefined) => {
    if (!values?.length) return
    where.push(`${column} IN (${values.map(() => "?").join(", ")})`)
    params.push(...values)
  }
  inList("run_id", filter.runs)
  inList("type", filter.types)
  inList("tool", filter.tools)
  inList("result", filter.results)
  inList("risk", filter.risks)
  if (filter.since !== undefined) (where.push("ts >= ?"), params.push(filter.since))
  if (filter.until !== undefined) (where.push("ts <= ?"), params.push(filter.until))
  if (filter.policyFingerprint !== undefined) {
    // CASE: json_extract fails the whole query on a row whose data is not JSON
    where.push("substr(CASE WHEN json_valid(data) THEN json_extract(data, '$.policy_fingerprint') END, 1, ?) = ?")
    params.push(filter.policyFingerprint.length, filter.policyFingerprint)
  }
  // with a limit, the newest rows are the ones wanted; they are still printed oldest first
  const limited = filter.limit !== undefined
  const sql = `SELECT * FROM audit${where.length ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY id${limited ? " DESC LIMIT ?" : ""}`
  if (limited) params.push(filter.limit!)
  const rows = (store.sqlite.query(sql).all(...params) as RawAuditRow[]).map(readRow)
  return limited ? rows.reverse() : rows
}

/** A run id from its full id or a unique prefix, looked up in the audit (runs may have been pruned). */
export function resolveAuditRun(store: Store, idOrPrefix: string): string {
  const exact = store.sqlite.query("SELECT 1 FROM audit WHERE run_id = ? LIMIT 1").get(idOrPrefix)
  if (exact) return idOrPrefix
  const upper = idOrPrefix.slice(0, -1) + String.fromCharCode(idOrPrefix.charCodeAt(idOrPrefix.length - 1) + 1)
  const found = store.sqlite
    .query("SELECT DISTINCT run_id AS id FROM audit WHERE run_id >= ? AND run_id < ? LIMIT 2")
    .all(idOrPrefix, upper) as { id: string }[]
  if (found.length === 1) return found[0]!.id
  if (found.length > 1) throw new AuditQueryError(`run id "${idOrPrefix}" is ambiguous; give more characters`)
  throw new AuditQueryError(`no audit rows for run "${idOrPrefix}" in ${store.path}; see \`ccode runs ls\``)
}

export function auditView(row: ChainedRow): AuditView {
  return {
    id: row.id,
    ts: new Date(row.ts).toISOString(),
    run: row.runId,
    call: row.callId,
    type: row.type,
    actor: row.actor,
    tool: row.tool,
    action: row.action,
    result: row.result,
    risk: row.risk,
    auto_approved: row.autoApproved,
    reason: row.reason,
    data: parseData(row.data),
    prev_hash: row.prevHash,
    hash: row.hash,
  }
}

function parseData(data: string | null): unknown {
  if (data === null) return null
  try {
    return JSON.parse(data) as unknown
  } catch {
    return data
  }
}
