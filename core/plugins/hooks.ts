// Plugin hooks around each call, run in load order. A hook can only restrict: deny the call, or
// rewrite its arguments (the caller decides the new ones again). It never approves; a hook that
// throws, hangs or answers nonsense denies the call (fail closed).
import { basename } from "node:path"
import { maxRisk, strictest } from "../base/risk.ts"
import type { Decision } from "../policy/types.ts"
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

/** Run every beforeCall hook in load order; each sees the arguments as the previous one left them. */
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

/**
 * The policy's decision with the hooks applied: what runCall uses. A denied call is not shown to the
 * hooks; a hook's deny becomes the decision (its rule id `hook:FILE`); rewritten arguments are decided
 * again with `redecide`, and the call gets the stricter of the two decisions, so a rewrite never turns
 * an ask into an allow.
 */
export async function decideWithHooks(input: {
  hooks: readonly PluginHooks[]
  call: HookCall
  decision: Decision
  redecide(args: Record<string, unknown>): Promise<Decision>
}): Promise<{ args: Record<string, unknown>; decision: Decision }> {
  const { hooks, call, decision } = input
  if (decision.decision === "deny" || !hooks.some((h) => h.beforeCall)) return { args: call.args, decision }
  const verdict = await applyHooks(hooks, call)
  if (verdict.kind === "deny") {
    const rule = { id: `hook:${basename(verdict.source)}`, decision: "deny" as const, source: verdict.source, reason: verdict.reason }
    return { args: call.args, decision: { ...decision, decision: "deny", by: "rule", reason: verdict.reason, rules: [...decision.rules, rule] } }
  }
  if (!verdict.rewrittenBy.length) return { args: call.args, decision }
  const again = await input.redecide(verdict.args)
  const kind = strictest(decision.decision, again.decision)
  const base = kind === again.decision ? again : decision
  const note = `arguments rewritten by ${verdict.rewrittenBy.join(", ")}`
  return { args: verdict.args, decision: { ...base, decision: kind, risk: maxRisk(decision.risk, again.risk), reason: `${base.reason} (${note})` } }
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
