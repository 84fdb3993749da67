// Where the conversation is kept: the first `agent.stored` messages in agent_messages (append-only,
// written inside the driver's commits), the rest in the checkpoint. In memory the agent state always
// holds the whole conversation; only its serialised form (the checkpoint) is cut at `stored`.
import { asc, eq } from "drizzle-orm"
import type { RunContext } from "../runner/context.ts"
import { latestCheckpoint } from "../store/calls.ts"
import type { Store } from "../store/open.ts"
import { agentMessages } from "../store/schema.ts"
import type { AgentState, Message } from "./types.ts"

const attached = new WeakSet<AgentState>()

/**
 * Make a checkpointed agent state whole again (stored messages first) and cut its checkpoints at
 * `stored` from now on. Idempotent. A checkpoint says where its messages start (`messagesFrom`); one
 * without it (written before the table existed, or by a serialiser that skipped toJSON) holds them all.
 */
export function attachHistory(store: Store, runId: string, agent: AgentState): AgentState {
  if (attached.has(agent)) return agent
  const from = agent.messagesFrom ?? 0
  delete agent.messagesFrom
  if (from > 0) agent.messages = [...storedMessages(store, runId, from), ...agent.messages]
  agent.stored ??= from
  Object.defineProperty(agent, "toJSON", {
    enumerable: false,
    value: () => ({ ...agent, messages: agent.messages.slice(agent.stored), messagesFrom: agent.stored }),
  })
  attached.add(agent)
  return agent
}

/** The write (inside a commit) that appends the messages not yet stored; the checkpoint written with it then holds none of them. */
export function storeHistory(ctx: RunContext, agent: AgentState): () => void {
  return () => {
    const from = agent.stored ?? 0
    if (agent.messages.length <= from) return
    const rows = agent.messages.slice(from).map((m, i) => ({ runId: ctx.runId, seq: from + i, message: JSON.stringify(m) }))
    ctx.store.db.insert(agentMessages).values(rows).run()
    agent.stored = agent.messages.length
  }
}

/** An agent run's whole state as last checkpointed (for export and inspection), or undefined for other runs. */
export function agentOf(store: Store, runId: string): AgentState | undefined {
  const agent = latestCheckpoint<{ agent?: AgentState }>(store, runId)?.state.agent
  return agent ? attachHistory(store, runId, agent) : undefined
}

function storedMessages(store: Store, runId: string, count: number): Message[] {
  const rows = store.db.select({ seq: agentMessages.seq, message: agentMessages.message }).from(agentMessages).where(eq(agentMessages.runId, runId)).orderBy(asc(agentMessages.seq)).all()
  // rows past `stored` belong to no checkpoint (cannot happen: both are written in one transaction)
  return rows.filter((r) => r.seq < count).map((r) => JSON.parse(r.message) as Message)
}
