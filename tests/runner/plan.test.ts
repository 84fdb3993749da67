import { describe, expect, test } from "bun:test"
import { createPlan, planOutcome, PlanError, readyItems, transition, type Plan } from "../../core/runner/plan.ts"

const plan = (): Plan =>
  createPlan([
    { id: "install", title: "install", needs: [] },
    { id: "lint", title: "lint", needs: ["install"], continueOnError: true },
    { id: "test", title: "test", needs: ["install"] },
    { id: "deploy", title: "deploy", needs: ["lint", "test"] },
  ])

const state = (p: Plan, id: string) => p.items.find((i) => i.id === id)!.state

describe("plan transitions", () => {
  test("only items whose needs are met are ready, shallow first", () => {
    const p = plan()
    expect(readyItems(p).map((i) => i.id)).toEqual(["install"])
    const after = transition(transition(p, { type: "start", id: "install" }), { type: "succeed", id: "install" })
    expect(readyItems(after).map((i) => i.id)).toEqual(["lint", "test"])
    expect(state(after, "deploy")).toBe("pending")
  })

  test("a failed step blocks what needs it, unless it may fail", () => {
    let p = plan()
    for (const e of [{ type: "start", id: "install" }, { type: "succeed", id: "install" }, { type: "start", id: "test" }] as const) p = transition(p, e)
    p = transition(p, { type: "fail", id: "test", retry: false, note: "exit 1" })
    expect(state(p, "deploy")).toBe("blocked")
    expect(p.items.find((i) => i.id === "deploy")!.note).toContain("test")
    p = transition(transition(p, { type: "start", id: "lint" }), { type: "fail", id: "lint", retry: false })
    expect(planOutcome(p)).toBe("failed")
  })

  test("continue_on_error lets dependents run and the plan complete", () => {
    let p = plan()
    for (const e of [
      { type: "start", id: "install" }, { type: "succeed", id: "install" },
      { type: "start", id: "lint" }, { type: "fail", id: "lint", retry: false },
      { type: "start", id: "test" }, { type: "succeed", id: "test" },
    ] as const) p = transition(p, e)
    expect(state(p, "deploy")).toBe("ready")
    p = transition(transition(p, { type: "start", id: "deploy" }), { type: "succeed", id: "deploy" })
    expect(planOutcome(p)).toBe("completed")
  })

  test("a retry puts the item back to ready and counts attempts", () => {
    let p = transition(plan(), { type: "start", id: "install" })
    p = transition(p, { type: "fail", id: "install", retry: true, note: "flake" })
    expect(state(p, "install")).toBe("ready")
    p = transition(transition(p, { type: "start", id: "install" }), { type: "succeed", id: "install" })
    expect(p.items[0]!.attempts).toBe(2)
  })

  test("waiting for a person makes the plan wait; release makes it ready again", () => {
    let p = transition(plan(), { type: "wait", id: "install", note: "breakpoint" })
    expect(planOutcome(p)).toBe("waiting")
    p = transition(p, { type: "release", id: "install" })
    expect(state(p, "install")).toBe("ready")
  })

  test("skipped steps count as satisfied for their dependents", () => {
    let p = transition(plan(), { type: "skip", id: "install" })
    expect(readyItems(p).map((i) => i.id)).toEqual(["lint", "test"])
  })

  test("an interrupted step goes back to ready without using an attempt", () => {
    let p = transition(plan(), { type: "start", id: "install" })
    p = transition(p, { type: "reset", id: "install" })
    expect(state(p, "install")).toBe("ready")
    expect(p.items[0]!.attempts).toBe(0)
  })

  test("illegal transitions are refused and the plan is unchanged", () => {
    const p = plan()
    expect(() => transition(p, { type: "succeed", id: "install" })).toThrow(PlanError)
    expect(() => transition(p, { type: "start", id: "deploy" })).toThrow(PlanError)
    expect(() => transition(p, { type: "start", id: "nope" })).toThrow(PlanError)
    expect(state(p, "install")).toBe("ready")
  })

  test("transition never mutates its input", () => {
    const p = plan()
    const before = JSON.stringify(p)
    transition(p, { type: "start", id: "install" })
    expect(JSON.stringify(p)).toBe(before)
  })
})

describe("conditional plan items (a step with if:)", () => {
  test("is due once its needs have ended, whatever their outcome; a skip counts as done for what needs it", () => {
    let plan = createPlan([
      { id: "build", title: "build", needs: [] },
      { id: "report", title: "report", needs: ["build"], conditional: true },
      { id: "after", title: "after", needs: ["report"] },
      { id: "plain", title: "plain", needs: ["build"] },
    ])
    expect(plan.items.map((i) => i.state)).toEqual(["ready", "pending", "pending", "pending"])
    plan = transition(plan, { type: "start", id: "build" })
    plan = transition(plan, { type: "fail", id: "build", retry: false })
    expect(plan.items.map((i) => i.state)).toEqual(["failed", "ready", "pending", "blocked"])
    plan = transition(plan, { type: "skip", id: "report", note: "if: success() was false" })
    expect(plan.items.map((i) => i.state)).toEqual(["failed", "skipped", "ready", "blocked"])
    expect(planOutcome(plan)).toBe("running")
  })

  test("waits while a need is only waiting for a person", () => {
    let plan = createPlan([{ id: "a", title: "a", needs: [] }, { id: "b", title: "b", needs: ["a"], conditional: true }])
    plan = transition(plan, { type: "wait", id: "a", note: "approval" })
    expect(plan.items.map((i) => i.state)).toEqual(["blocked", "pending"])
    expect(planOutcome(plan)).toBe("waiting")
  })
})
