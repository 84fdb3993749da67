// Plan items and their state machine: pending -> ready -> active -> done | failed | skipped, plus blocked.
// Pure: transition() returns a new plan and touches nothing. A plan's shape (ids, needs, order) never
// changes, so its index is built once and shared by every version: a transition costs the items it
// touches, not the size of the plan (a 10,000-step plan stays as fast as a 10-step one).

export type ItemState = "pending" | "ready" | "active" | "done" | "failed" | "skipped" | "blocked"

export interface PlanItem {
  id: string
  title: string
  needs: string[]
  state: ItemState
  attempts: number
  continueOnError: boolean
  /** why it is blocked, failed or skipped */
  note?: string
  /** blocked waiting for a person (not for a failed dependency) */
  waiting?: boolean
  /** failed because the policy or a person denied its call */
  denied?: "policy" | "person"
  /** has an `if:`: due once its needs have ended, whatever their outcome; its `if:` then decides */
  conditional?: boolean
  /** dependency depth (0: needs nothing), for scheduling */
  depth?: number
}

export interface Plan {
  items: PlanItem[]
}

export type PlanEvent =
  | { type: "start"; id: string }
  | { type: "succeed"; id: string }
  | { type: "fail"; id: string; retry: boolean; note?: string; denied?: "policy" | "person" }
  | { type: "skip"; id: string; note?: string }
  | { type: "wait"; id: string; note: string } // blocked on a person
  | { type: "release"; id: string } // the person answered: ready again
  | { type: "reset"; id: string; note?: string } // interrupted mid-call: run it again later

export class PlanError extends Error {}

const ALLOWED: Record<PlanEvent["type"], ItemState[]> = {
  start: ["ready"],
  succeed: ["active"],
  fail: ["active", "ready", "blocked"],
  skip: ["ready", "active", "blocked", "pending"],
  wait: ["ready", "active"],
  release: ["blocked", "failed"], // failed: a denied step is decided again on resume
  reset: ["active", "blocked"],
}

/** The unchanging shape of a plan: position of each id and who needs whom. */
interface Shape {
  index: Map<string, number>
  dependents: Map<string, string[]>
}

const shapes = new WeakMap<Plan, Shape>()

function shapeOf(plan: Plan): Shape {
  const known = shapes.get(plan)
  if (known) return known
  const index = new Map(plan.items.map((item, i) => [item.id, i]))
  const dependents = new Map<string, string[]>()
  for (const item of plan.items) for (const need of item.needs) (dependents.get(need) ?? dependents.set(need, []).get(need)!).push(item.id)
  const shape = { index, dependents }
  shapes.set(plan, shape)
  return shape
}

function withShape(items: PlanItem[], shape: Shape): Plan {
  const plan = { items }
  shapes.set(plan, shape)
  return plan
}

export function createPlan(items: { id: string; title: string; needs: string[]; continueOnError?: boolean; conditional?: boolean }[]): Plan {
  const plan: Plan = {
    items: items.map((i) => ({
      id: i.id, title: i.title, needs: i.needs, state: "pending", attempts: 0, continueOnError: i.continueOnError ?? false, ...(i.conditional ? { conditional: true } : {}),
    })),
  }
  const depth = depths(plan) // needs never change: computed once, carried by every item
  const shaped = withShape(plan.items.map((i) => ({ ...i, depth: depth.get(i.id) ?? 0 })), shapeOf(plan))
  return propagateReadiness(shaped, shaped.items.map((i) => i.id))
}

/** The position of an item in the plan. */
export function planIndex(plan: Plan, id: string): number {
  return shapeOf(plan).index.get(id) ?? -1
}

/** The item with this id (by index, not by search). */
export function itemOf(plan: Plan, id: string): PlanItem | undefined {
  const i = shapeOf(plan).index.get(id)
  return i === undefined ? undefined : plan.items[i]
}

export function transition(plan: Plan, event: PlanEvent): Plan {
  const item = itemOf(plan, event.id)
  if (!item) throw new PlanError(`no plan item "${event.id}"`)
  if (!ALLOWED[event.type].includes(item.state)) {
    throw new PlanError(`cannot ${event.type} item "${item.id}" while it is ${item.state}`)
  }
  if (event.type === "release" && !(item.waiting || item.denied)) {
    throw new PlanError(`item "${item.id}" is ${item.state} by a dependency or failure, not waiting for a person`)
  }
  const next = ((): PlanItem => {
    switch (event.type) {
      case "start":
        return { ...item, state: "active", attempts: item.attempts + 1, note: undefined }
      case "succeed":
        return { ...item, state: "done", note: undefined }
      case "fail":
        return { ...item, state: event.retry ? "ready" : "failed", note: event.note, waiting: false, denied: event.denied }
      case "skip":
        return { ...item, state: "skipped", note: event.note, waiting: false }
      case "wait":
        return { ...item, state: "blocked", note: event.note, waiting: true }
      case "release":
        return { ...item, state: "ready", note: undefined, waiting: false, denied: undefined }
      case "reset":
        return { ...item, state: "ready", note: event.note, waiting: false, attempts: Math.max(0, item.attempts - 1) }
    }
  })()
  const shape = shapeOf(plan)
  const items = plan.items.slice()
  items[shape.index.get(item.id)!] = next
  return propagateReadiness(withShape(items, shape), shape.dependents.get(item.id) ?? [])
}

/**
 * Recompute readiness where it can have changed — the given items, then the dependents of every
 * item that changed: pending items whose needs are satisfied become ready; those behind a failure
 * are blocked. Mutates only the fresh `plan.items` array it was given.
 */
function propagateReadiness(plan: Plan, start: string[]): Plan {
  const { index, dependents } = shapeOf(plan)
  const queue = [...start]
  while (queue.length) {
    const id = queue.shift()!
    const i = index.get(id)!
    const item = plan.items[i]!
    const next = recheck(item, plan.items, index)
    if (next === item) continue
    plan.items[i] = next
    queue.push(...(dependents.get(id) ?? []))
  }
  return plan
}

function recheck(item: PlanItem, items: PlanItem[], index: Map<string, number>): PlanItem {
  if (item.state !== "pending" && !(item.state === "blocked" && !item.waiting)) return item
  const deps = item.needs.map((id) => items[index.get(id)!]!)
  if (item.conditional) return deps.every(ended) ? { ...item, state: "ready", note: undefined } : item
  const broken = deps.find((d) => (d.state === "failed" && !d.continueOnError) || (d.state === "blocked" && !d.waiting))
  if (broken) {
    if (item.state === "blocked" && item.note?.includes(broken.id)) return item
    return { ...item, state: "blocked", note: `needs ${broken.id}, which ${broken.state === "failed" ? "failed" : "is blocked"}` }
  }
  if (deps.every(satisfied)) return { ...item, state: "ready", note: undefined }
  return item
}

/** Nothing more will happen to it without a person: done, failed, skipped, or blocked by a failure. */
export function ended(item: PlanItem): boolean {
  return item.state === "done" || item.state === "failed" || item.state === "skipped" || (item.state === "blocked" && !item.waiting)
}

function satisfied(dep: PlanItem): boolean {
  return dep.state === "done" || dep.state === "skipped" || (dep.state === "failed" && dep.continueOnError)
}

/** Ready items in scheduling order: shallower dependency depth first, then file order. */
export function readyItems(plan: Plan): PlanItem[] {
  const ready: { item: PlanItem; index: number }[] = []
  plan.items.forEach((item, index) => {
    if (item.state === "ready") ready.push({ item, index })
  })
  return ready.sort((a, b) => (a.item.depth ?? 0) - (b.item.depth ?? 0) || a.index - b.index).map(({ item }) => item)
}

function depths(plan: Plan): Map<string, number> {
  const byId = new Map(plan.items.map((i) => [i.id, i]))
  const memo = new Map<string, number>()
  const depthOf = (id: string): number => {
    const known = memo.get(id)
    if (known !== undefined) return known
    memo.set(id, 0) // cycles are rejected at load; this only guards recursion
    const d = Math.max(0, ...byId.get(id)!.needs.map((n) => depthOf(n) + 1))
    memo.set(id, d)
    return d
  }
  for (const item of plan.items) depthOf(item.id)
  return memo
}

export type PlanOutcome = "running" | "waiting" | "completed" | "failed"

/** Where the plan stands: still work to do, waiting on a person, or finished one way or the other. */
export function planOutcome(plan: Plan): PlanOutcome {
  const states = plan.items.map((i) => i.state)
  if (states.some((s) => s === "ready" || s === "active")) return "running"
  if (plan.items.some((i) => i.state === "blocked" && i.waiting)) return "waiting"
  if (plan.items.some((i) => (i.state === "failed" && !i.continueOnError) || i.state === "blocked" || i.state === "pending")) return "failed"
  return "completed"
}

export function countStates(plan: Plan): Record<ItemState, number> {
  const counts: Record<ItemState, number> = { pending: 0, ready: 0, active: 0, done: 0, failed: 0, skipped: 0, blocked: 0 }
  for (const item of plan.items) counts[item.state]++
  return counts
}
