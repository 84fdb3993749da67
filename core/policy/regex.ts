// User regexes in policies (rule args, risk.commands): the same safety check as redaction patterns
// (core/redact: invalid syntax, nested or ambiguous repetition), and one way to compile them, so a
// leading `(?i)` means case-insensitive everywhere. Pure.
import { checkRegexSafety as redactCheck, splitInlineFlags } from "../redact/safety.ts"

/** A problem description when the regex is invalid or may backtrack catastrophically, else undefined. */
export function checkRegexSafety(source: string): string | undefined {
  return redactCheck(source)
}

export function compileRegex(source: string): RegExp {
  const { source: body, flags } = splitInlineFlags(source)
  return new RegExp(body, flags)
}
