// ccode's decision as the answer a hook gives its host, with approval.on_ask applied: a hook cannot
// pause its host, so an `ask` nobody should be prompted for becomes a deny that says why. Pure.
import type { Decision } from "../policy/types.ts"

export type OnAsk = "prompt" | "pause" | "deny"

/** left_to_host: print nothing, the host decides as if no hook ran. */
export type Answer = "allow" | "ask" | "deny" | "left_to_host"

export interface Verdict {
  answer: Answer
  /** for the host: shown to the person and/or the model */
  reason: string
}

export function verdictFor(decision: Decision, onAsk: OnAsk): Verdict {
  const reason = `ccode: ${decision.reason}`
  switch (decision.decision) {
    case "deny":
      return { answer: "deny", reason }
    case "allow":
      // an allow no rule or grant made (within the threshold, or the approval mode) is the host's call
      return { answer: decision.by === "rule" || decision.by === "grant" ? "allow" : "left_to_host", reason }
    case "ask":
      if (onAsk === "prompt") return { answer: "ask", reason }
      if (onAsk === "deny") return { answer: "deny", reason: `${reason} (needs a person's approval; denied because approval.on_ask is deny)` }
      return {
        answer: "deny",
        reason: `${reason} (needs a person's approval; a hook cannot pause its host, so approval.on_ask: pause denies it. Allow it with a rule in .ccode/policy.yaml, or set on_ask: prompt to be asked)`,
      }
  }
}
