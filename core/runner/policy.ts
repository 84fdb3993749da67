// The effective policy of a run: all layers (built-in, managed, user, workspace, env, flags), with the task's own layer,
// trust looked up in the database, and the run's command-line flags on top.
import { realpathSync } from "node:fs"
import { homedir } from "node:os"
import { join } from "node:path"
import { loadPolicy, taskPolicyLayers, type Trust } from "../policy/load.ts"
import type { Policy } from "../policy/types.ts"
import { findWorkspaceRoot } from "../policy/workspace.ts"
import type { TrustCheck } from "../runstore/trust.ts"
import type { LoadedTask } from "../task/load.ts"
import type { RunOptions } from "./context.ts"
import type { RunEnv } from "./lifecycle.ts"

/** The policy, and the workspace root it was found for (nearest `.ccode/`, else git root, else the workdir). */
export async function loadRunPolicy(
  env: RunEnv, task: LoadedTask, options: RunOptions, workdir: string, trustIn: (workspace: string) => TrustCheck,
): Promise<{ policy: Policy; workspace: string }> {
  // trust is per workspace: a file trusted for another workspace lends this run nothing
  const workspace = findWorkspaceRoot(workdir)
  const trust: Trust = { isTrusted: trustIn(workspace), trustAll: options.trust }
  const cacheDir = join(env.home, "cache")
  const taskLayers = task.spec.policy === undefined
    ? []
    : await taskPolicyLayers({ file: task.file, sha256: task.sha256, src: task.source, value: task.spec.policy, prefix: ["policy"] }, trust, cacheDir)
  const loaded = await loadPolicy({
    ...trust,
    cwd: workdir,
    home: homedir(),
    env: env.env,
    flags: { policy: options.policy, yes: options.yes, autoApprove: options.autoApprove, maxSteps: options.maxSteps, sandbox: options.sandbox },
    task: taskLayers,
    cacheDir,
    workspace,
  })
  // --max-wall-time is a command-line value like --max-steps: above every policy layer
  const limits = options.maxWallTime === undefined ? loaded.policy.limits : { ...loaded.policy.limits, max_wall_time: options.maxWallTime }
  return { policy: { ...loaded.policy, limits, ignored: loaded.warnings }, workspace: realpathSync(loaded.workspace) }
}
