// The agent as a Driver: a model proposes the calls (driver.ts), resume matches calls in flight to
// its open turn (resume.ts), and the run ends with the agent's own outcome (status.ts).
import type { Driver } from "../runner/driver.ts"
import { AGENT_TOOLS } from "../tools/builtin/agent.ts"
import { driveAgent } from "./driver.ts"
import { reconcileAgent } from "./resume.ts"
import { prepareAgent } from "./setup.ts"
import { agentStatus } from "./status.ts"

export const agentDriver: Driver = {
  name: "agent",
  tools: AGENT_TOOLS,
  guards: "agent",
  stepTimeouts: false,
  check: (task, registry, env, inputs) => void prepareAgent(task, registry, env, inputs),
  reconcile: reconcileAgent,
  drive: driveAgent,
  status: (ctx) => ({ ...agentStatus(ctx.state.agent, ctx.stop), steps: ctx.state.agent?.turns ?? 0 }),
}
