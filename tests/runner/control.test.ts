// The runner's control hook: it waits while a person pauses, never counts that time against the
// run's wall time, and lets nothing new start once the run is stopping.
import { describe, expect, test } from "bun:test"
import { initGuardState, wallTimeUsed } from "../../core/guards/index.ts"
import type { RunContext } from "../../core/runner/context.ts"
import { passGate, type RunControl } from "../../core/runner/control.ts"

function ctxWith(control: RunControl | undefined, clockStart: number) {
  const ctx = { runId: "r1", control, cancel: new AbortController(), state: { guards: initGuardState("steps", clockStart) } } as unknown as RunContext
  return ctx
}

const holding = (ms: number): RunControl => ({ attach() {}, gate: () => new Promise((r) => setTimeout(r, ms)) })

describe("passGate", () => {
  test("no control: goes on at once", async () => {
    expect(await passGate(ctxWith(undefined, Date.now()))).toBe(true)
  })
  test("a pause of more than a second is not the run's wall time", async () => {
    const start = Date.now()
    const ctx = ctxWith(holding(1300), start)
    expect(await passGate(ctx, "s1")).toBe(true)
    expect(wallTimeUsed(ctx.state.guards.clock, Date.now())).toBeLessThan(1000)
  })
  test("the run stopped while it waited: the step does not start", async () => {
    let stopped = false
    const control: RunControl = {
      attach() {},
      gate: (_r, _s, signal) => new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true })),
    }
    const ctx = ctxWith(control, Date.now())
    const waiting = passGate(ctx, "s1").then((go) => (stopped = !go))
    ctx.stop = { status: "interrupted", reason: "q" }
    ctx.cancel.abort()
    await waiting
    expect(stopped).toBe(true)
  })
  test("the control is told which step is next", async () => {
    const asked: (string | undefined)[] = []
    const ctx = ctxWith({ attach() {}, gate: async (_r, step) => void asked.push(step) }, Date.now())
    await passGate(ctx, "deploy")
    await passGate(ctx)
    expect(asked).toEqual(["deploy", undefined])
  })
})
