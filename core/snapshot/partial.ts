// A restore limited to some paths: undo puts back only what the run changed, and leaves what was
// changed after it alone. Pure: narrows a RestorePlan.
import type { RestorePlan } from "./plan.ts"

/** The part of `plan` that touches `only` (files), and the directories that hold them. */
export function limitPlan(plan: RestorePlan, only: ReadonlySet<string> | undefined): RestorePlan {
  if (!only) return plan
  const keep = (path: string) => only.has(path) || only.has(path.replace(/\/$/, "")) || only.has(`${path}/`)
  const holds = (dir: string) => only.has(`${dir}/`) || [...only].some((p) => p.startsWith(`${dir}/`))
  return {
    restored: plan.restored.filter(keep),
    removed: plan.removed.filter(keep),
    modified: plan.modified.filter(keep),
    checkout: plan.checkout.filter(keep),
    chmod: plan.chmod.filter((c) => keep(c.path)),
    // only emptied directories are removed, and only those a kept path lived in
    removeDirs: plan.removeDirs.filter(holds),
    createDirs: plan.createDirs.filter((d) => holds(d.path)),
  }
}
