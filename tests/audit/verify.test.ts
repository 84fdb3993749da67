import { describe, expect, test } from "bun:test"
import { createHash } from "node:crypto"
import { GENESIS, rowHash } from "../../core/audit/chain.ts"
import { readRow, type RawAuditRow } from "../../core/audit/rows.ts"
import { verifyStore } from "../../core/audit/verify.ts"
import { appendAudit, appendAuditRows } from "../../core/audit/write.ts"
import { sampleRun, storeWith, tempDb } from "./helpers.ts"
import { openStore } from "../../core/store/open.ts"
import { migrations } from "../../core/store/migrations.gen.ts"
import { Database } from "bun:sqlite"

const tenRows = () => storeWith([...sampleRun("r1"), { type: "trust", actor: "user", action: "trust", reason: "trusted .ccode/policy.yaml" }])

describe("the audit hash chain", () => {
  test("each row's hash covers its id, every field and the previous hash, as sha256 over a JSON array", () => {
    const store = storeWith(sampleRun("r1").slice(0, 2))
    const rows = store.sqlite.query("SELECT * FROM audit ORDER BY id").all() as Record<string, unknown>[]
    expect(rows[0]!.prev_hash).toBe(GENESIS)
    expect(rows[1]!.prev_hash).toBe(rows[0]!.hash)
    const r = rows[1]!
    const fields = [r.id, r.ts, r.run_id, r.call_id, r.type, r.actor, r.tool, r.action, r.result, r.risk, r.auto_approved === 1, r.reason, r.data, r.prev_hash]
    expect(r.hash).toBe(createHash("sha256").update(JSON.stringify(fields)).digest("hex"))
  })

  test("rows appended as a batch chain exactly like rows appended one by one", () => {
    const one = storeWith(sampleRun("r1"))
    const batch = openStore(tempDb())
    batch.tx(() => appendAuditRows(batch, sampleRun("r1").slice(0, 4)))
    batch.tx(() => appendAuditRows(batch, sampleRun("r1").slice(4)))
    const hashes = (s: typeof one) => s.sqlite.query("SELECT id, hash FROM audit ORDER BY id").all()
    expect(hashes(batch)).toEqual(hashes(one))
    expect(verifyStore(batch)).toMatchObject({ ok: true, rows: 9, head: { lastId: 9 } })
  })

  test("an untouched chain verifies", () => {
    const result = verifyStore(tenRows())
    expect(result).toMatchObject({ ok: true, rows: 10, last: { id: 10 }, head: { lastId: 10 } })
  })

  test("an edited field is caught at that row", () => {
    const store = tenRows()
    store.sqlite.run("UPDATE audit SET result = 'approved' WHERE id = 4")
    expect(verifyStore(store).problem).toMatchObject({ kind: "changed", id: 4 })
  })

  test("auto_approved set to a value ccode never writes is caught too", () => {
    const store = tenRows()
    store.sqlite.run("UPDATE audit SET auto_approved = 2 WHERE id = 2")
    expect(verifyStore(store).problem).toMatchObject({ kind: "changed", id: 2 })
  })

  test("an edited row whose hash was recomputed breaks the link to the next row", () => {
    const store = tenRows()
    const row = readRow(store.sqlite.query("SELECT * FROM audit WHERE id = 5").get() as RawAuditRow)
    const forged = { ...row, result: "denied" as const, autoApproved: false }
    store.sqlite.query("UPDATE audit SET result = 'denied', auto_approved = 0, hash = ? WHERE id = 5").run(rowHash(5, forged, row.prevHash))
    expect(verifyStore(store).problem).toMatchObject({ kind: "changed", id: 6 })
  })

  test("a deleted row in the middle is named", () => {
    const store = tenRows()
    store.sqlite.run("DELETE FROM audit WHERE id = 6")
    const result = verifyStore(store)
    expect(result.ok).toBe(false)
    expect(result.problem).toMatchObject({ kind: "deleted", id: 6 })
    expect(result.problem!.message).toContain("row 6 was deleted")
  })

  test("a deleted last row is caught by the chain head", () => {
    const store = tenRows()
    store.sqlite.run("DELETE FROM audit WHERE id = 10")
    expect(verifyStore(store).problem).toMatchObject({ kind: "deleted", id: 10 })
  })

  test("rows written after a deletion still link to the deleted row, so the gap stays visible", () => {
    const store = tenRows()
    store.sqlite.run("DELETE FROM audit WHERE id = 10")
    store.tx(() => appendAudit(store, { type: "session_start", actor: "user", runId: "r2" }))
    expect(verifyStore(store).problem).toMatchObject({ kind: "deleted", id: 10 })
  })

  test("an inserted row is caught, whether its hash is garbage or correctly computed", () => {
    const garbage = tenRows()
    garbage.sqlite.run(`INSERT INTO audit (ts, run_id, type, actor, action, result, prev_hash, hash) VALUES (1, 'r1', 'permission', 'user', 'approve', 'approved', '${"a".repeat(64)}', '${"b".repeat(64)}')`)
    expect(verifyStore(garbage).problem).toMatchObject({ kind: "inserted", id: 11 })

    const careful = tenRows()
    const last = careful.sqlite.query("SELECT hash FROM audit WHERE id = 10").get() as { hash: string }
    const entry = { ts: 1, runId: "r1", callId: null, type: "permission" as const, actor: "user" as const, tool: null, action: "approve", result: "approved" as const, risk: null, autoApproved: null, reason: null, data: null }
    careful.sqlite.query("INSERT INTO audit (id, ts, run_id, type, actor, action, result, prev_hash, hash) VALUES (11, 1, 'r1', 'permission', 'user', 'approve', 'approved', ?, ?)").run(last.hash, rowHash(11, entry, last.hash))
    expect(verifyStore(careful).problem).toMatchObject({ kind: "inserted", id: 11 })
    // the next real row links past the inserted one, to the head
    careful.tx(() => appendAudit(careful, { type: "session_end", actor: "system" }))
    expect(verifyStore(careful).problem).toMatchObject({ kind: "inserted", id: 11 })
  })

  test("a row inserted before the first one is caught", () => {
    const store = tenRows()
    store.sqlite.run(`INSERT INTO audit (id, ts, type, actor, prev_hash, hash) VALUES (0, 1, 'trust', 'user', '${GENESIS}', '${"c".repeat(64)}')`)
    expect(verifyStore(store).problem).toMatchObject({ kind: "inserted", id: 0 })
  })

  test("an empty database verifies; emptying a written one does not", () => {
    expect(verifyStore(storeWith([])).ok).toBe(true)
    const store = tenRows()
    store.sqlite.run("DELETE FROM audit")
    expect(verifyStore(store).problem).toMatchObject({ kind: "deleted", id: 1 })
  })

  test("deleting the newest rows and the chain head together is caught", () => {
    const store = tenRows()
    store.sqlite.run("DELETE FROM audit WHERE id > 7")
    store.sqlite.run("DELETE FROM audit_head")
    const result = verifyStore(store)
    expect(result.ok).toBe(false)
    expect(result.problem).toMatchObject({ kind: "deleted", id: 8 })
    expect(result.problem!.message).toContain("audit_head")
  })

  test("a database written before the chain head existed gets its head when it is migrated, then verifies", () => {
    const path = tempDb()
    // as an old ccode left it: the schema of its first two migrations, rows, and no head yet
    const old = new Database(path, { create: true, strict: true })
    for (const migration of migrations.slice(0, 2)) for (const statement of migration.sql.split("--> statement-breakpoint")) if (statement.trim()) old.run(statement)
    old.run("PRAGMA user_version = 2")
    const store = { path, sqlite: old, tx: <T>(fn: () => T) => old.transaction(fn).immediate(), close: () => old.close() }
    store.tx(() => appendAuditRows(store, sampleRun("r1")))
    old.run("DELETE FROM audit_head")
    old.close()
    const upgraded = openStore(path)
    expect(verifyStore(upgraded)).toMatchObject({ ok: true, rows: 9, head: { lastId: 9 } })
    upgraded.close()
  })
})
