// Run events: what --json prints, what the events table stores, what progress shows.

export type RunEventType =
  | "run.started" | "step.started" | "decision" | "step.finished" | "request.created" | "guard"
  | "run.paused" | "run.finished" | "run.resumed" | "request.settled" | "plan.updated" | "policy.warning"
  | "agent.message" | "agent.usage" | "agent.retry" | "agent.error" | "breaker" | "tool.warning" | "sandbox" | "sandbox.network"
  | "step.skipped"

export interface RunEvent {
  type: RunEventType
  ts: string
  run: string
  [field: string]: unknown
}

/** Where events and live output go besides the database (stdout JSON, a progress line, plain lines). */
export interface Reporter {
  event(event: RunEvent): void
  /** live tool output, already redacted */
  output(runId: string, callId: string, chunk: string): void
}

export const silentReporter: Reporter = { event() {}, output() {} }
