// The recorder in front of any store: commits reach the store one at a time in the order they were
// made (whatever each takes), each unit is what was buffered when commit() was called, only stored
// events reach the reporter, and a failed commit keeps its events and audit rows for the next one.
import { describe, expect, test } from "bun:test"
import type { CommitUnit, RunStore } from "../../core/runstore/api.ts"
import { createRedactor } from "../../core/redact/index.ts"
import type { RunEvent } from "../../core/runner/events.ts"
import { merge, Recorder } from "../../core/runner/recorder.ts"

/** A store whose commits take as long as `delays` says (one after another), and can be told to fail. */
function slowStore(delays: number[]) {
  const log: string[] = []
  const units: CommitUnit[] = []
  let running = 0
  let fail = false
  const store = {
    commit: async (unit: CommitUnit) => {
      const n = units.push(structuredClone(unit))
      running++
      log.push(`start ${n} (${running} running)`)
      await Bun.sleep(delays[n - 1] ?? 0)
      running--
      log.push(`end ${n}`)
      if (fail) throw new Error("connection lost")
      return []
    },
  } as unknown as RunStore
  return { store, log, units, failNext: (on: boolean) => void (fail = on) }
}

function recorder(store: RunStore) {
  const shown: RunEvent[] = []
  const rec = new Recorder(store, "r1", createRedactor({ enabled: false }), { event: (e) => shown.push(e), output: () => {} })
  return { rec, shown }
}

describe("the recorder", () => {
  test("commits made one after another reach the store one at a time, in order, even when the first is slowest", async () => {
    const { store, log, units } = slowStore([60, 5, 0])
    const { rec, shown } = recorder(store)
    rec.event("step.started", { step: "a" })
    const first = rec.commit({ calls: [{ id: "c1", runId: "r1", seq: 1, tool: "shell", args: "{}", argsHash: "h", status: "running", startedAt: 1 }] })
    rec.event("step.started", { step: "b" })
    const second = rec.commit()
    rec.write({ callPatches: [{ id: "c1", patch: { pgid: 42 } }] })
    await Promise.all([first, second])
    await Bun.sleep(20)
    expect(log).toEqual(["start 1 (1 running)", "end 1", "start 2 (1 running)", "end 2", "start 3 (1 running)", "end 3"])
    expect(units.map((u) => [u.calls?.[0]?.id, u.events?.map((e) => JSON.parse(e.data).step), u.callPatches?.[0]?.patch])).toEqual([
      ["c1", ["a"], undefined],
      [undefined, ["b"], undefined],
      [undefined, undefined, { pgid: 42 }],
    ])
    expect(shown.map((e) => (e as { step?: string }).step)).toEqual(["a", "b"])
  })

  test("a unit holds what was staged and buffered when commit() was called; what comes later waits for the next", async () => {
    const { store, units } = slowStore([30, 0])
    const { rec } = recorder(store)
    rec.stage({ grants: [{ runId: "r1", tool: "shell", pattern: "make *", source: "prompt", createdAt: 1 }] })
    rec.audit({ type: "session_end", actor: "system" })
    rec.audit({ type: "permission", actor: "user" })
    const state = { n: 1 }
    const done = rec.commit({ checkpoint: { seq: 1, json: JSON.stringify(state) }, run: { status: "paused" } })
    state.n = 2
    rec.audit({ type: "checkpoint", actor: "system" })
    await done
    await rec.commit()
    expect(units[0]!).toMatchObject({ runId: "r1", run: { status: "paused" }, checkpoint: { seq: 1, json: '{"n":1}' }, grants: [{ pattern: "make *" }] })
    // a session's end is the last row of its commit
    expect(units[0]!.audit!.map((a) => a.type)).toEqual(["permission", "session_end"])
    expect(units[1]!.audit!.map((a) => a.type)).toEqual(["checkpoint"])
    expect(units[1]!.grants).toBeUndefined()
  })

  test("a failed commit shows nothing and keeps its events and audit rows for the next attempt", async () => {
    const { store, units, failNext } = slowStore([0, 0])
    const { rec, shown } = recorder(store)
    rec.event("step.finished", { step: "a" })
    rec.audit({ type: "tool_call", actor: "agent" })
    failNext(true)
    await expect(rec.commit()).rejects.toThrow("connection lost")
    expect(shown).toEqual([])
    failNext(false)
    rec.audit({ type: "error", actor: "system" })
    await rec.commit()
    expect(units[1]!.audit!.map((a) => a.type)).toEqual(["tool_call", "error"])
    expect(shown.map((e) => e.type)).toEqual(["step.finished"])
  })

  test("merge joins lists in order, merges run patches, keeps the last checkpoint and each plan item's position", () => {
    const item = (id: string) => ({ id, title: id, state: "done", attempts: 1, needs: [] })
    const unit = merge("r1", [
      { run: { status: "running" }, plan: { items: [item("a")], positions: [4] }, checkpoint: { seq: 1, json: "{}" }, settlements: [{ id: "q1", status: "approved", settledBy: "x" }] },
      { run: { message: "m" }, plan: { items: [item("b")] }, checkpoint: { seq: 2, json: "{}" }, settlements: [{ id: "q2", status: "denied", settledBy: "y" }] },
    ])
    expect(unit).toEqual({
      runId: "r1", run: { status: "running", message: "m" }, checkpoint: { seq: 2, json: "{}" },
      plan: { items: [item("a"), item("b")], positions: [4, 0] },
      settlements: [{ id: "q1", status: "approved", settledBy: "x" }, { id: "q2", status: "denied", settledBy: "y" }],
    })
  })
})
