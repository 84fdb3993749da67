// Where the conversation is kept: the first `agent.stored` messages in agent_messages (append-only,
// written inside the driver's commits), the rest in the checkpoint. In memory the agent state always
// holds the whole conversation; only its serialised form (the checkpoint) is cut at `stored`.
import type { RunStore } from "../runstore/api.ts"
import type { StateWrites } from "../runner/recorder.ts"
import type { AgentState, Message } from "./types.ts"

const attached = new WeakSet<AgentState>()

/**
 * Make a checkpointed agent state whole again (stored messages first) and cut its checkpoints at
 * `stored` from now on. Idempotent. A checkpoint says where its messages start (`messagesFrom`); one
 * without it (written before the table existed, or by a serialiser that skipped toJSON) holds them all.
 */
export async function attachHistory(store: RunStore, runId: string, agent: AgentState): Promise<AgentState> {
  if (attached.has(agent)) return agent
  const from = agent.messagesFrom ?? 0
  delete agent.messagesFrom
  if (from > 0) agent.messages = [...(await storedMessages(store, runId, from)), ...agent.messages]
  agent.stored ??= from
  Object.defineProperty(agent, "toJSON", {
    enumerable: false,
    value: () => ({ ...agent, messages: agent.messages.slice(agent.stored), messagesFrom: agent.stored }),
  })
  attached.add(agent)
  return agent
}

/**
 * The messages not yet stored, as rows for the commit about to be made: the checkpoint serialised
 * for that same commit then holds none of them (call before it is built).
 */
export function storeHistory(agent: AgentState): StateWrites {
  const from = agent.stored ?? 0
  if (agent.messages.length <= from) return {}
  const messages = agent.messages.slice(from).map((m, i) => ({ seq: from + i, message: JSON.stringify(m) }))
  agent.stored = agent.messages.length
  return { messages }
}

/** An agent run's whole state as last checkpointed (for export and inspection), or undefined for other runs. */
export async function agentOf(store: RunStore, runId: string): Promise<AgentState | undefined> {
  const agent = (await store.latestCheckpoint<{ agent?: AgentState }>(runId))?.state.agent
  return agent ? attachHistory(store, runId, agent) : undefined
}

async function storedMessages(store: RunStore, runId: string, count: number): Promise<Message[]> {
  const rows = await store.messagesOf(runId)
  // rows past `stored` belong to no checkpoint (cannot happen: both are written in one transaction)
  return rows.filter((r) => r.seq < count).map((r) => JSON.parse(r.message) as Message)
}
