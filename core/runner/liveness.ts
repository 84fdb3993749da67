// Is a run's process still at work? A `running` row whose process is gone (killed, crashed) is not:
// it can be resumed, removed or pruned. A zombie counts as gone.
import { readFileSync } from "node:fs"
import { hostname } from "node:os"

export function runIsLive(run: { status: string; pid: number | null }): boolean {
  return run.status === "running" && run.pid !== null && run.pid !== process.pid && processAlive(run.pid)
}

/**
 * runIsLive for a store many machines share: a run marked running on another host may be alive
 * there (its pid means nothing here), so it counts as live; removing it is never safe from here.
 */
export function mayBeLive(run: { status: string; pid: number | null; host?: string | null }, here = hostname()): boolean {
  if (run.status === "running" && run.pid !== null && run.host && run.host !== here) return true
  return runIsLive(run)
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"))
  } catch {
    return true // no /proc: the signal said it exists
  }
}
