// Every commit the agent driver makes: the buffered events and audit rows, the usage rows and the
// conversation not yet stored, and the checkpoint, in one transaction (core/runner/call.ts commit).
import { commitWithCheckpoint } from "../runner/call.ts"
import type { RunContext } from "../runner/context.ts"
import { storeHistory } from "./history.ts"
import type { AgentState } from "./types.ts"
import { saveUsage } from "./usage.ts"

export function saveAgent(ctx: RunContext, agent: AgentState | undefined, write?: () => void): void {
  commitWithCheckpoint(ctx, () => {
    write?.()
    if (!agent) return
    saveUsage(ctx, agent)()
    storeHistory(ctx, agent)()
  })
}
