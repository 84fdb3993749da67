// kill -9, SIGINT and SIGTERM at random moments of a 100-step plan — mid-step, between steps, during
// retries, snapshots and the final summary — then resume until done: no line lost, none repeated
// without a person's choice, the audit chain intact, every run resumable.
import { describe, expect, test } from "bun:test"
import { binary } from "../e2e/harness.ts"
import { runTrial, STEPS, type Fault } from "./trial.ts"

const SIGNALS = ["SIGKILL", "SIGINT", "SIGTERM"] as const
const TRIALS = 30
const PARALLEL = 4

// a fixed seed per test process would hide nothing: each trial's moment is printed when it fails
function faults(): Fault[] {
  const list: Fault[] = []
  for (let i = 0; i < TRIALS; i++) {
    const signal = SIGNALS[i % 3]!
    const extraMs = Math.floor(Math.random() * 25)
    const kind = i % 5
    const step = 1 + Math.floor(Math.random() * STEPS)
    if (kind === 0) list.push({ signal, extraMs: 50 + Math.floor(Math.random() * 1200), again: i % 2 === 0 })
    else if (kind === 1) list.push({ signal, extraMs, after: (e) => e.type === "step.started" && e.step === `s${step}` })
    else if (kind === 2) list.push({ signal, extraMs, after: (e) => e.type === "step.finished" && e.status === "error" }) // during the retry's backoff
    else if (kind === 3) list.push({ signal, extraMs, after: (e) => e.type === "step.finished" && /^s\d*[02468]0$/.test(String(stepOf(e))) }) // while its snapshot is taken
    else list.push({ signal, extraMs: extraMs % 5, after: (e) => e.type === "run.finished" || (e.type === "step.started" && e.step === `s${STEPS}`) }) // the final commit and summary
  }
  return list
}

const calls = new Map<string, string>()
function stepOf(e: Record<string, unknown>): string | undefined {
  if (e.type === "step.started") calls.set(String(e.call), String(e.step))
  return calls.get(String(e.call))
}

describe("fault injection", () => {
  test(`${TRIALS} trials of signals at random moments: 0 lost, 0 duplicated, audit intact, every run resumable and summarised`, async () => {
    await binary()
    const all = faults()
    const failures: string[] = []
    let reruns = 0
    let dones = 0
    for (let i = 0; i < all.length; i += PARALLEL) {
      const batch = all.slice(i, i + PARALLEL)
      const results = await Promise.all(batch.map(runTrial))
      results.forEach((r, j) => {
        const fault = batch[j]!
        const expected = Array.from({ length: STEPS }, (_, k) => `s${k + 1}`)
        const counts = new Map<string, number>()
        for (const line of r.lines) counts.set(line, (counts.get(line) ?? 0) + 1)
        const lost = expected.filter((l) => !counts.has(l))
        const doubled = [...counts].filter(([, n]) => n > 1).map(([l]) => l)
        reruns += r.choices.rerun
        dones += r.choices.done
        if (lost.length || doubled.length || r.auditCode !== 0 || r.status !== "completed" || !r.summary) {
          failures.push(`trial ${i + j} (${fault.signal}, +${fault.extraMs}ms${fault.after ? ", on an event" : ""}): lost ${lost.join(",") || "-"}; doubled ${doubled.join(",") || "-"}; audit exit ${r.auditCode}; status ${r.status}; summary ${r.summary}; exits ${r.exits.join(",")}`)
        }
      })
    }
    console.log(`fault injection: ${TRIALS} trials; in-flight calls settled by the person: ${reruns} run again, ${dones} marked done`)
    expect(failures).toEqual([])
  }, 300_000)
})
