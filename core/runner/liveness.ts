// Is a run's process still at work? A `running` row whose process is gone (killed, crashed) is not:
// it can be resumed, removed or pruned. A zombie counts as gone.
import { readFileSync } from "node:fs"

export function runIsLive(run: { status: string; pid: number | null }): boolean {
  return run.status === "running" && run.pid !== null && run.pid !== process.pid && processAlive(run.pid)
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
