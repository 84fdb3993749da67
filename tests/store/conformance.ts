// The store conformance suite: the same tests, with the same expected results, against every backend
// (conformance.sqlite.test.ts, conformance.pg.test.ts). A backend passes when the runner could not
// tell which one it is talking to.
import { describe, expect, test } from "bun:test"
import type { Backend, CommitUnit, RunStore } from "../../core/runstore/api.ts"
import type { NewCall } from "../../core/store/calls.ts"
import { migrateDb, openRunStore, schemaStatusOf } from "../../core/runstore/select.ts"

export interface Harness {
  /** a new, empty database (not migrated) */
  fresh(): Promise<string>
  /** run one SQL statement on it over a connection of its own */
  exec(target: string, sql: string): Promise<void>
}

const now = Date.now()
const run = (id: string, extra: Record<string, unknown> = {}) => ({
  id, task: "build", taskFile: "/w/task.yaml", workdir: "/w", status: "running" as const, driver: "steps" as const, createdAt: now, updatedAt: now, ...extra,
})
const call = (id: string, runId: string, seq: number, extra: Partial<NewCall> = {}): NewCall => ({
  id, runId, seq, tool: "shell", args: JSON.stringify({ command: `echo ${seq}` }), argsHash: `h${seq}`, status: "running", startedAt: now, ...extra,
})
const request = (id: string, runId: string) => ({ id, runId, kind: "approval" as const, status: "pending" as const, title: `approve ${id}`, createdAt: now })

async function ready(h: Harness): Promise<{ target: string; store: RunStore }> {
  const target = await h.fresh()
  await migrateDb(target)
  return { target, store: await openRunStore(target) }
}

async function auditCount(store: RunStore): Promise<number> {
  return (await store.queryAudit({})).length
}

export function conformance(backend: Backend, harness: () => Harness): void {
  const T = 60_000
  describe(`store conformance (${backend})`, () => {
    test("migrations are idempotent: migrate twice, the second applies nothing", async () => {
      const h = harness()
      const target = await h.fresh()
      const first = await migrateDb(target)
      expect(first.before.applied).toBe(0)
      expect(first.after).toMatchObject({ backend, state: "current", pending: [] })
      const second = await migrateDb(target)
      expect(second.before).toMatchObject({ state: "current", applied: first.after.latest, pending: [] })
      expect(await schemaStatusOf(target)).toEqual(second.after)
      const store = await openRunStore(target)
      expect(await store.schemaStatus()).toEqual(second.after)
      await store.close()
    }, T)

    test("a database written by a newer ccode is refused, by open and by migrate", async () => {
      const h = harness()
      const target = await h.fresh()
      const { after } = await migrateDb(target)
      await h.exec(target, backend === "sqlite" ? `PRAGMA user_version = ${after.latest + 1}` : `INSERT INTO ccode_migrations (idx, tag, applied_at) VALUES (${after.latest}, 'future', 0)`)
      expect((await schemaStatusOf(target)).state).toBe("newer")
      await expect(openRunStore(target)).rejects.toThrow(/newer ccode/)
      await expect(migrateDb(target)).rejects.toThrow(/newer ccode/)
    }, T)

    test("runs: create, find by unique prefix, list, update, last resumable", async () => {
      const { store } = await ready(harness())
      await store.createRun(run("run-aaa1", { createdAt: now - 2 }))
      await store.createRun(run("run-aab2", { createdAt: now - 1, status: "paused" }))
      await store.createRun(run("run-b", { status: "completed" }))
      expect((await store.findRun("run-aaa")).id).toBe("run-aaa1")
      await expect(store.findRun("run-aa")).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining("ambiguous") })
      await expect(store.findRun("zzz")).rejects.toMatchObject({ exitCode: 2 })
      await expect(store.findRun("run-%")).rejects.toMatchObject({ exitCode: 2 })
      expect((await store.listRuns()).map((r) => r.id)).toEqual(["run-b", "run-aab2", "run-aaa1"])
      expect((await store.listRuns({ status: "paused" })).map((r) => r.id)).toEqual(["run-aab2"])
      expect((await store.listRuns({ limit: 1 })).map((r) => r.id)).toEqual(["run-b"])
      await store.updateRun("run-aaa1", { status: "stopped", message: "stopped by user" })
      const updated = await store.findRun("run-aaa1")
      expect(updated).toMatchObject({ status: "stopped", message: "stopped by user" })
      expect(updated.updatedAt).toBeGreaterThanOrEqual(now)
      expect((await store.lastResumable())?.id).toBe("run-aaa1")
      await store.close()
    }, T)

    test("write-ahead call row, then settle: in flight until the result commits; the settle keeps what the intent recorded", async () => {
      const { store } = await ready(harness())
      await store.createRun(run("r"))
      await store.commit({ runId: "r", calls: [call("c1", "r", 1, { decision: "allow", risk: "low", decidedBy: "rule:1" })], audit: [{ type: "tool_call", actor: "agent", callId: "c1" }] })
      expect((await store.inFlightCalls("r")).map((c) => c.id)).toEqual(["c1"])
      expect(await store.lastCallSeq("r")).toBe(1)
      await store.commit({
        runId: "r",
        calls: [call("c1", "r", 1, { status: "ok", finishedAt: now + 5, durationMs: 5, exitCode: 0, output: "hi\n", bytes: 3 })],
        checkpoint: { seq: 1, state: { step: 1, counters: { ok: 1 } } },
        events: [{ ts: now, type: "step.finished", data: JSON.stringify({ type: "step.finished", call: "c1" }) }],
        audit: [{ type: "checkpoint", actor: "system", action: "checkpoint 1", result: "success" }],
      })
      expect(await store.inFlightCalls("r")).toEqual([])
      expect(await store.getCall("c1")).toMatchObject({ status: "ok", decision: "allow", risk: "low", decidedBy: "rule:1", exitCode: 0, output: "hi\n", bytes: 3, durationMs: 5 })
      expect(await store.latestCheckpoint("r")).toEqual({ seq: 1, state: { step: 1, counters: { ok: 1 } } })
      expect(await store.runEvents("r")).toEqual([{ type: "step.finished", call: "c1" }])
      expect((await store.callsOf("r")).map((c) => c.seq)).toEqual([1])
      expect((await store.verifyAudit()).rows).toBe(2)
      await store.close()
    }, T)

    test("a run is created with its first step (newRun), or not at all; a serialised checkpoint reads back as its state; events filter by type", async () => {
      const { store } = await ready(harness())
      const first = { runId: "r", newRun: run("r"), checkpoint: { seq: 1, json: JSON.stringify({ at: 1, plan: undefined }) }, events: [
        { ts: now, type: "run.started", data: JSON.stringify({ type: "run.started" }) },
        { ts: now, type: "guard", data: JSON.stringify({ type: "guard", guard: "loop" }) },
      ], audit: [{ type: "session_start" as const, actor: "user" as const }] }
      // a failure late in the unit leaves no run row behind
      await expect(store.commit({ ...first, requests: [request("q", "r"), request("q", "r")] })).rejects.toThrow()
      await expect(store.findRun("r")).rejects.toMatchObject({ exitCode: 2 })
      expect((await store.verifyAudit()).rows).toBe(0)
      await store.commit(first)
      expect(await store.findRun("r")).toMatchObject({ id: "r", status: "running" })
      expect(await store.latestCheckpoint("r")).toEqual({ seq: 1, state: { at: 1 } })
      expect(await store.runEvents("r", "guard")).toEqual([{ type: "guard", guard: "loop" }])
      expect((await store.runEvents("r")).length).toBe(2)
      await store.close()
    }, T)

    test("a unit with runIs is written only if the run is still as read (cancel vs. a resume elsewhere)", async () => {
      const { store } = await ready(harness())
      await store.createRun(run("r", { status: "paused", pid: null }))
      await store.commit({ runId: "r", requests: [request("q", "r")] })
      const cancel = { runId: "r", runIs: { status: "paused" as const, pid: null }, run: { status: "cancelled" as const, pid: null }, settlements: [{ id: "q", status: "cancelled" as const, settledBy: "cancel" }], audit: [{ type: "state_change" as const, actor: "user" as const }] }
      // a resume took it over first: the cancel writes nothing
      expect(await store.claimRun("r", { status: "paused", pid: null }, { status: "running", pid: 7 })).toBe(true)
      await expect(store.commit(cancel)).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining("changed meanwhile (now running, pid 7)") })
      expect(await store.getRequest("q")).toMatchObject({ status: "pending" })
      expect((await store.verifyAudit()).rows).toBe(0)
      await store.updateRun("r", { status: "paused", pid: null })
      await store.commit(cancel)
      expect(await store.findRun("r")).toMatchObject({ status: "cancelled" })
      expect(await store.getRequest("q")).toMatchObject({ status: "cancelled" })
      await store.close()
    }, T)

    test("claimRun takes a run over only as it was read: of two resumes, one wins", async () => {
      const { store } = await ready(harness())
      await store.createRun(run("r", { status: "paused", pid: null }))
      const [one, two] = await Promise.all([
        store.claimRun("r", { status: "paused", pid: null }, { status: "running", pid: 101, host: "a" }),
        store.claimRun("r", { status: "paused", pid: null }, { status: "running", pid: 202, host: "b" }),
      ])
      expect([one, two].filter(Boolean).length).toBe(1)
      const claimed = await store.findRun("r")
      expect(claimed.pid).toBe(one ? 101 : 202)
      // a crashed run (running, its pid gone) is claimed by matching that pid, not another
      expect(await store.claimRun("r", { status: "running", pid: 999 }, { pid: 303 })).toBe(false)
      expect(await store.claimRun("r", { status: "running", pid: claimed.pid }, { pid: 303 })).toBe(true)
      expect((await store.findRun("r")).pid).toBe(303)
      await store.close()
    }, T)

    test("call patches and the run's own settlements commit with the step; a settled request cannot be settled again", async () => {
      const { store } = await ready(harness())
      await store.createRun(run("r"))
      await store.commit({ runId: "r", calls: [call("c1", "r", 1, { decision: "allow" })], requests: [request("bp", "r")] })
      await store.commit({ runId: "r", callPatches: [{ id: "c1", patch: { status: "interrupted", errorCode: "INTERRUPTED" } }], settlements: [{ id: "bp", status: "approved", settledBy: "breakpoint" }] })
      expect(await store.getCall("c1")).toMatchObject({ status: "interrupted", errorCode: "INTERRUPTED", decision: "allow", tool: "shell" })
      expect(await store.getRequest("bp")).toMatchObject({ status: "approved", settledBy: "breakpoint" })
      await expect(store.commit({ runId: "r", callPatches: [{ id: "c1", patch: { status: "ok" } }], settlements: [{ id: "bp", status: "denied", settledBy: "x" }] })).rejects.toMatchObject({ exitCode: 2 })
      expect((await store.getCall("c1"))!.status).toBe("interrupted")
      // a relaxed write (a running tool's process group) is stored like any other, read back at once
      await store.commit({ runId: "r", callPatches: [{ id: "c1", patch: { pgid: 4242 } }], relaxed: true })
      expect((await store.getCall("c1"))!.pgid).toBe(4242)
      await store.close()
    }, T)

    test("an agent's messages, usage and undo snapshots commit with the step and read back in order", async () => {
      const h = harness()
      const { store } = await ready(h)
      await store.createRun(run("r", { driver: "agent" }))
      await store.commit({
        runId: "r",
        messages: [{ seq: 0, message: JSON.stringify({ role: "user", content: "hi" }) }, { seq: 1, message: JSON.stringify({ role: "assistant", content: "ok" }) }],
        usage: [{ turn: 1, model: "m", inputTokens: 10, outputTokens: 5, cost: 0.25, createdAt: now }],
        snapshots: [{ callId: "c2", step: 2, ref: "b".repeat(40) }, { callId: "c1", step: 1, ref: "a".repeat(40) }],
        audit: [{ type: "checkpoint", actor: "system", action: "snapshot", runId: "r" }],
      })
      expect(await store.messagesOf("r")).toEqual([{ seq: 0, message: '{"role":"user","content":"hi"}' }, { seq: 1, message: '{"role":"assistant","content":"ok"}' }])
      expect(await store.usageOf("r")).toEqual([{ turn: 1, model: "m", inputTokens: 10, outputTokens: 5, cost: 0.25, createdAt: now }])
      expect((await store.snapshotsOf("r")).map(({ callId, step, ref, runId }) => ({ callId, step, ref, runId }))).toEqual([
        { callId: "c1", step: 1, ref: "a".repeat(40), runId: "r" },
        { callId: "c2", step: 2, ref: "b".repeat(40), runId: "r" },
      ])
      // a message seq stored twice fails the whole step
      await expect(store.commit({ runId: "r", messages: [{ seq: 1, message: "{}" }], snapshots: [{ callId: "c3", step: 3, ref: "c" }] })).rejects.toThrow()
      expect((await store.snapshotsOf("r")).length).toBe(2)
      expect((await store.deleteRuns(["r"])).sort()).toEqual(["a".repeat(40), "b".repeat(40)])
      expect(await store.resolveAuditRun("r")).toBe("r") // the audit outlives the run
      await store.close()
    }, T)

    test("after runs are deleted, the snapshot refs another run still holds are in use, the rest are not", async () => {
      const { store } = await ready(harness())
      await store.createRun(run("gone"))
      await store.createRun(run("kept"))
      await store.commit({ runId: "gone", snapshots: [{ callId: null, step: 1, ref: "a".repeat(40) }, { callId: null, step: 2, ref: "b".repeat(40) }] })
      // an unchanged workspace gives the next run the same snapshot
      await store.commit({ runId: "kept", snapshots: [{ callId: null, step: 1, ref: "b".repeat(40) }] })
      const refs = await store.deleteRuns(["gone"])
      expect(refs.sort()).toEqual(["a".repeat(40), "b".repeat(40)])
      expect([...(await store.snapshotRefsInUse([...refs, ...Array.from({ length: 1200 }, (_, i) => `x${i}`)]))]).toEqual(["b".repeat(40)])
      expect(await store.snapshotRefsInUse([])).toEqual(new Set())
      await store.close()
    }, T)

    test("checkpoints keep the last two; plan rows round-trip in plan order", async () => {
      const { store } = await ready(harness())
      await store.createRun(run("r"))
      for (const seq of [1, 2, 3]) await store.commit({ runId: "r", checkpoint: { seq, state: { seq } } })
      expect(await store.latestCheckpoint("r")).toEqual({ seq: 3, state: { seq: 3 } })
      const items = [
        { id: "b", title: "B", state: "pending", attempts: 0, needs: ["a"], continueOnError: true, depth: 1, note: "n", waiting: true, denied: "person" },
        { id: "a", title: "A", state: "done", attempts: 2, needs: [], continueOnError: false, depth: 0, waiting: false },
      ]
      await store.commit({ runId: "r", plan: { items, positions: [1, 0] } })
      expect(await store.loadPlan("r")).toEqual([
        { id: "a", title: "A", state: "done", attempts: 2, needs: [], continueOnError: false, depth: 0, note: undefined, waiting: false, denied: undefined },
        { id: "b", title: "B", state: "pending", attempts: 0, needs: ["a"], continueOnError: true, depth: 1, note: "n", waiting: true, denied: "person" },
      ])
      await store.commit({ runId: "r", plan: { items: [{ ...items[1]!, state: "failed", attempts: 3 }], positions: [0] } })
      expect((await store.loadPlan("r"))[0]).toMatchObject({ id: "a", state: "failed", attempts: 3 })
      await store.close()
    }, T)

    test("a unit merged from several steps: the same call and plan item twice leave what writing them one after another would", async () => {
      const { store } = await ready(harness())
      await store.createRun(run("r"))
      await store.commit({ runId: "r", calls: [call("c0", "r", 1, { decision: "allow", risk: "low" })] })
      const item = { id: "a", title: "A", state: "pending", attempts: 0, needs: [], continueOnError: false, depth: 0, waiting: false }
      await store.commit({
        runId: "r",
        calls: [call("c1", "r", 2, { decision: "allow" }), call("c1", "r", 2, { status: "ok", output: "first" })],
        callPatches: [{ id: "c1", patch: { exitCode: 3 } }, { id: "c1", patch: { output: "second" } }, { id: "c0", patch: { status: "ok", exitCode: 0 } }, { id: "gone", patch: { status: "ok" } }],
        plan: { items: [item, { ...item, id: "b", title: "B" }, { ...item, state: "done", attempts: 1 }] },
        events: [1, 2, 3].map((i) => ({ ts: now, type: "e", data: JSON.stringify({ i }) })),
        audit: [{ type: "tool_call", actor: "agent", callId: "c1" }, { type: "checkpoint", actor: "system" }],
      })
      expect(await store.getCall("c1")).toMatchObject({ status: "ok", decision: "allow", exitCode: 3, output: "second" })
      expect(await store.getCall("c0")).toMatchObject({ status: "ok", decision: "allow", risk: "low", exitCode: 0 })
      // a patch to a call that has no row creates none
      expect(await store.getCall("gone")).toBeUndefined()
      expect((await store.loadPlan("r")).map((p) => [p.id, p.state, p.attempts])).toEqual([["b", "pending", 0], ["a", "done", 1]])
      expect(await store.runEvents("r")).toEqual([{ i: 1 }, { i: 2 }, { i: 3 }])
      expect(await store.verifyAudit()).toMatchObject({ ok: true, rows: 2 })
      await store.close()
    }, T)

    test("checkpoint + events + audit is one transaction: a failure late in it leaves nothing, and the chain has no gap", async () => {
      const { store } = await ready(harness())
      await store.createRun(run("r"))
      await store.commit({ runId: "r", requests: [request("q1", "r")], checkpoint: { seq: 1, state: { at: 1 } }, audit: [{ type: "permission", actor: "policy" }] })
      const headBefore = (await store.verifyAudit()).last
      const failing: CommitUnit = {
        runId: "r",
        run: { status: "paused" },
        calls: [call("c2", "r", 2)],
        plan: { items: [{ id: "x", title: "X", state: "active", attempts: 1 }] },
        checkpoint: { seq: 2, state: { at: 2 } },
        events: [{ ts: now, type: "run.paused", data: "{}" }],
        audit: [{ type: "tool_call", actor: "agent" }, { type: "checkpoint", actor: "system" }],
        requests: [request("q1", "r")], // already exists: fails after the run, call, plan, checkpoint and events were written
      }
      await expect(store.commit(failing)).rejects.toThrow()
      expect(await store.getCall("c2")).toBeUndefined()
      expect(await store.latestCheckpoint("r")).toEqual({ seq: 1, state: { at: 1 } })
      expect(await store.runEvents("r")).toEqual([])
      expect(await store.loadPlan("r")).toEqual([])
      expect((await store.findRun("r")).status).toBe("running")
      const after = await store.verifyAudit()
      expect(after).toMatchObject({ ok: true, rows: 1, last: headBefore })
      // a failure early in the transaction (a second call with the same seq) is the same
      await expect(store.commit({ runId: "r", calls: [call("c3", "r", 3), call("c4", "r", 3)], audit: [{ type: "tool_call", actor: "agent" }] })).rejects.toThrow()
      expect(await store.getCall("c3")).toBeUndefined()
      // the next commit links to the last committed row: ids stay contiguous
      expect(await store.commit({ runId: "r", audit: [{ type: "tool_call", actor: "agent" }] })).toEqual([2])
      expect(await store.verifyAudit()).toMatchObject({ ok: true, rows: 2 })
      await store.close()
    }, T)

    test("a request is approved from another connection; settling it again fails and writes nothing", async () => {
      const h = harness()
      const { target, store: here } = await ready(h)
      await here.createRun(run("r", { status: "paused" }))
      await here.commit({ runId: "r", requests: [request("q1", "r"), request("q2", "r")] })
      const there = await openRunStore(target)
      await there.settleRequests([{ id: "q1", status: "approved", forRun: true, settledBy: "alice@ci-7" }], [{ runId: "r", type: "permission", actor: "user", action: "approve:approval", result: "approved" }])
      expect(await here.getRequest("q1")).toMatchObject({ status: "approved", forRun: true, settledBy: "alice@ci-7" })
      expect((await here.getRequest("q1"))!.settledAt).toBeGreaterThanOrEqual(now)
      expect((await here.requestsOf("r", "pending")).map((r) => r.id)).toEqual(["q2"])
      const rows = await auditCount(here)
      await expect(here.settleRequests([{ id: "q2", status: "denied", settledBy: "bob" }, { id: "q1", status: "denied", settledBy: "bob" }], [{ type: "permission", actor: "user" }])).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining("already approved") })
      expect((await here.getRequest("q2"))!.status).toBe("pending")
      expect(await auditCount(here)).toBe(rows)
      await there.close()
      await here.close()
    }, T)

    test("two machines settling the same request at once: exactly one wins", async () => {
      const h = harness()
      const { target, store: a } = await ready(h)
      const b = await openRunStore(target)
      await a.createRun(run("r", { status: "paused" }))
      await a.commit({ runId: "r", requests: [request("q", "r")] })
      const results = await Promise.allSettled([
        a.settleRequests([{ id: "q", status: "approved", settledBy: "a" }], [{ type: "permission", actor: "user", reason: "a" }]),
        b.settleRequests([{ id: "q", status: "denied", settledBy: "b" }], [{ type: "permission", actor: "user", reason: "b" }]),
      ])
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1)
      const winner = (await a.getRequest("q"))!.settledBy
      expect((await a.queryAudit({ types: ["permission"] })).map((r) => r.reason)).toEqual([winner])
      await b.close()
      await a.close()
    }, T)

    test("trust rows: per workspace and content hash, recorded and revoked with their audit rows", async () => {
      const { store } = await ready(harness())
      await store.recordTrust("/w", "/w/.ccode/policy.yaml", "h1", { type: "trust", actor: "user", action: "trust" })
      expect(await store.isTrusted("/w", "/w/.ccode/policy.yaml", "h1")).toBe(true)
      expect(await store.isTrusted("/w", "/w/.ccode/policy.yaml", "h2")).toBe(false)
      expect(await store.isTrusted("/other", "/w/.ccode/policy.yaml", "h1")).toBe(false)
      await store.recordTrust("/w", "/w/.ccode/policy.yaml", "h2")
      expect(await store.isTrusted("/w", "/w/.ccode/policy.yaml", "h2")).toBe(true)
      expect((await store.trustedFiles()).map(({ workspace, path, hash }) => ({ workspace, path, hash }))).toEqual([{ workspace: "/w", path: "/w/.ccode/policy.yaml", hash: "h2" }])
      expect(await store.revokeTrust("/w", "/w/.ccode/policy.yaml", { type: "trust", actor: "user", action: "revoke" })).toBe(true)
      expect(await store.revokeTrust("/w", "/w/.ccode/policy.yaml", { type: "trust", actor: "user", action: "revoke" })).toBe(false)
      expect((await store.queryAudit({ types: ["trust"] })).map((r) => r.action)).toEqual(["trust", "revoke"])
      await store.close()
    }, T)

    test("setTrust: several files trusted or revoked with one audit row, in one transaction", async () => {
      const { store } = await ready(harness())
      const audit = (action: string) => (changed: boolean[]) => ({ type: "trust" as const, actor: "user" as const, action, data: JSON.stringify(changed) })
      expect(await store.setTrust([{ workspace: "/w", path: "/w/a.yaml", hash: "h1" }, { workspace: "/w", path: "/w/b.ts", hash: "h2" }], audit("trust"))).toEqual([true, true])
      expect(await store.setTrust([{ workspace: "/w", path: "/w/a.yaml", hash: null }, { workspace: "/w", path: "/w/none", hash: null }], audit("revoke"))).toEqual([true, false])
      expect((await store.trustedFiles()).map((f) => [f.workspace, f.path, f.hash])).toEqual([["/w", "/w/b.ts", "h2"]])
      expect((await store.queryAudit({ types: ["trust"] })).map((r) => [r.action, r.data])).toEqual([["trust", "[true,true]"], ["revoke", "[true,false]"]])
      await store.close()
    }, T)

    test("audit: contiguous ids, filters, newest rows with a limit, verify finds a changed row", async () => {
      const h = harness()
      const { target, store } = await ready(h)
      const fp = JSON.stringify({ policy_fingerprint: "abcdef0123" })
      expect(await store.appendAudit([{ type: "session_start", actor: "system", runId: "r1", ts: 1000 }, { type: "decision", actor: "policy", runId: "r1", data: fp, ts: 2000 }])).toEqual([1, 2])
      expect(await store.appendAudit([{ type: "decision", actor: "policy", runId: "r2", data: "not json", ts: 3000 }, { type: "session_end", actor: "system", runId: "r2", ts: 4000 }])).toEqual([3, 4])
      expect((await store.queryAudit({ runs: ["r1"] })).map((r) => r.id)).toEqual([1, 2])
      expect((await store.queryAudit({ types: ["decision"] })).map((r) => r.id)).toEqual([2, 3])
      expect((await store.queryAudit({ since: 2000, until: 3000 })).map((r) => r.id)).toEqual([2, 3])
      expect((await store.queryAudit({ limit: 2 })).map((r) => r.id)).toEqual([3, 4])
      expect((await store.queryAudit({ policyFingerprint: "abcdef" })).map((r) => r.id)).toEqual([2])
      expect(await store.resolveAuditRun("r1")).toBe("r1")
      await expect(store.resolveAuditRun("r")).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining("ambiguous") })
      await expect(store.resolveAuditRun("x")).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining("no audit rows") })
      const [row] = await store.queryAudit({ runs: ["r1"], limit: 1 })
      expect(row).toMatchObject({ id: 2, ts: 2000, runId: "r1", type: "decision", actor: "policy", data: fp, autoApproved: null })
      expect(await store.verifyAudit()).toMatchObject({ ok: true, rows: 4, head: { lastId: 4 } })
      await h.exec(target, "UPDATE audit SET reason = 'nothing to see' WHERE id = 2")
      expect(await store.verifyAudit()).toMatchObject({ ok: false, problem: { kind: "changed", id: 2 } })
      await store.close()
    }, T)

    test("audit: a bulk append of thousands of rows in one call, and one that meets a planted row", async () => {
      const h = harness()
      const { target, store } = await ready(h)
      const bulk = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ type: "tool_call" as const, actor: "agent" as const, action: `${tag} ${i}` }))
      const first = await store.appendAudit(bulk(4500, "a"))
      expect(first).toEqual(Array.from({ length: 4500 }, (_, i) => i + 1))
      expect(await store.verifyAudit()).toMatchObject({ ok: true, rows: 4500 })
      await h.exec(target, "INSERT INTO audit (id, ts, type, actor, prev_hash, hash) VALUES (4502, 0, 'decision', 'user', 'forged', 'forged')")
      const second = await store.appendAudit(bulk(2500, "b"))
      expect(second[0]).toBe(4501)
      expect(second[1]).toBe(4503)
      expect(second[second.length - 1]).toBe(7001)
      expect(await store.verifyAudit()).toMatchObject({ ok: false, problem: { id: 4502 } })
      await store.close()
    }, 120_000)

    test("audit: a deleted row, and the newest rows removed with the head, are found", async () => {
      const h = harness()
      const { target, store } = await ready(h)
      await store.appendAudit([1, 2, 3, 4].map((i) => ({ type: "tool_call" as const, actor: "agent" as const, action: `a${i}` })))
      await h.exec(target, "DELETE FROM audit WHERE id = 2")
      expect(await store.verifyAudit()).toMatchObject({ ok: false, problem: { kind: "deleted", id: 2 } })
      const other = await ready(h)
      await other.store.appendAudit([1, 2, 3].map((i) => ({ type: "tool_call" as const, actor: "agent" as const, action: `a${i}` })))
      await h.exec(other.target, "DELETE FROM audit WHERE id = 3")
      await h.exec(other.target, "DELETE FROM audit_head")
      expect(await other.store.verifyAudit()).toMatchObject({ ok: false, problem: { kind: "deleted", id: 3 } })
      await other.store.close()
      await store.close()
    }, T)

    test("audit: a row planted past the head is stepped over, never overwritten, and verify names it", async () => {
      const h = harness()
      const { target, store } = await ready(h)
      await store.appendAudit([{ type: "session_start", actor: "system" }, { type: "decision", actor: "policy" }])
      await h.exec(target, "INSERT INTO audit (id, ts, type, actor, prev_hash, hash) VALUES (3, 0, 'decision', 'user', 'forged', 'forged')")
      expect(await store.appendAudit([{ type: "tool_call", actor: "agent" }, { type: "session_end", actor: "system" }])).toEqual([4, 5])
      const rows = await store.queryAudit({})
      expect(rows.map((r) => [r.id, r.actor])).toEqual([[1, "system"], [2, "policy"], [3, "user"], [4, "agent"], [5, "system"]])
      expect(rows[3]!.prevHash).toBe(rows[1]!.hash)
      expect(await store.verifyAudit()).toMatchObject({ ok: false, problem: { id: 3 } })
      await store.close()
    }, T)

    test("many commits at once from one process: each its own transaction, one unbroken chain", async () => {
      const { store } = await ready(harness())
      await store.createRun(run("r"))
      const ids = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.commit({ runId: "r", calls: [call(`c${i}`, "r", i + 1)], events: [{ ts: now, type: "e", data: JSON.stringify({ i }) }], audit: [{ type: "tool_call", actor: "agent", callId: `c${i}` }, { type: "checkpoint", actor: "system", callId: `c${i}` }] }),
        ),
      )
      // a commit's rows are consecutive: no other commit's row landed between them
      for (const pair of ids) expect(pair[1]).toBe(pair[0]! + 1)
      expect(ids.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
      expect((await store.callsOf("r")).length).toBe(20)
      expect(await store.verifyAudit()).toMatchObject({ ok: true, rows: 40 })
      await store.close()
    }, T)

    test("audit: 16 writer processes append at once; the chain stays one and verifies", async () => {
      const { target, store } = await ready(harness())
      const WRITERS = 16
      const ROWS = 25
      const procs = Array.from({ length: WRITERS }, (_, i) =>
        Bun.spawn([process.execPath, `${import.meta.dir}/audit-writer.ts`, target, String(ROWS), `w${i}`], { stdout: "pipe", stderr: "pipe" }),
      )
      const outcomes = await Promise.all(procs.map(async (p) => ({ code: await p.exited, err: await new Response(p.stderr).text() })))
      for (const o of outcomes) expect(o).toEqual({ code: 0, err: "" })
      const verified = await store.verifyAudit()
      expect(verified).toMatchObject({ ok: true, rows: WRITERS * ROWS, head: { lastId: WRITERS * ROWS } })
      const rows = await store.queryAudit({})
      expect(rows.map((r) => r.id)).toEqual(Array.from({ length: WRITERS * ROWS }, (_, i) => i + 1))
      for (let i = 0; i < WRITERS; i++) {
        expect(rows.filter((r) => r.reason === `w${i}`).map((r) => r.action)).toEqual(Array.from({ length: ROWS }, (_, n) => `w${i} ${n}`))
      }
      await store.close()
    }, 180_000)

    test("prune: candidates with their last touch; deleting runs removes their rows but never audit rows", async () => {
      const { store } = await ready(harness())
      await store.createRun(run("old", { status: "completed", createdAt: 10, updatedAt: 10, host: "ci-3" }))
      await store.createRun(run("new"))
      await store.commit({ runId: "old", calls: [call("c", "old", 1)], events: [{ ts: 1, type: "x", data: "{}" }], requests: [request("q", "old")], audit: [{ type: "tool_call", actor: "agent", runId: "old" }] })
      const candidates = await store.pruneCandidates()
      expect(candidates.map((c) => c.id)).toEqual(["old", "new"])
      expect(candidates[0]).toMatchObject({ id: "old", task: "build", status: "completed", pid: null, host: "ci-3" })
      expect(candidates[0]!.touchedAt).toBeGreaterThanOrEqual(10)
      expect(await store.deleteRuns(["old"])).toEqual([])
      expect(await store.getCall("c")).toBeUndefined()
      expect(await store.runEvents("old")).toEqual([])
      expect(await store.getRequest("q")).toBeUndefined()
      expect((await store.listRuns()).map((r) => r.id)).toEqual(["new"])
      expect(await store.verifyAudit()).toMatchObject({ ok: true, rows: 1 })
      await store.close()
    }, T)
  })
}
