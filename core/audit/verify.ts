// Verifies the audit hash chain and names the first row that was changed, deleted or inserted out
// of chain. verifyChain is pure; verifyStore streams the rows out of the database (read only).
import type { Store } from "../store/open.ts"
import { GENESIS, rowHash, type ChainedRow } from "./chain.ts"
import { readRow, type RawAuditRow } from "./rows.ts"

export type ChainProblemKind = "changed" | "deleted" | "inserted"

export interface ChainProblem {
  kind: ChainProblemKind
  /** the row that was changed or inserted, or the first row that is missing */
  id: number
  message: string
}

export interface ChainHead {
  lastId: number
  hash: string
}

export interface VerifyResult {
  ok: boolean
  /** rows read */
  rows: number
  /** the last row's id and hash (anchor it elsewhere to detect a rewritten chain) */
  last: { id: number; hash: string } | null
  /** what the audit_head table says (null with rows present: the head was removed) */
  head: ChainHead | null
  problem?: ChainProblem
}

/** Walk rows in id order; the first problem found ends the walk. */
export function verifyChain(rows: Iterable<ChainedRow>, head: ChainHead | null): VerifyResult {
  const walk = chainWalk(head)
  for (const row of rows) {
    const failed = walk.row(row)
    if (failed) return failed
  }
  return walk.end()
}

/**
 * The walk of verifyChain one row at a time, for rows that arrive in pages (a server-side store
 * streams a log too large to hold): `row` returns the result when that row fails the chain, `end`
 * the result once every row was given.
 */
export function chainWalk(head: ChainHead | null): { row(row: ChainedRow): VerifyResult | undefined; end(): VerifyResult } {
  let count = 0
  let prev: { id: number; hash: string } | null = null
  let beforePrev: string | null = null
  const fail = (problem: ChainProblem): VerifyResult => ({ ok: false, rows: count, last: prev, head, problem })
  return {
    row(row) {
      count++
      const expectedId = (prev?.id ?? 0) + 1
      const expectedPrev = prev?.hash ?? GENESIS
      const selfValid = rowHash(row.id, row, row.prevHash) === row.hash
      if (row.id < expectedId) {
        return fail({ kind: "inserted", id: row.id, message: `row ${row.id} was inserted out of chain: ids start at 1 and rise by one` })
      }
      if (head && row.id > head.lastId) {
        return fail({ kind: "inserted", id: row.id, message: `row ${row.id} was inserted out of chain: the chain's head is row ${head.lastId}` })
      }
      if (!selfValid) {
        return fail({ kind: "changed", id: row.id, message: `row ${row.id} was changed: its hash does not match its contents` })
      }
      if (row.id > expectedId) {
        if (row.prevHash === expectedPrev) {
          return fail({ kind: "inserted", id: row.id, message: `row ${row.id} was inserted out of chain: ccode never skips ids (after row ${prev?.id ?? 0})` })
        }
        const missing = row.id - expectedId
        return fail({
          kind: "deleted", id: expectedId,
          message: `row ${expectedId} was deleted${missing > 1 ? ` (and ${missing - 1} more up to row ${row.id - 1})` : ""}: row ${row.id} does not link to row ${prev?.id ?? "(start)"}`,
        })
      }
      if (row.prevHash !== expectedPrev) {
        if (prev && row.prevHash === (beforePrev ?? GENESIS)) {
          return fail({ kind: "inserted", id: prev.id, message: `row ${prev.id} was inserted out of chain: row ${row.id} links past it to row ${prev.id - 1}` })
        }
        return fail({ kind: "changed", id: row.id, message: `row ${row.id} was changed: its prev_hash does not match row ${prev?.id ?? "(start)"}` })
      }
      beforePrev = prev?.hash ?? GENESIS
      prev = { id: row.id, hash: row.hash }
      return undefined
    },
    end() {
      if (!head && prev) {
        // every database has audit_head once migrated (it is seeded from the table when the schema gains
        // it), so rows without a head mean the head was removed — to hide rows removed from the end
        return fail({ kind: "deleted", id: prev.id + 1, message: `the chain's head (audit_head) is missing while ${count} row(s) exist: the newest rows and the head were removed` })
      }
      if (head && (prev?.id ?? 0) < head.lastId) {
        const first = (prev?.id ?? 0) + 1
        const more = head.lastId - first
        return fail({ kind: "deleted", id: first, message: `row ${first} was deleted${more ? ` (and ${more} more up to row ${head.lastId})` : ""}: the chain's head is row ${head.lastId}` })
      }
      if (head && prev && prev.hash !== head.hash) {
        return fail({ kind: "changed", id: prev.id, message: `row ${prev.id} was changed: its hash is not the one recorded as the chain's head` })
      }
      return { ok: true, rows: count, last: prev, head }
    },
  }
}

/**
 * Head and rows are read in one read transaction: one snapshot of the database, so a writer that
 * commits in between cannot make a consistent chain look broken (WAL: the writer is not blocked).
 */
export function verifyStore(store: Store): VerifyResult {
  const { sqlite } = store
  sqlite.run("BEGIN DEFERRED")
  try {
    const head = sqlite.query("SELECT last_id AS lastId, hash FROM audit_head WHERE id = 1").get() as ChainHead | null
    const statement = sqlite.query("SELECT * FROM audit ORDER BY id")
    function* rows(): Generator<ChainedRow> {
      for (const raw of statement.iterate() as IterableIterator<RawAuditRow>) yield readRow(raw)
    }
    return verifyChain(rows(), head)
  } finally {
    sqlite.run("COMMIT")
  }
}
