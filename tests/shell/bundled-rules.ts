// The deny rules of the bundled default/strict policies and their approval modes, applied the way
// decide() treats a shell call (risk, then rules, then the approval threshold), so the corpus can be checked without the policy engine.
import { riskRank } from "../../core/base/risk.ts"
import { matchCommandPattern, type ShellAnalysis } from "../../core/shell/index.ts"
import type { Decision } from "./corpus.ts"

export const BUNDLED_DENY = [
  "git push --force *", "git push -f *", "git push --force-with-lease *", "git push * +* *",
  "mkfs* *", "dd * of=/dev/* *", "shutdown *", "reboot *", "halt *", "poweroff *",
  "rm -rf / *", "rm -rf ~ *", "rm -rf ~/ *",
]

export function bundledDecision(a: ShellAnalysis, policy: "default" | "strict"): Decision {
  if (a.commands.some((c) => BUNDLED_DENY.some((p) => matchCommandPattern(p, c, "restrict")))) return "deny"
  if (policy === "strict" || a.unresolvable || a.risk === "critical") return "ask"
  return riskRank(a.risk) <= riskRank("low") ? "allow" : "ask"
}
