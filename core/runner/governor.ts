// The Governor of a run: prepares calls with the policy engine's I/O edge (shell analysis, paths
// through symlinks) and decides them with the pure decide().
import { homedir } from "node:os"
import { decide } from "../policy/decide.ts"
import { grantFor } from "../policy/grants.ts"
import { prepareCall } from "../policy/prepare.ts"
import type { Policy } from "../policy/types.ts"
import type { Governor } from "./context.ts"

/** Tools whose processes run inside the run's sandbox. */
const SANDBOXED_TOOLS = new Set(["shell"])

/**
 * `sandboxed`: the run's shell calls run inside the OS sandbox, which decide() takes into account.
 * `loaderEnv`: loader/config variables a trusted task's env: sets (every call is then at least high).
 */
export function createGovernor(
  policy: Policy, workspace: string, env: Record<string, string | undefined>,
  { sandboxed = false, loaderEnv = [] }: { sandboxed?: boolean; loaderEnv?: string[] } = {},
): Governor {
  const home = homedir()
  return {
    policy,
    prepare: async (tool, args, cwd, toolRisk, declaration) => ({
      ...(await prepareCall(tool, args, { cwd, workspace, home, env, toolRisk, declaration, loaderEnv, overrides: policy.risk.overrides, policy })),
      sandboxed: sandboxed && SANDBOXED_TOOLS.has(tool),
    }),
    decide: (call, state) => decide(policy, call, state),
    grantFor: (call, decision) => grantFor(call, decision),
  }
}
