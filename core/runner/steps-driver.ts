// The scripted driver as a Driver: the task's steps, in dependency order (steps.ts), resumed by
// reconcile.ts, finished by the plan's outcome (finish.ts).
import type { Driver } from "./driver.ts"
import { runStatus } from "./finish.ts"
import { redecideWaiting } from "./overrides.ts"
import { reconcile } from "./reconcile.ts"
import { driveSteps } from "./steps.ts"

export const stepsDriver: Driver = {
  name: "steps",
  tools: [],
  guards: "steps",
  stepTimeouts: true,
  reconcile: (ctx) => reconcile(ctx, (id) => ctx.steps.get(id)?.retries ?? ctx.governor.policy.limits.retries),
  redecide: redecideWaiting,
  drive: (ctx) => driveSteps(ctx, ctx.steps),
  status: (ctx) => ({ ...runStatus(ctx.state.plan, ctx.stop), steps: ctx.state.plan.items.filter((i) => i.state === "done").length }),
}
