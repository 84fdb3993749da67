// Plugin hooks around each call, run in load order. A hook can only restrict: deny the call, or
// rewrite its arguments (the caller decides the new ones again). It never approves; a hook that
// throws, hangs or answers nonsense denies the call (fail closed).
import type { ToolResult } from "../tools/types.ts"
import type { PluginHooks } from "./validate.ts"

export interface HookCall {
  tool: string
  args: Record<string, unknown>
  cwd: string
  workspace: string
  runId: string
  callId: string
}

export type BeforeCallResult = void | undefined | { deny: string } | { args: Record<string, unknown> }
export type BeforeCall = (call: HookCall) => BeforeCallResult | Promise<BeforeCallResult>
export type AfterCall = (call: HookCall, result: ToolResult) => unknown

export type HookVerdict =
  /** go on with `args`; when `rewrittenBy` is not empty they differ from the proposal and must be decided again */
  | { kind: "continue"; args: Record<string, unknown>; rewrittenBy: string[] }
  | { kind: "deny"; reason: string; source: string }

/** How long one hook may take before it counts as a failure. */
export const HOOK_TIMEOUT_MS = 5000

/**
 * Run every beforeCall hook in load order; each sees the arguments as the previous one left them.
 * Where to call it: after the policy decided the proposal and did not deny it, before the intent is
 * committed; a `deny` verdict denies the call (by: rule-like, reason names the plugin), a rewrite is
 * prepared and decided again with the new arguments (an allow may become ask or deny, never the reverse).
 */
export async function applyHooks(hooks: readonly PluginHooks[], call: HookCall, timeoutMs = HOOK_TIMEOUT_MS): Promise<HookVerdict> {
  let args = call.args
  const rewrittenBy: string[] = []
  for (const hook of hooks) {
    if (!hook.beforeCall) continue
    let answer: BeforeCallResult
    try {
      answer = await withTimeout(hook.beforeCall({ ...call, args: clone(args) }), timeoutMs, hook.source)
    } catch (error) {
      return { kind: "deny", source: hook.source, reason: `the beforeCall hook of ${hook.source} failed: ${message(error)}` }
    }
    if (answer === undefined || answer === null) continue
    if (typeof answer !== "object") return invalid(hook, `returned ${typeof answer}`)
    if ("deny" in answer) {
      const reason = typeof answer.deny === "string" && answer.deny.trim() ? answer.deny : "denied by a plugin hook"
      return { kind: "deny", source: hook.source, reason: `${reason} (beforeCall hook of ${hook.source})` }
    }
    if ("args" in answer) {
      const next = plainObject(answer.args)
      if (!next) return invalid(hook, "returned args that are not a JSON object")
      if (JSON.stringify(next) !== JSON.stringify(args)) {
        args = next
        rewrittenBy.push(hook.source)
      }
      continue
    }
    return invalid(hook, "returned something other than nothing, {deny: reason} or {args}")
  }
  return { kind: "continue", args, rewrittenBy }
}

/** Tell every afterCall hook how the call ended. Their failures are returned (to report), never thrown. */
export async function afterHooks(
  hooks: readonly PluginHooks[], call: HookCall, result: ToolResult, timeoutMs = HOOK_TIMEOUT_MS,
): Promise<string[]> {
  const problems: string[] = []
  for (const hook of hooks) {
    if (!hook.afterCall) continue
    try {
      await withTimeout(hook.afterCall({ ...call, args: clone(call.args) }, clone(result)), timeoutMs, hook.source)
    } catch (error) {
      problems.push(`the afterCall hook of ${hook.source} failed: ${message(error)}`)
    }
  }
  return problems
}

function invalid(hook: PluginHooks, what: string): HookVerdict {
  return { kind: "deny", source: hook.source, reason: `the beforeCall hook of ${hook.source} ${what}` }
}

async function withTimeout<T>(value: T | Promise<T>, ms: number, source: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms}ms (${source})`)), ms)
  })
  try {
    return await Promise.race([Promise.resolve(value), late])
  } finally {
    clearTimeout(timer)
  }
}

// Hooks get copies: a hook that edits the arguments in place must not change them without saying so.
function clone<T>(value: T): T {
  return structuredClone(value)
}

function plainObject(value: unknown): Record<string, unknown> | undefined {
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined
  try {
    return JSON.parse(JSON.stringify(value)) as Record<string, unknown>
  } catch {
    return undefined
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
