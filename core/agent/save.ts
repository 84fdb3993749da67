// Every commit the agent driver makes: the buffered events and audit rows, the usage rows and the
// conversation not yet stored, and the checkpoint, in one transaction (core/runner/call.ts commit).
import { commitWithCheckpoint } from "../runner/call.ts"
import type { RunContext } from "../runner/context.ts"
import type { StateWrites } from "../runner/recorder.ts"
import { storeHistory } from "./history.ts"
import type { AgentState } from "./types.ts"
import { saveUsage } from "./usage.ts"

export async function saveAgent(ctx: RunContext, agent: AgentState | undefined, writes: StateWrites = {}): Promise<void> {
  await commitWithCheckpoint(ctx, agent ? { ...writes, ...saveUsage(agent), ...storeHistory(agent) } : writes)
}
