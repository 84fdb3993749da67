// The conversation as plain data: which calls of the open turn still need a result, and the
// text a tool result, a refusal or an answer becomes for the model. Pure: no I/O, no clock.
import { capText } from "../tools/envelope.ts"
import type { ToolResult } from "../tools/types.ts"
import type { AgentState, Message, ModelTurn, ToolCall } from "./types.ts"

/** What the model gets of one tool output at most (head + tail beyond it): the checkpoint holds it too. */
export const RESULT_CAP = 32 * 1024

export function newAgentState(goal: string): AgentState {
  return { v: 1, messages: [{ role: "user", text: goal }], scratchpad: { task: "", todo: "" }, turns: 0, usage: { input: 0, output: 0, cost: 0 }, warned: [] }
}

export function lastAssistant(state: AgentState): Extract<Message, { role: "assistant" }> | undefined {
  for (let i = state.messages.length - 1; i >= 0; i--) {
    const m = state.messages[i]!
    if (m.role === "assistant") return m
  }
  return undefined
}

/** Calls of the latest turn that have no result yet, in the order the model made them. */
export function openCalls(state: AgentState): ToolCall[] {
  const turn = lastAssistant(state)
  if (!turn || !turn.calls.length) return []
  const answered = new Set<string>()
  for (let i = state.messages.length - 1; i >= 0; i--) {
    const m = state.messages[i]!
    if (m === turn) break
    if (m.role === "tool") answered.add(m.id)
  }
  return turn.calls.filter((c) => !answered.has(c.id))
}

/** The model's answer as the assistant message of turn `turn`: ids made unique, each call keyed `t<turn>.<n>`. */
export function assistantMessage(state: AgentState, turn: number, answer: ModelTurn): Extract<Message, { role: "assistant" }> {
  const used = new Set<string>()
  for (const m of state.messages) if (m.role === "assistant") for (const c of m.calls) used.add(c.id)
  const calls = answer.calls.map((call, i): ToolCall => {
    // some local servers number calls per response (call_0, call_1): ids must stay unique across the conversation
    const id = call.id && !used.has(call.id) ? call.id : `call_t${turn}_${i + 1}`
    used.add(id)
    return { id, tool: call.tool, args: call.args, key: `t${turn}.${i + 1}` }
  })
  return { role: "assistant", turn, text: answer.text, calls }
}

export function resultMessage(call: ToolCall, result: ToolResult): Message {
  if (result.status === "ok") return { role: "tool", id: call.id, tool: call.tool, text: capText(result.text || "(no output)", RESULT_CAP) }
  const error = result.error
  const head = `error${error ? ` ${error.code}` : ""}: ${error?.message ?? "failed"}`
  const body = result.text && result.text !== error?.message ? `\n${result.text}` : ""
  return { role: "tool", id: call.id, tool: call.tool, text: capText(head + body, RESULT_CAP), error: true }
}

/** A refused call: the model is told it did not run and why, so it can choose another way. */
export function refusalMessage(call: ToolCall, reason: string): Message {
  return {
    role: "tool", id: call.id, tool: call.tool, error: true,
    text: `refused: ${reason}. This call did not run. Choose another way to reach the goal, ask_user, or finish with success=false.`,
  }
}

export function noteMessage(call: ToolCall, text: string, error = false): Message {
  return { role: "tool", id: call.id, tool: call.tool, text, error }
}

/** Every call of every turn with exactly one result: missing ones (a run that ended mid-turn) are filled in. */
export function completeResults(messages: Message[]): Message[] {
  const out: Message[] = []
  const sent = new Set<string>()
  let turn: Extract<Message, { role: "assistant" }> | undefined
  const closeTurn = () => {
    for (const c of turn?.calls ?? []) {
      if (sent.has(c.id)) continue
      sent.add(c.id)
      out.push({ role: "tool", id: c.id, tool: c.tool, text: "not run: the run ended before this call", error: true })
    }
    turn = undefined
  }
  for (const m of messages) {
    if (m.role === "tool") {
      if (sent.has(m.id)) continue // never send the model a second result for one call
      sent.add(m.id)
      out.push(m)
      continue
    }
    closeTurn()
    out.push(m)
    if (m.role === "assistant") turn = m
  }
  closeTurn()
  return out
}

/** The first line of a model's text, for progress lines and run messages. */
export function firstLine(text: string, max = 200): string {
  const line = text.trim().split("\n")[0] ?? ""
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}
