// A step's commit on PostgreSQL as one statement (core/runstore/pg/step.ts): the server chains the
// audit rows itself, so its hashes must be exactly the ones rowHash computes; what the statement
// cannot do (a planted row, a missing head) falls back to the transaction, which steps over it; a
// relaxed write turns off synchronous commit for itself only; and a step never deadlocks with a
// cancel of its run (row locks before the head's, in every writer).
import { expect, test } from "bun:test"
import { SQL } from "bun"
import { hashedFields, rowHash, type AuditEntry } from "../../core/audit/chain.ts"
import type { AuditInput } from "../../core/audit/write.ts"
import { commitStatement } from "../../core/runstore/pg/step.ts"
import { migrateDb, openRunStore } from "../../core/runstore/select.ts"
import { describeWithPg } from "./pg-suite.ts"

// texts a hash must survive byte for byte: quotes, escapes, line and paragraph separators, astral
// characters, control characters, a NUL (stored as U+FFFD before hashing)
const TRICKY = ['"', "\\", "\n\t\r", "\u2028\u2029", "é日本🙂", "\u0001\u001f\u007f", "a\0b", "</script>", "' OR 1=1 --", "$1", ""]

function fuzzed(seed: number, n: number): AuditInput[] {
  let x = seed
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31)
  const pick = <T>(list: readonly T[]): T => list[next() % list.length]!
  const text = () => (next() % 4 === 0 ? null : Array.from({ length: 1 + (next() % 3) }, () => pick(TRICKY)).join(pick(["", " ", "x"])))
  return Array.from({ length: n }, () => ({
    ts: pick([0, 1, 1_700_000_000_123, Number.MAX_SAFE_INTEGER]),
    runId: pick([null, "r"]),
    callId: pick([null, "c1", "c-ü🙂"]),
    type: pick(["tool_call", "decision", "checkpoint"] as const),
    actor: pick(["agent", "policy", "system"] as const),
    tool: text(),
    action: text(),
    result: pick([null, "success", "denied"] as const),
    risk: pick([null, "low", "critical"]),
    autoApproved: pick([null, true, false]),
    reason: text(),
    data: pick([null, JSON.stringify({ s: pick(TRICKY), n: next() }), "not json"]),
  }))
}

test("rowHash hashes the same text as before its fields were split out (hashedFields)", () => {
  for (const input of fuzzed(7, 300)) {
    const entry = { ...input, ts: input.ts!, runId: input.runId ?? null } as AuditEntry
    for (const [id, prev] of [[1, "0".repeat(64)], [987654321, "f".repeat(64)]] as const) {
      const old = new Bun.CryptoHasher("sha256").update(JSON.stringify([
        id, entry.ts, entry.runId, entry.callId, entry.type, entry.actor, entry.tool, entry.action,
        entry.result, entry.risk, entry.autoApproved, entry.reason, entry.data, prev,
      ])).digest("hex")
      expect(rowHash(id, entry, prev)).toBe(old)
    }
    expect(hashedFields(entry).startsWith("[")).toBe(false)
  }
})

describeWithPg("PostgreSQL: a step's commit as one statement", (server) => {
  async function fresh(): Promise<string> {
    const url = await server().createDatabase()
    await migrateDb(url)
    return url
  }
  const runRow = (id: string) => ({ id, task: "t", taskFile: "f", workdir: "/", status: "running" as const, driver: "steps" as const, createdAt: 1, updatedAt: 1 })

  test("the server chains audit rows to exactly the hashes rowHash gives, whatever the text", async () => {
    const url = await fresh()
    const store = await openRunStore(url)
    await store.createRun(runRow("r"))
    const inputs = fuzzed(42, 240)
    let sent = 0
    for (let size = 1; sent < inputs.length; size = (size % 5) + 1) {
      const rows = inputs.slice(sent, sent + size)
      const ids = await store.commit({ runId: "r", events: [{ ts: 1, type: "e", data: "{}" }], audit: rows })
      expect(ids).toEqual(rows.map((_, i) => sent + i + 1))
      sent += rows.length
    }
    const stored = await store.queryAudit({})
    expect(stored.length).toBe(inputs.length)
    for (const [i, row] of stored.entries()) {
      expect(row.hash).toBe(rowHash(row.id, row, row.prevHash))
      expect(row.prevHash).toBe(i === 0 ? "0".repeat(64) : stored[i - 1]!.hash)
      expect(row.reason).toBe(inputs[i]!.reason?.replaceAll("\0", "\uFFFD") ?? null)
    }
    expect(await store.verifyAudit()).toMatchObject({ ok: true, rows: inputs.length })
    await store.close()
  }, 60_000)

  test("a step's commit that meets a row planted past the head steps over it; one without a head row recreates it", async () => {
    const url = await fresh()
    const store = await openRunStore(url)
    const admin = new SQL(url, { max: 1 })
    await store.createRun(runRow("r"))
    const step = (n: number) => ({ runId: "r", events: [{ ts: n, type: "e", data: JSON.stringify({ n }) }], audit: [{ type: "tool_call" as const, actor: "agent" as const, action: `s${n}` }, { type: "checkpoint" as const, actor: "system" as const }] })
    expect(await store.commit(step(1))).toEqual([1, 2])
    await admin`INSERT INTO audit (id, ts, type, actor, prev_hash, hash) VALUES (3, 0, 'decision', 'user', 'forged', 'forged')`
    expect(await store.commit(step(2))).toEqual([4, 5])
    await admin`DELETE FROM audit_head`
    expect(await store.commit(step(3))).toEqual([6, 7])
    const rows = await store.queryAudit({})
    expect(rows.map((r) => [r.id, r.actor])).toEqual([[1, "agent"], [2, "system"], [3, "user"], [4, "agent"], [5, "system"], [6, "agent"], [7, "system"]])
    expect(rows[3]!.prevHash).toBe(rows[1]!.hash)
    expect(await store.runEvents("r")).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }])
    expect(await store.verifyAudit()).toMatchObject({ ok: false, problem: { id: 3 } })
    await admin.close()
    await store.close()
  }, 60_000)

  test("a relaxed write commits asynchronously by itself: the connection keeps synchronous_commit on", async () => {
    const url = await fresh()
    const store = await openRunStore(url)
    await store.createRun(runRow("r"))
    await store.commit({ runId: "r", calls: [{ id: "c", runId: "r", seq: 1, tool: "shell", args: "{}", argsHash: "h", status: "running", startedAt: 1 }] })
    await store.close()
    const client = new SQL(url, { max: 1 })
    expect(await commitStatement(client, { runId: "r", callPatches: [{ id: "c", patch: { pgid: 77 } }], relaxed: true })).toEqual([])
    const [after] = await client`SELECT current_setting('synchronous_commit') AS s, (SELECT pgid FROM calls WHERE id = 'c') AS pgid`
    expect(after).toEqual({ s: "on", pgid: 77 })
    // what carries a checkpoint or audit rows is never relaxed: a unit with both is written durably
    expect(await commitStatement(client, { runId: "r", checkpoint: { seq: 1, state: {} }, audit: [{ type: "checkpoint", actor: "system" }], relaxed: true })).toEqual([1])
    await client.close()
  }, 60_000)

  test("steps of a run and a cancel of it, at once, many times: each waits its turn, none deadlocks", async () => {
    const url = await fresh()
    const stepper = await openRunStore(url)
    const canceller = await openRunStore(url)
    await stepper.createRun(runRow("r"))
    for (let i = 0; i < 25; i++) {
      const [step, cancel] = await Promise.allSettled([
        stepper.commit({ runId: "r", run: { message: `m${i}` }, checkpoint: { seq: i + 1, state: { i } }, events: [{ ts: i, type: "e", data: "{}" }], audit: [{ type: "checkpoint", actor: "system" }] }),
        canceller.commit({ runId: "r", runIs: { status: "running", pid: null }, run: { status: "running" }, events: [{ ts: i, type: "c", data: "{}" }], audit: [{ type: "state_change", actor: "user" }] }),
      ])
      expect([step.status, cancel.status]).toEqual(["fulfilled", "fulfilled"])
    }
    expect(await stepper.verifyAudit()).toMatchObject({ ok: true, rows: 50 })
    await canceller.close()
    await stepper.close()
  }, 120_000)
})
