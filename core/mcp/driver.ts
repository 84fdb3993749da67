// The MCP server's Driver: an MCP client proposes the calls, one request at a time (session.ts), so
// there is nothing to drive or resume here. Its calls are guarded like an agent's: the client is a
// model that can go round in circles. A session ends completed unless a guard or signal stopped it.
import type { Driver } from "../runner/driver.ts"
import { stepsDriver } from "../runner/steps-driver.ts"

export const mcpDriver: Driver = {
  name: "mcp",
  tools: [],
  guards: "agent",
  stepTimeouts: false,
  reconcile: async () => {
    throw new Error("an MCP session is not resumed: start `ccode mcp` again")
  },
  drive: async () => {},
  // its plan is empty: completed, or how a guard or signal stopped it
  status: (ctx) => stepsDriver.status(ctx),
}
