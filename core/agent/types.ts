// The agent driver's plain data: its state (conversation, notes, waits) as checkpointed, the
// model's turns, and the provider contract. No behaviour here.
import type { PendingCall } from "../runner/state.ts"
import type { Scratchpad } from "../tools/builtin/agent.ts"

/** One tool call the model proposed, with the key its calls row carries (`t<turn>.<n>`). */
export interface ToolCall {
  id: string
  tool: string
  args: unknown
  key: string
}

/** The conversation, provider-neutral and redacted (stored: agent_messages + the checkpoint, see history.ts). */
export type Message =
  | { role: "user"; text: string }
  | { role: "assistant"; turn: number; text: string; calls: ToolCall[]; closed?: boolean }
  | { role: "tool"; id: string; tool: string; text: string; error?: boolean }

/** Why the agent is stopped on a person, and what to hand the model once they answered. */
export type AgentWaiting =
  | { kind: "question"; requestId: string; call: ToolCall; questions: string[]; options?: string[]; created: boolean }
  | { kind: "approval" | "in_flight"; requestId: string; call: ToolCall; callId: string; seq: number; shown?: string }

export interface AgentState {
  v: 1
  messages: Message[]
  scratchpad: Scratchpad
  /** how many messages are in agent_messages (the checkpoint holds the rest) */
  stored?: number
  /** in a checkpoint only: the index of its first message (see history.ts) */
  messagesFrom?: number
  /** model turns taken so far */
  turns: number
  usage: { input: number; output: number; cost: number }
  /** usage rows of turns not yet in the usage table (written with the driver's next own commit) */
  unsaved?: UsageRow[]
  waiting?: AgentWaiting
  /** a call that already has its row: approved by a person, or in flight at a crash and to run again */
  pending?: { key: string; call: PendingCall }
  /** how the agent ended: finish(), an answer without tool calls, or a provider failure */
  outcome?: { status: "completed" | "failed"; message: string }
  /** warnings already given once (missing price, ...) */
  warned: string[]
}

export interface UsageRow {
  turn: number
  model: string
  input: number
  output: number
  cost: number
  at: number
}

/** What the model answered in one turn. */
export interface ModelTurn {
  text: string
  calls: { id: string; tool: string; args: unknown }[]
  usage: { input: number; output: number }
}

/** A tool as the model sees it. */
export interface ToolSpec {
  name: string
  description: string
  /** JSON Schema of the arguments */
  schema: Record<string, unknown>
}

export interface TurnRequest {
  system: string
  messages: Message[]
  tools: ToolSpec[]
  signal: AbortSignal
}

/** A model behind some protocol; one request per turn, errors thrown as they come (the driver classifies). */
export interface Provider {
  name: string
  model: string
  turn(request: TurnRequest): Promise<ModelTurn>
}

/** One recorded model turn, as replay scripts and `runs export --replay` hold them. */
export interface ReplayTurn {
  text?: string
  calls?: { tool: string; args: Record<string, unknown> }[]
}
