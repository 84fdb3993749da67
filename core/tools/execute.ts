// Runs one tool call: validates args, enforces timeout and idle timeout, honours cancel,
// and always returns an envelope. A tool that ignores its AbortSignal is abandoned, not awaited.
import { formatDuration } from "../base/duration.ts"
import { errorResult, okResult, thrownResult, describeZod } from "./envelope.ts"
import { declaredPaths } from "./declare.ts"
import { resolveToolPath } from "./paths.ts"
import { ToolFailure, type Tool, type ToolResult } from "./types.ts"
import type { Sandbox } from "../sandbox/session.ts"

/** How long a tool may keep running after its signal fired before it is abandoned. */
const ABANDON_AFTER_MS = 1500

export interface ExecuteOptions {
  cwd: string
  workspace: string
  env: Record<string, string>
  runId: string
  callId: string
  confine: boolean
  timeoutMs: number
  idleTimeoutMs: number
  /** external cancel (SIGINT, deny-and-stop) */
  signal?: AbortSignal
  onOutput?(chunk: string): void
  ask?(question: string): Promise<string>
  sandbox?: Sandbox
  onProcess?(info: { pgid: number }): void
  onExit?(exitCode: number): void
}

export async function executeTool(tool: Tool, rawArgs: unknown, opts: ExecuteOptions): Promise<ToolResult> {
  const started = performance.now()
  const parsed = tool.args.safeParse(rawArgs ?? {})
  if (!parsed.success) return errorResult("INVALID_PARAM", "param", `invalid arguments for ${tool.name}: ${describeZod(parsed.error)}`)
  const outside = opts.confine ? confineDeclared(tool, parsed.data, opts) : undefined
  if (outside) return outside

  const controller = new AbortController()
  const abort = (failure: ToolFailure) => {
    if (!controller.signal.aborted) controller.abort(failure)
  }
  const timer = setTimeout(
    () => abort(new ToolFailure("TIMEOUT", "timeout", `${tool.name} timed out after ${formatDuration(opts.timeoutMs)}`)),
    opts.timeoutMs,
  )
  let idleTimer: ReturnType<typeof setTimeout> | undefined
  const armIdle = () => {
    if (idleTimer) clearTimeout(idleTimer)
    idleTimer = setTimeout(
      () => abort(new ToolFailure("IDLE_TIMEOUT", "timeout", `${tool.name} printed nothing for ${formatDuration(opts.idleTimeoutMs)} (limits.idle_timeout)`)),
      opts.idleTimeoutMs,
    )
  }
  armIdle()
  const onCancel = () => abort(cancelReason(opts.signal!))
  if (opts.signal?.aborted) onCancel()
  opts.signal?.addEventListener("abort", onCancel, { once: true })

  const ctx = {
    cwd: opts.cwd,
    workspace: opts.workspace,
    env: opts.env,
    signal: controller.signal,
    runId: opts.runId,
    callId: opts.callId,
    timeoutMs: opts.timeoutMs,
    idleTimeoutMs: opts.idleTimeoutMs,
    log(chunk: string) {
      armIdle()
      opts.onOutput?.(chunk)
    },
    paths: { resolve: (path: string) => resolveToolPath(path, opts.cwd, opts.workspace, opts.confine) },
    sandbox: opts.sandbox,
    onProcess: opts.onProcess,
    onExit: opts.onExit,
    ask: (question: string) => (opts.ask ? opts.ask(question) : Promise.reject(new ToolFailure("NO_HUMAN", "denied", "nobody can answer questions here"))),
  }
  try {
    const output = await Promise.race([Promise.resolve().then(() => tool.run(parsed.data, ctx)), abandoned(controller.signal)])
    if (controller.signal.aborted && !output.error && !output.settled) {
      const failure = controller.signal.reason as ToolFailure
      return errorResult(failure.code, failure.type, failure.message, performance.now() - started, output.text ?? "", undefined, output.bytes)
    }
    return okResult(output, performance.now() - started)
  } catch (error) {
    if (controller.signal.aborted && !(error instanceof ToolFailure)) return thrownResult(controller.signal.reason, performance.now() - started)
    return thrownResult(error, performance.now() - started)
  } finally {
    clearTimeout(timer)
    if (idleTimer) clearTimeout(idleTimer)
    opts.signal?.removeEventListener("abort", onCancel)
  }
}

// Every path the tool declares is confined before it runs (plugins and MCP tools included), so a
// tool cannot be pointed outside the workspace even when its own code never asks ctx.paths.
function confineDeclared(tool: Tool, args: unknown, opts: ExecuteOptions): ToolResult | undefined {
  try {
    const record = args && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : {}
    for (const p of declaredPaths(tool, record)) resolveToolPath(p.path, opts.cwd, opts.workspace, true)
    return undefined
  } catch (error) {
    return thrownResult(error, 0)
  }
}

// Resolves (by throwing) only when the signal fired and the tool still has not returned.
function abandoned(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fire = () => setTimeout(() => reject(signal.reason), ABANDON_AFTER_MS).unref()
    if (signal.aborted) fire()
    else signal.addEventListener("abort", fire, { once: true })
  })
}

function cancelReason(signal: AbortSignal): ToolFailure {
  const reason = signal.reason
  if (reason instanceof ToolFailure) return reason
  return new ToolFailure("INTERRUPTED", "execution", typeof reason === "string" ? reason : "cancelled")
}
