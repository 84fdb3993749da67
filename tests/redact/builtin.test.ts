import { describe, expect, test } from "bun:test"
import { builtinRules, prebuiltPasses } from "../../core/redact/builtin.ts"
import { builtinArgumentShapes, builtinPasses } from "../../core/redact/rule-order.ts"
import { createScanner, passData, rulesFingerprint } from "../../core/redact/scanner.ts"
import { argumentRuleShapes, secretArgumentRules } from "../../core/redact/command-line.ts"
import { SECRET_ARGUMENTS } from "../../core/redact/arguments.ts"
import { mergeLists, type Span } from "../../core/redact/spans.ts"
import { CORPUS, NEAR_MISSES } from "./corpus.ts"

const RULES = builtinRules()

function spans(scanner: ReturnType<typeof createScanner>, text: string): Span[] {
  const lists: Span[][] = []
  scanner.scan(text, lists)
  return mergeLists(lists)
}

describe("the built-in scanner's passes computed at build time", () => {
  const texts = [...CORPUS.map((c) => c.line), ...NEAR_MISSES, CORPUS.map((c) => c.line).join("\n"), JSON.stringify(CORPUS.map((c) => c.line))]

  test("a scanner from the prebuilt passes finds exactly what one that builds them finds", () => {
    const built = createScanner(RULES, 1_000_000)
    const prebuilt = createScanner(RULES, 1_000_000, prebuiltPasses())
    let found = 0
    for (const text of texts) {
      const want = spans(built, text)
      found += want.length
      expect(spans(prebuilt, text)).toEqual(want)
    }
    expect(found).toBeGreaterThan(CORPUS.length / 2)
  })

  test("the passes are plain data that survive JSON (what the build inlines)", () => {
    const data = builtinPasses()
    expect(JSON.parse(JSON.stringify(data))).toEqual(data)
    expect(prebuiltPasses()).toEqual(data)
    expect(data.fingerprint).toBe(rulesFingerprint(RULES))
    expect(data.passes.length).toBeGreaterThan(0)
  })

  test("passes computed for other rules are not used: a rule added after the build is still found", () => {
    const stale = passData(RULES.slice(0, -1))
    expect(stale.fingerprint).not.toBe(rulesFingerprint(RULES))
    const scanner = createScanner(RULES, 1_000_000, stale)
    const built = createScanner(RULES, 1_000_000)
    for (const text of texts) expect(spans(scanner, text)).toEqual(spans(built, text))
  })

  test("a changed anchor, follow or pattern changes the fingerprint", () => {
    const changed = (f: (r: (typeof RULES)[number]) => (typeof RULES)[number]) => rulesFingerprint(RULES.map((r, i) => (i === 0 ? f(r) : r)))
    const base = rulesFingerprint(RULES)
    expect(changed((r) => ({ ...r, anchors: [...(r.anchors ?? []), "zz-new-anchor"] }))).not.toBe(base)
    expect(changed((r) => ({ ...r, follow: "[a-z]" }))).not.toBe(base)
    expect(changed((r) => ({ ...r, re: new RegExp(r.re.source + "x", r.re.flags) }))).not.toBe(base)
    expect(changed((r) => ({ ...r, re: new RegExp(r.re.source, r.re.flags.includes("i") ? r.re.flags.replace("i", "") : r.re.flags + "i") }))).not.toBe(base)
  })
})

describe("the secret-argument rules' shapes computed at build time", () => {
  const shapeOf = (r: (typeof RULES)[number]) => ({ id: r.id, anchors: r.anchors, source: r.re.source, flags: r.re.flags, follow: r.follow, atStart: r.atStart })

  test("are the rules built from the table at run time, in the built-in order", () => {
    const built = secretArgumentRules(SECRET_ARGUMENTS, argumentRuleShapes(SECRET_ARGUMENTS)).map(shapeOf)
    const inBuiltin = RULES.filter((r) => r.id === "secret-argument").map(shapeOf)
    expect(built.length).toBeGreaterThan(2)
    expect(inBuiltin).toEqual(built)
    expect(builtinArgumentShapes()).toEqual(argumentRuleShapes(SECRET_ARGUMENTS))
  })

  test("are plain data that survive JSON (what the build inlines)", () => {
    const data = builtinArgumentShapes()
    expect(JSON.parse(JSON.stringify(data))).toEqual(data)
  })

  test("a rule from shapes reads the command: the secret after sshpass -p is found", () => {
    const scanner = createScanner(secretArgumentRules(SECRET_ARGUMENTS, builtinArgumentShapes()))
    expect(spans(scanner, "sshpass -p hunter2hunter2 ssh host").map((s) => s.marker)).toEqual(["[REDACTED:secret-argument]"])
  })
})

