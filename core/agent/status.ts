// How an agent run stands when a segment ends: finish(success) completed, finish(failure) or a
// provider failure failed, a person's answer pending paused, a guard stopped. Pure.
import type { RunStop } from "../runner/context.ts"
import type { RunStatus } from "../store/runs.ts"
import type { AgentState } from "./types.ts"

export function agentStatus(agent: AgentState | undefined, stop: RunStop | undefined): { status: RunStatus; message: string } {
  if (stop) return { status: stop.status, message: stop.reason }
  if (agent?.outcome) return { status: agent.outcome.status, message: agent.outcome.message }
  if (agent?.waiting) {
    const what = agent.waiting.kind === "question" ? "an answer" : agent.waiting.kind === "approval" ? "an approval" : "a decision on a call that was running at a crash"
    return { status: "paused", message: `waiting for ${what} (${agent.waiting.requestId})` }
  }
  return { status: "failed", message: "the agent stopped without an outcome" }
}
