// The built-in text rules in their order, and what the build computes from them ahead of time (run
// as Bun macros by builtin.ts, so this file must import no macro itself: a macro cannot run one). Pure.
import { SECRET_ARGUMENTS } from "./arguments.ts"
import { argumentRuleShapes, secretArgumentRules, type ArgumentRuleShape } from "./command-line.ts"
import { CONFIG_RULES } from "./configs.ts"
import { CONTEXT_RULES } from "./contexts.ts"
import { homeRules } from "./home.ts"
import { stdinSecretRules } from "./stdin.ts"
import { passData, type PassData } from "./scanner.ts"
import type { Rule } from "./spans.ts"
import { TOKEN_RULES } from "./tokens.ts"

/** Provider tokens first: where a generic context rule hides the same token, the marker names the
 *  provider. `shapes`: the secret-argument rules' anchors and patterns (`builtinArgumentShapes`). */
export function builtinRulesFrom(shapes: ArgumentRuleShape[]): Rule[] {
  return [...TOKEN_RULES, ...CONTEXT_RULES, ...CONFIG_RULES, ...secretArgumentRules(SECRET_ARGUMENTS, shapes), ...stdinSecretRules(), ...homeRules()]
}

/** Run as a macro: the built-in table's secret-argument shapes, inlined as data. */
export function builtinArgumentShapes(): ArgumentRuleShape[] {
  return argumentRuleShapes(SECRET_ARGUMENTS)
}

/** Run as a macro: its result is inlined. A scanner uses it only when the rules' fingerprint matches. */
export function builtinPasses(): { fingerprint: string; passes: PassData[] } {
  return passData(builtinRulesFrom(builtinArgumentShapes()))
}
