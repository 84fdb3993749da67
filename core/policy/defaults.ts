// What a value is when no layer sets it (only reachable with `extends: none`, since every bundled
// policy sets them all): conservative, a person confirms every call. Pure.
import type { Policy } from "./types.ts"

export function fallbackPolicy(): Policy {
  return {
    extends: "none",
    approval: { mode: "manual", threshold: "safe", tools: [], on_ask: "prompt", timeout: 600_000, sandboxed_threshold: "medium" },
    rules: [],
    risk: { tools: {}, commands: [], paths: [], overrides: {} },
    limits: {
      max_steps: 20, max_tool_calls: 100, max_depth: 5, max_wall_time: 1_800_000, tool_timeout: 30_000,
      tool_timeouts: {}, idle_timeout: 120_000, retries: 2, retry_backoff: 1000, max_noop_iterations: 3, parallel: 1,
    },
    loop_detection: {
      repeat_threshold: 3, error_repeat_threshold: 3, similarity: 0.8, window: 10, time_window: 60_000, oscillation: true,
    },
    circuit_breaker: { failure_threshold: 3, recovery_timeout: 300_000 },
    workspace: { confine: true, protected: [], detect_external_changes: true },
    redaction: { enabled: true, patterns: [], env: [], flags: {} },
    sandbox: { mode: "auto", network: "none", writable: [], hidden: [], read_only: [], preview: false },
    mcp: { servers: {} },
    prices: {},
    sources: {},
    ignored: [],
  }
}
