// `ccode runs export RUN --replay`: an agent run's model turns as a replay script, the same shape
// the replay provider plays back. Pure over the checkpointed conversation (which is redacted).
import { stringify } from "yaml"
import type { AgentState, ReplayTurn } from "./types.ts"

export function replayTurns(agent: AgentState): ReplayTurn[] {
  const turns: ReplayTurn[] = []
  for (const m of agent.messages) {
    if (m.role !== "assistant") continue
    const turn: ReplayTurn = {}
    if (m.text) turn.text = m.text
    if (m.calls.length) turn.calls = m.calls.map((c) => ({ tool: c.tool, args: isObject(c.args) ? c.args : {} }))
    turns.push(turn)
  }
  return turns
}

export function replayScriptText(agent: AgentState, about: { runId: string; task: string }): string {
  const turns = replayTurns(agent)
  const header = [
    `# Replay script of ccode run ${about.runId} (${about.task}): ${turns.length} model turns.`,
    "# Play it back with `agent: {provider: replay, script: <this file>}` (secrets in it were redacted).",
  ]
  return `${header.join("\n")}\n${turns.length ? stringify(turns, { lineWidth: 0 }) : "[]\n"}`
}

function isObject(value: unknown): value is Record<string, unknown> {
  return Boolean(value) && typeof value === "object" && !Array.isArray(value)
}
