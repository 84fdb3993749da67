// In-process agent runs for tests: the runner's harness (tests/runner/harness.ts) with an agent task's name.
import type { Human } from "../../core/runner/context.ts"
import { workspace as runnerWorkspace, type Workspace } from "../runner/harness.ts"

export { nobody, OPTIONS, QUIET_POLICY, type Workspace } from "../runner/harness.ts"

export function workspace(opts: { human?: Human; env?: Record<string, string> } = {}): Workspace {
  return runnerWorkspace({ ...opts, name: "agent-test" })
}
