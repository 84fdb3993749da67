// The one place a step's command is started. It gets its own process group (so it is killed whole)
// and carries its call id in the environment (so escapes from the group are still recognised).
// Whatever wraps a step's argv (a sandbox) wraps it here.
import { becomeSubreaper } from "./subreaper.ts"
import { TAG_VARIABLE } from "./table.ts"

export interface StepSpawn {
  argv: string[]
  cwd: string
  env: Record<string, string>
  /** the call id: every process of the step inherits it */
  tag: string
}

export function spawnStep(spec: StepSpawn) {
  becomeSubreaper()
  return Bun.spawn(spec.argv, {
    cwd: spec.cwd,
    env: { ...spec.env, [TAG_VARIABLE]: spec.tag },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    detached: true, // own process group (pgid = pid)
  })
}
