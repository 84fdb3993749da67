import { describe, expect, test } from "bun:test"
import { secretArgumentRules } from "../../core/redact/command-line.ts"
import { CONFIG_RULES } from "../../core/redact/configs.ts"
import { CONTEXT_RULES } from "../../core/redact/contexts.ts"
import { homeRules } from "../../core/redact/home.ts"
import { builtinRules } from "../../core/redact/builtin.ts"
import { createScanner } from "../../core/redact/scanner.ts"
import { mergeLists, type Rule, type Span } from "../../core/redact/spans.ts"
import { TOKEN_RULES } from "../../core/redact/tokens.ts"
import { CORPUS, NEAR_MISSES } from "./corpus.ts"
import { fuzzText as fuzz } from "./fuzz.ts"

const RULES: readonly Rule[] = [...TOKEN_RULES, ...CONTEXT_RULES, ...CONFIG_RULES, ...secretArgumentRules(), ...homeRules()]
const anchored = createScanner(RULES)
// the reference: every rule's regex over the whole text, no anchors, no follow checks
const whole = createScanner(RULES.map(({ anchors: _a, follow: _f, ...rule }) => rule))
const fuzzText = (seed: number) => fuzz(RULES, seed)

function spans(scanner: ReturnType<typeof createScanner>, text: string): Span[] {
  const lists: Span[][] = []
  scanner.scan(text, lists)
  return mergeLists(lists)
}

describe("the anchor prefilter", () => {
  test("every rule has anchors (only user patterns may scan whole texts)", () => {
    expect(RULES.filter((r) => !r.anchors?.length).map((r) => r.id)).toEqual([])
  })

  test("finds exactly what running every rule over the whole text finds", () => {
    const texts = [
      ...CORPUS.map((c) => c.line),
      ...NEAR_MISSES,
      CORPUS.map((c) => c.line).join("\n"),
      JSON.stringify(CORPUS.map((c) => c.line)),
      ...Array.from({ length: 300 }, (_, i) => fuzzText(i + 1)),
    ]
    const byAutomaton = createScanner(RULES, 0, undefined, { literalBelow: 0, search: "automaton" })
    for (const text of texts) {
      const want = spans(whole, text)
      expect(spans(anchored, text)).toEqual(want)
      expect(spans(byAutomaton, text)).toEqual(want)
    }
  })
})

describe("short texts: anchors found by the literal index instead of the combined regexes", () => {
  const BUILTIN = builtinRules()
  const byRegex = createScanner(BUILTIN, 1_000_000, undefined, { literalBelow: 0 })
  const byLiteral = createScanner(BUILTIN, 1_000_000, undefined, { literalBelow: Infinity })

  /** every corpus line, near miss and fuzz text, and windows of them cut at every 7th place */
  function texts(): string[] {
    const base = [...CORPUS.map((c) => c.line), ...NEAR_MISSES, ...Array.from({ length: 120 }, (_, i) => fuzzText(i + 1000))]
    const out = [...base]
    for (const t of base) for (let from = 0; from < t.length; from += 7) out.push(t.slice(from, from + 90))
    return out
  }

  test("find exactly the spans the combined regexes find", () => {
    let found = 0
    for (const text of texts()) {
      const want = spans(byRegex, text)
      found += want.length
      expect(spans(byLiteral, text)).toEqual(want)
    }
    expect(found).toBeGreaterThan(CORPUS.length)
  })

  test("case-insensitive anchors are found in any case; in non-ASCII text every index stays where it was", () => {
    const auth = "curl -H 'AUTHORIZATION: Bearer abcdefghijklmnopqrstuvwxyz0123'"
    expect(spans(byLiteral, auth)).toEqual(spans(byRegex, auth))
    expect(spans(byLiteral, auth).length).toBeGreaterThan(0)
    // "İ" lower-cases to two characters: an indexOf on the text lowered whole would point past the anchor
    const dotted = "İİİİ password=hunter2hunter2 token: ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
    expect(spans(byLiteral, dotted)).toEqual(spans(byRegex, dotted))
    expect(spans(byLiteral, dotted).length).toBeGreaterThan(0)
  })
})
