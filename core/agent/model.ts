// Asking the model for one turn: the provider's errors classified, transient ones retried with
// backoff (the server's Retry-After first), the rest turned into a failed or stopped run.
import { setTimeout as sleep } from "node:timers/promises"
import { backoffDelay, disabledTools } from "../guards/index.ts"
import { saveAgent } from "./save.ts"
import type { RunContext } from "../runner/context.ts"
import { systemPrompt } from "./prompt.ts"
import { classifyProviderError, failureMessage, isTransientFailure } from "./provider-errors.ts"
import { replayProvider } from "./replay.ts"
import type { AgentSetup } from "./setup.ts"
import type { AgentState, ModelTurn, Provider, ToolSpec } from "./types.ts"

/** Tries after the first for rate limits, network trouble, timeouts and server errors. */
export const MODEL_RETRIES = 4
const MODEL_TIMEOUT_MS = 10 * 60_000
const MAX_RETRY_DELAY_MS = 60_000

export async function createProvider(setup: AgentSetup, env: Record<string, string>): Promise<Provider> {
  if (setup.provider === "replay") return replayProvider(setup.script ?? [])
  const { sdkProvider } = await import("./sdk.ts")
  return sdkProvider(setup, setup.apiKeyEnv ? env[setup.apiKeyEnv] || undefined : undefined)
}

/** The model's next turn, or undefined when the run cannot go on (ctx.stop or agent.outcome says why). */
export async function askModel(ctx: RunContext, agent: AgentState, provider: Provider, setup: AgentSetup, tools: ToolSpec[]): Promise<ModelTurn | undefined> {
  const policy = ctx.governor.policy
  for (let attempt = 1; ; attempt++) {
    const signal = AbortSignal.any([ctx.cancel.signal, AbortSignal.timeout(MODEL_TIMEOUT_MS)])
    const system = systemPrompt({ workdir: ctx.cwd, system: setup.system, disabled: disabledTools(ctx.state.guards, Date.now(), policy) })
    try {
      return await provider.turn({ system, messages: agent.messages, tools, signal })
    } catch (error) {
      const failure = classifyProviderError(error, ctx.cancel.signal.aborted)
      if (failure.kind === "cancelled") return undefined // interrupted: ctx.stop says so; resume asks again
      const message = failureMessage(failure, provider.name, setup.apiKeyEnv)
      const retry = isTransientFailure(failure.kind) && attempt <= MODEL_RETRIES
      ctx.recorder.audit({ type: "error", actor: "agent", action: `model:${failure.kind}`, result: "error", reason: message, data: { attempt, status: failure.status } })
      if (retry) {
        const delay = Math.min(MAX_RETRY_DELAY_MS, failure.retryAfterMs ?? backoffDelay(attempt, policy.limits.retry_backoff, Math.random))
        ctx.recorder.event("agent.retry", { kind: failure.kind, status: failure.status ?? null, attempt, delay_ms: delay, message })
        await saveAgent(ctx, agent)
        // interrupted while waiting: ctx.stop says so; resume asks again
        if (!(await sleep(delay, true, { signal: ctx.cancel.signal }).catch(() => false))) return undefined
        continue
      }
      ctx.recorder.event("agent.error", { kind: failure.kind, status: failure.status ?? null, attempts: attempt, message })
      if (isTransientFailure(failure.kind)) {
        // the provider may come back: keep the run resumable
        ctx.stop = { status: "stopped", reason: `${message} (gave up after ${attempt} attempts); \`ccode resume ${ctx.runId}\` tries again` }
        ctx.state.stoppedBy = "provider"
      } else agent.outcome = { status: "failed", message }
      await saveAgent(ctx, agent)
      return undefined
    }
  }
}
