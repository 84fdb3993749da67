// Public face of secret redaction, applied before anything is stored, streamed,
// printed or exported. Pure: reads no environment and no files; the caller passes what it knows.
import { SECRET_ARGUMENTS } from "./arguments.ts"
import { redactArgv } from "./argv.ts"
import { redactParsedCommand } from "./parsed.ts"
import { parserReady } from "../shell/index.ts"
import { extraFlagsTable, SECRET_ARGUMENT_ID, secretArgumentRules, type ExtraFlags } from "./command-line.ts"
import { ownHomeRule } from "./home.ts"
import { knownValueRule } from "./known.ts"
import { checkRegexSafety, splitInlineFlags } from "./safety.ts"
import { createScanner, type Scanner } from "./scanner.ts"
import { builtinRules, prebuiltPasses } from "./builtin.ts"
import { mergeLists, render, type Rule, type Span } from "./spans.ts"
import { createStream } from "./stream.ts"
import { redactValue } from "./structured.ts"
import { memoize } from "../base/memo.ts"

export { checkRegexSafety } from "./safety.ts"
export { isSensitiveKey, isIdKey } from "./structured.ts"
export { looksSecretName, looksSecretVariable } from "./known.ts"

export interface RedactOptions {
  /** default true; false (policy `redaction.enabled: false`, `CCODE_REDACT=0`) passes everything through */
  enabled?: boolean
  /** the environment the tools run with: values of secret-looking names are masked */
  env?: Record<string, string | undefined>
  /** policy `redaction.env`: exact values of these env vars are masked */
  envNames?: string[]
  /** extra literal values to mask */
  secrets?: string[]
  /** policy `redaction.patterns`; a named group `secret` limits what is hidden, else the whole match */
  patterns?: { id: string; regex: string }[]
  /** policy `redaction.flags`: program -> flags whose value is a secret, beside the built-in table */
  flags?: ExtraFlags
  /** the user's home directory, masked in paths */
  home?: string
}

export interface Redactor {
  readonly enabled: boolean
  /** redact a string */
  text(s: string): string
  /** deep-redact JSON-like data (keys and string values); returns a copy */
  value<T>(v: T): T
  /** for streaming output: push returns what is safe to emit now, flush the rest */
  stream(): { push(chunk: string): string; flush(): string }
}

/** A user pattern that is invalid, matches nothing but the empty string, or could backtrack catastrophically. */
export class RedactionPatternError extends Error {
  readonly exitCode = 2
  constructor(
    readonly id: string,
    readonly regex: string,
    readonly problem: string,
  ) {
    super(`redaction.patterns: pattern "${id}" (${regex}): ${problem}`)
    this.name = "RedactionPatternError"
  }
}

// The built-in rules (their order is in rule-order.ts) in one scanner, built once, on first use (a command
// that imports this module but redacts nothing does not pay for it), from the passes the build
// computed: the combined anchor scans compile (and warm up) a single time per process.
const ARGUMENT_MARKER = `[REDACTED:${SECRET_ARGUMENT_ID}]`
let builtin: Scanner | undefined
const builtinScanner = (): Scanner => (builtin ??= createScanner(builtinRules(), 1_000_000, prebuiltPasses()))

/** Order: known values, user patterns, built-in patterns, home directories; structured
 *  keys are decided in `value` before its strings reach `text`. Throws RedactionPatternError. */
export function createRedactor(opts: RedactOptions = {}): Redactor {
  const userRules = compilePatterns(opts.patterns ?? [])
  if (opts.enabled === false) return PASS_THROUGH
  const known = knownValueRule(opts)
  const own = ownHomeRule(opts.home)
  const extra = extraFlagsTable(opts.flags ?? {})
  const tables = extra.length > 0 ? [SECRET_ARGUMENTS, extra] : [SECRET_ARGUMENTS]
  if (extra.length > 0) userRules.push(...secretArgumentRules(extra))
  const scanners: Scanner[] = [createScanner([...(known ? [known] : []), ...userRules]), builtinScanner()]
  if (own) scanners.push(createScanner([own], 2_000_000))
  const find = (s: string): Span[] => {
    const lists: Span[][] = []
    for (const scanner of scanners) scanner.scan(s, lists)
    return mergeLists(lists)
  }
  const text = memoize((s: string): string => (s.length === 0 ? s : render(s, find(s))), TEXT_MEMO)
  // a call's arguments are redacted for its row, its event and its audit: read each command once
  let last: { command: string; parsed: boolean; redacted: string } | undefined
  const shell = (command: string): string => {
    if (last?.command !== command || last.parsed !== parserReady()) {
      last = { command, parsed: parserReady(), redacted: redactParsedCommand(command, text(command), ARGUMENT_MARKER, tables) }
    }
    return last.redacted
  }
  return {
    enabled: true,
    text,
    value: (v) =>
      redactValue(v, text, {
        argv: (argv) => redactArgv(argv, ARGUMENT_MARKER, tables),
        shell,
      }),
    stream: () => createStream(find, known?.values ?? []),
  }
}

// A run redacts the same short strings again and again (every event's and audit row's keys, "allow",
// a step's command, its risk reason: 52 strings a step, 45 of them seen before): each is scanned once
// per redactor. The same string always redacts the same way with one redactor (its rules and known
// values are fixed when it is made), so the result is the one a scan would give.
const TEXT_MEMO = { entries: 2048, maxLength: 512 }

const PASS_THROUGH: Redactor = {
  enabled: false,
  text: (s) => s,
  value: (v) => v,
  stream: () => ({ push: (chunk) => chunk, flush: () => "" }),
}

/** Checked even when redaction is off, so a broken policy is reported the same way every time. */
function compilePatterns(patterns: readonly { id: string; regex: string }[]): Rule[] {
  return patterns.map(({ id, regex }) => {
    const problem = checkRegexSafety(regex)
    if (problem) throw new RedactionPatternError(id, regex, problem)
    const { source, flags } = splitInlineFlags(regex)
    if (new RegExp(source, flags).test("")) throw new RedactionPatternError(id, regex, "it matches the empty string")
    const named = /\(\?<secret>/.test(source)
    return { id, re: new RegExp(source, `g${flags}${named ? "d" : ""}`), singleLine: true }
  })
}
