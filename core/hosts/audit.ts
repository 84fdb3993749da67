// The audit row of one hook decision: who asked (host, its session and tool-use ids, so the row joins
// the host's transcript), what ccode decided and what it answered. Pure; the caller redacts first.
import type { AuditInput } from "../audit/write.ts"
import type { Decision } from "../policy/types.ts"
import type { HostCall } from "./types.ts"
import type { Verdict } from "./verdict.ts"

export interface Redact {
  text(s: string): string
  value<T>(v: T): T
}

/** `stamp`: the fields naming the policy that decided (policy_fingerprint, managed_keys) */
export function hookAuditRow(hook: HostCall, cwd: string, d: Decision, verdict: Verdict, redact: Redact, stamp: Record<string, unknown> = {}): AuditInput {
  const data = redact.value({
    host: hook.host, host_tool: hook.hostTool, session: hook.session ?? null, tool_use_id: hook.toolUseId ?? null,
    cwd, args: hook.args, ...(hook.reads.length ? { reads: hook.reads } : {}), ...hook.extra,
    // what ccode told the host; left_to_host: nothing, the host's own permission rules decided
    answer: verdict.answer, decision: d.decision, by: d.by, rules: d.rules,
    commands: d.commands.map((c) => ({ text: c.text, risk: c.risk, decision: c.decision, rule: c.rule })),
    ...stamp,
  })
  const leftToHost = verdict.answer === "left_to_host"
  return {
    type: "decision", actor: "hook", tool: hook.tool,
    action: redact.text(typeof hook.args.command === "string" ? hook.args.command : hook.hostTool),
    // the answer given: an ask that on_ask turned into a deny is a deny
    result: verdict.answer === "deny" ? "denied" : verdict.answer === "ask" ? "asked" : "approved",
    risk: d.risk,
    // ccode approved only what a rule or grant allowed; a silent allow was left to the host
    autoApproved: leftToHost ? false : verdict.answer === "allow",
    reason: redact.text(leftToHost ? `left to host: ${d.reason}` : verdict.reason),
    data: JSON.stringify(data),
  }
}
