// Which driver runs a task: one with an `agent:` section is driven by its model, any other by its steps.
// (The MCP server brings its own driver: core/mcp/session.ts.)
import { agentDriver } from "../agent/agent-driver.ts"
import type { LoadedTask } from "../task/load.ts"
import type { Driver } from "./driver.ts"
import { stepsDriver } from "./steps-driver.ts"

export function driverFor(task: LoadedTask): Driver {
  return task.spec.agent ? agentDriver : stepsDriver
}
