// The audit hash chain on PostgreSQL. Appends are serialised by the database itself: the head row
// (audit_head id 1) is locked FOR UPDATE inside the append's transaction, so every writer on every
// machine links to the row the previous one wrote, and ids never skip. Verify reads the head and the
// rows from one REPEATABLE READ snapshot, so concurrent writers cannot make an intact chain look broken.
import { and, asc, desc, eq, gt, gte, inArray, lte, sql, type SQL as Condition } from "drizzle-orm"
import { AuditQueryError } from "../../audit/query.ts"
import { GENESIS, rowHash, type AuditEntry, type ChainedRow } from "../../audit/chain.ts"
import type { AuditFilter } from "../../audit/filter.ts"
import { chainWalk, type ChainHead, type VerifyResult } from "../../audit/verify.ts"
import { normalise, type AuditInput } from "../../audit/write.ts"
import type { PgDb, PgTx } from "./db.ts"
import { audit, auditHead } from "./schema.ts"
import { noNul } from "./text.ts"

/** `locked`: the head, when the caller already sent the lock (pipelined behind its other writes). */
export async function appendAuditPg(tx: PgTx, inputs: readonly AuditInput[], locked?: Promise<ChainHead>): Promise<number[]> {
  if (!inputs.length) return []
  const head = await (locked ?? lockHead(tx))
  const entries = inputs.map((input) => clean(normalise(input)))
  const link = { id: Number(head.lastId) + 1, prevHash: head.hash }
  const fast = chain(entries, link)
  if (fast.length <= CHUNK) {
    const inserted = await insertAndMoveHead(tx, fast)
    if (inserted.length === fast.length) return inserted
    // a row inserted past the head by hand holds one of these ids: undo ours and go row by row
    if (inserted.length) await tx.delete(audit).where(inArray(audit.id, inserted))
  } else {
    // a bulk append (an import): chunks within PostgreSQL's limit of parameters per statement, in a
    // savepoint so a clash undoes them all
    const clash = new Error("audit id taken")
    try {
      await tx.transaction(async (sp) => {
        for (let i = 0; i < fast.length; i += CHUNK) {
          const chunk = fast.slice(i, i + CHUNK)
          const put = await sp.insert(audit).values(chunk).onConflictDoNothing().returning({ id: audit.id })
          if (put.length !== chunk.length) throw clash
        }
        const end = fast[fast.length - 1]!
        await sp.update(auditHead).set({ lastId: end.id, hash: end.hash }).where(eq(auditHead.id, 1))
      })
      return fast.map((r) => r.id)
    } catch (error) {
      if (error !== clash) throw error
    }
  }
  return appendRowByRow(tx, entries, link)
}

// rows per INSERT: 15 parameters a row, under PostgreSQL's 65,535 per statement
const CHUNK = 2000

/**
 * One statement: insert the rows and move the head, only if every row went in. While the head is
 * locked every round trip is time all other writers wait. Returns the ids inserted.
 */
async function insertAndMoveHead(tx: PgTx, rows: ChainedRow[]): Promise<number[]> {
  const last = rows[rows.length - 1]!
  const values = sql.join(
    rows.map((r) => sql`(${r.id}, ${r.ts}, ${r.runId}, ${r.callId}, ${r.type}, ${r.actor}, ${r.tool}, ${r.action}, ${r.result}, ${r.risk}, ${r.autoApproved}, ${r.reason}, ${r.data}, ${r.prevHash}, ${r.hash})`),
    sql`, `,
  )
  const [done] = await tx.execute<{ ids: (number | string)[] | null }>(sql`
    WITH ins AS (
      INSERT INTO audit (id, ts, run_id, call_id, type, actor, tool, action, result, risk, auto_approved, reason, data, prev_hash, hash)
      VALUES ${values} ON CONFLICT (id) DO NOTHING RETURNING id),
    head AS (UPDATE audit_head SET last_id = ${last.id}, hash = ${last.hash} WHERE id = 1 AND (SELECT count(*) FROM ins) = ${rows.length} RETURNING 1)
    SELECT (SELECT array_agg(id) FROM ins) AS ids`)
  return (done?.ids ?? []).map(Number)
}

/** The slow path, after a clash: each row on its own, stepping over ids someone planted. */
async function appendRowByRow(tx: PgTx, entries: AuditEntry[], from: { id: number; prevHash: string }): Promise<number[]> {
  let link = from
  const rows: ChainedRow[] = []
  for (const entry of entries) {
    let row = chain([entry], link)[0]!
    const put = await tx.insert(audit).values(row).onConflictDoNothing().returning({ id: audit.id })
    if (!put.length) {
      // step over the planted id, as the SQLite writer does: verify names it
      const [top] = await tx.select({ id: audit.id }).from(audit).orderBy(desc(audit.id)).limit(1)
      row = chain([entry], { id: top!.id + 1, prevHash: link.prevHash })[0]!
      await tx.insert(audit).values(row)
    }
    rows.push(row)
    link = { id: row.id + 1, prevHash: row.hash }
  }
  const end = rows[rows.length - 1]!
  await tx.update(auditHead).set({ lastId: end.id, hash: end.hash }).where(eq(auditHead.id, 1))
  return rows.map((r) => r.id)
}

/** The head row, locked until the transaction ends; recreated from the table if someone removed it. */
export async function lockHead(tx: PgTx): Promise<ChainHead> {
  const locked = () => tx.select({ lastId: auditHead.lastId, hash: auditHead.hash }).from(auditHead).where(eq(auditHead.id, 1)).for("update")
  const [head] = await locked()
  if (head) return head
  const [last] = await tx.select({ id: audit.id, hash: audit.hash }).from(audit).orderBy(desc(audit.id)).limit(1)
  await tx.insert(auditHead).values({ id: 1, lastId: last?.id ?? 0, hash: last?.hash ?? GENESIS }).onConflictDoNothing()
  const [again] = await locked()
  return again!
}

function chain(entries: AuditEntry[], from: { id: number; prevHash: string }): ChainedRow[] {
  const rows: ChainedRow[] = []
  let link = from
  for (const entry of entries) {
    const hash = rowHash(link.id, entry, link.prevHash)
    rows.push({ ...entry, id: link.id, prevHash: link.prevHash, hash })
    link = { id: link.id + 1, prevHash: hash }
  }
  return rows
}

// PostgreSQL text cannot hold NUL: replaced before hashing, so the stored row is what was hashed
function clean(entry: AuditEntry): AuditEntry {
  return { ...entry, action: noNul(entry.action), reason: noNul(entry.reason), data: noNul(entry.data), tool: noNul(entry.tool) }
}

export async function queryAuditPg(db: PgDb, filter: AuditFilter): Promise<ChainedRow[]> {
  const where: Condition[] = []
  const inList = (column: Parameters<typeof inArray>[0], values: readonly string[] | undefined) => {
    if (values?.length) where.push(inArray(column, [...values]))
  }
  inList(audit.runId, filter.runs)
  inList(audit.type, filter.types)
  inList(audit.tool, filter.tools)
  inList(audit.result, filter.results)
  inList(audit.risk, filter.risks)
  if (filter.since !== undefined) where.push(gte(audit.ts, filter.since))
  if (filter.until !== undefined) where.push(lte(audit.ts, filter.until))
  const query = db.select().from(audit).where(and(...where))
  // the fingerprint sits in the JSON text of `data` (not every row's data is JSON): filtered here,
  // before the limit, as the SQLite store's json_valid/json_extract does in SQL
  const fingerprint = filter.policyFingerprint
  const limited = filter.limit !== undefined && fingerprint === undefined
  let rows = (limited ? await query.orderBy(desc(audit.id)).limit(filter.limit!) : await query.orderBy(asc(audit.id))) as ChainedRow[]
  if (limited) rows.reverse()
  if (fingerprint !== undefined) {
    rows = rows.filter((r) => policyFingerprintOf(r.data)?.startsWith(fingerprint))
    if (filter.limit !== undefined) rows = rows.slice(-filter.limit)
  }
  return rows
}

function policyFingerprintOf(data: string | null): string | undefined {
  try {
    const value = (JSON.parse(data ?? "null") as { policy_fingerprint?: unknown } | null)?.policy_fingerprint
    return typeof value === "string" ? value : undefined
  } catch {
    return undefined
  }
}

/** As the SQLite store's resolveAuditRun: exact id, else the one run id starting with the prefix. */
export async function resolveAuditRunPg(db: PgDb, idOrPrefix: string, location: string): Promise<string> {
  const [exact] = await db.select({ id: audit.runId }).from(audit).where(eq(audit.runId, idOrPrefix)).limit(1)
  if (exact) return idOrPrefix
  const found = await db
    .selectDistinct({ id: audit.runId })
    .from(audit)
    // starts_with, not a range: a server's collation need not order strings byte by byte
    .where(sql`starts_with(${audit.runId}, ${idOrPrefix})`)
    .limit(2)
  if (found.length === 1) return found[0]!.id!
  if (found.length > 1) throw new AuditQueryError(`run id "${idOrPrefix}" is ambiguous; give more characters`)
  throw new AuditQueryError(`no audit rows for run "${idOrPrefix}" in ${location}; see \`ccode runs ls\``)
}

const PAGE = 5000

export async function verifyAuditPg(db: PgDb): Promise<VerifyResult> {
  return db.transaction(
    async (tx) => {
      const [head] = await tx.select({ lastId: auditHead.lastId, hash: auditHead.hash }).from(auditHead).where(eq(auditHead.id, 1))
      // read in pages by id (keyset) within the one snapshot: a log of any size in bounded memory
      const walk = chainWalk(head ?? null)
      for (let after = Number.MIN_SAFE_INTEGER; ; ) {
        const page = (await tx.select().from(audit).where(gt(audit.id, after)).orderBy(asc(audit.id)).limit(PAGE)) as ChainedRow[]
        for (const row of page) {
          const failed = walk.row(row)
          if (failed) return failed
        }
        if (page.length < PAGE) return walk.end()
        after = page[page.length - 1]!.id
      }
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  )
}
