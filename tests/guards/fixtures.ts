// Shared arrangements for guard tests: a policy like the bundled default, and the checkpoint round trip.
import type { GuardPolicy } from "../../core/guards/state.ts"
import type { CallSummary } from "../../core/guards/loop.ts"

export function guardPolicy(overrides: { limits?: Partial<GuardPolicy["limits"]>; loop?: Partial<GuardPolicy["loop_detection"]>; breaker?: Partial<GuardPolicy["circuit_breaker"]> } = {}): GuardPolicy {
  return {
    limits: {
      max_steps: 20, max_tool_calls: 100, max_depth: 5, max_wall_time: 30 * 60_000, tool_timeout: 30_000,
      tool_timeouts: { shell: 120_000 }, idle_timeout: 120_000, retries: 2, retry_backoff: 1000,
      max_noop_iterations: 3, parallel: 1, ...overrides.limits,
    },
    loop_detection: {
      repeat_threshold: 3, error_repeat_threshold: 3, similarity: 0.8, window: 10, time_window: 60_000, oscillation: true,
      ...overrides.loop,
    },
    circuit_breaker: { failure_threshold: 3, recovery_timeout: 5 * 60_000, ...overrides.breaker },
  }
}

/** What a checkpoint does to guard state: it must come back equal and keep working. */
export function viaCheckpoint<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}

export function ok(tool: string, args: unknown, text = "", id?: string): CallSummary {
  return { id, tool, args, result: { status: "ok", text } }
}

export function failed(tool: string, args: unknown, message: string, opts: { code?: string; type?: "execution" | "network" | "timeout" | "param" | "not_found" | "denied"; text?: string } = {}): CallSummary {
  return {
    tool, args,
    result: { status: "error", text: opts.text ?? message, error: { code: opts.code ?? "TOOL_ERROR", type: opts.type ?? "execution", message } },
  }
}
