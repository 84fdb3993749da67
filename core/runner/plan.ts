// Plan items and their state machine: pending -> ready -> active -> done | failed | skipped, plus blocked.
// Pure: transition() returns a new plan and touches nothing.

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

export function createPlan(items: { id: string; title: string; needs: string[]; continueOnError?: boolean }[]): Plan {
  const plan: Plan = {
    items: items.map((i) => ({ id: i.id, title: i.title, needs: i.needs, state: "pending", attempts: 0, continueOnError: i.continueOnError ?? false })),
  }
  const depth = depths(plan) // needs never change: computed once, carried by every item
  return settle({ items: plan.items.map((i) => ({ ...i, depth: depth.get(i.id) ?? 0 })) })
}

export function transition(plan: Plan, event: PlanEvent): Plan {
  const item = plan.items.find((i) => i.id === event.id)
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
  return settle({ items: plan.items.map((i) => (i.id === item.id ? next : i)) })
}

/** Recompute readiness: pending items whose needs are satisfied become ready; those behind a failure are blocked. */
function settle(plan: Plan): Plan {
  const byId = new Map(plan.items.map((i) => [i.id, i]))
  let changed = false
  const items = plan.items.map((item) => {
    if (item.state !== "pending" && !(item.state === "blocked" && !item.waiting)) return item
    const deps = item.needs.map((id) => byId.get(id)!)
    const broken = deps.find((d) => (d.state === "failed" && !d.continueOnError) || (d.state === "blocked" && !d.waiting))
    if (broken) {
      if (item.state === "blocked" && item.note?.includes(broken.id)) return item
      changed = true
      return { ...item, state: "blocked" as const, note: `needs ${broken.id}, which ${broken.state === "failed" ? "failed" : "is blocked"}` }
    }
    if (deps.every(satisfied)) {
      changed = true
      return { ...item, state: "ready" as const, note: undefined }
    }
    return item
  })
  const next = { items }
  return changed ? settle(next) : next
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
