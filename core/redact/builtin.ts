// The built-in text rules, with what the build computed from them: the build imports the macros of
// rule-order.ts, so the compiled binary carries as data the secret-argument rules' anchors and
// patterns (derived from the table in arguments.ts) and the scanner's passes, instead of computing them
// on every start (paid by every hook call). Pure.
import { builtinRulesFrom } from "./rule-order.ts"
// evaluated at build time (Bun macros): inlined as data
import { builtinArgumentShapes, builtinPasses } from "./rule-order.ts" with { type: "macro" }
import type { PassData } from "./scanner.ts"
import type { Rule } from "./spans.ts"

/** The built-in rules in their order (rule-order.ts). */
export function builtinRules(): Rule[] {
  return builtinRulesFrom(builtinArgumentShapes())
}

/** The scanner's passes of `builtinRules()`, computed when the code was bundled. */
export function prebuiltPasses(): { fingerprint: string; passes: PassData[] } {
  return builtinPasses()
}
