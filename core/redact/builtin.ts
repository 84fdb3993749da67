// The built-in text rules in their order, and their scanner's passes computed at build time: the build
// imports `builtinPasses` as a Bun macro, so the compiled binary carries the passes as data instead of
// building them on every start (most of the scanner's cost, paid by every hook call). Pure.
import { secretArgumentRules } from "./command-line.ts"
import { CONFIG_RULES } from "./configs.ts"
import { CONTEXT_RULES } from "./contexts.ts"
import { homeRules } from "./home.ts"
import { stdinSecretRules } from "./stdin.ts"
import { passData, type PassData } from "./scanner.ts"
import type { Rule } from "./spans.ts"
import { TOKEN_RULES } from "./tokens.ts"

/** Provider tokens first: where a generic context rule hides the same token, the marker names the provider. */
export function builtinRules(): Rule[] {
  return [...TOKEN_RULES, ...CONTEXT_RULES, ...CONFIG_RULES, ...secretArgumentRules(), ...stdinSecretRules(), ...homeRules()]
}

/** Run as a macro: its result is inlined. A scanner uses it only when the rules' fingerprint matches. */
export function builtinPasses(): { fingerprint: string; passes: PassData[] } {
  return passData(builtinRules())
}
