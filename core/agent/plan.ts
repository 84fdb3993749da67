// The agent's own plan (update_plan) as the run's plan items, so progress, `ccode runs show` and
// summary.md show it like a scripted plan. Pure.
import type { ItemState, Plan, PlanItem } from "../runner/plan.ts"

export interface PlanUpdate {
  id: string
  title: string
  status: string
}

const STATE: Record<string, ItemState> = {
  pending: "pending", in_progress: "active", active: "active", completed: "done", done: "done",
  failed: "failed", skipped: "skipped", blocked: "blocked",
}

/** The plan after an update: the agent's list in its order; items it dropped stay, marked skipped. */
export function applyPlanUpdate(plan: Plan, items: PlanUpdate[]): Plan {
  const given = new Set(items.map((i) => i.id))
  const before = new Map(plan.items.map((i) => [i.id, i]))
  const next: PlanItem[] = items.map((item) => {
    const state = STATE[item.status] ?? "pending"
    const old = before.get(item.id)
    // attempts: how often the agent started the item (an item reported finished was started at least once)
    let attempts = (old?.attempts ?? 0) + (state === "active" && old?.state !== "active" ? 1 : 0)
    if (attempts === 0 && (state === "done" || state === "failed")) attempts = 1
    return { id: item.id, title: item.title, needs: [], state, attempts, continueOnError: false }
  })
  const dropped = plan.items
    .filter((i) => !given.has(i.id))
    .map((i): PlanItem => (i.state === "done" || i.state === "skipped" || i.state === "failed" ? i : { ...i, state: "skipped", note: "dropped from the plan" }))
  return { items: [...next, ...dropped] }
}
