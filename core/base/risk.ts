// Risk levels and decisions are ordered so combining them is a max. Pure.
export const RISKS = ["safe", "low", "medium", "high", "critical"] as const
export type Risk = (typeof RISKS)[number]

export const DECISIONS = ["allow", "ask", "deny"] as const
export type DecisionKind = (typeof DECISIONS)[number]

export function riskRank(risk: Risk): number {
  // RISKS.indexOf(risk) without the call: this runs for every finding of every command analysed
  switch (risk) {
    case "safe": return 0
    case "low": return 1
    case "medium": return 2
    case "high": return 3
    case "critical": return 4
    default: return -1
  }
}

export function maxRisk(...levels: Risk[]): Risk {
  let best: Risk = "safe"
  for (const level of levels) if (riskRank(level) > riskRank(best)) best = level
  return best
}

export function atMost(risk: Risk, threshold: Risk): boolean {
  return riskRank(risk) <= riskRank(threshold)
}

export function strictest(...decisions: DecisionKind[]): DecisionKind {
  let best: DecisionKind = "allow"
  for (const d of decisions) if (DECISIONS.indexOf(d) > DECISIONS.indexOf(best)) best = d
  return best
}
