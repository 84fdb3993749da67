import { describe, expect, test } from "bun:test"
import { secretArgumentRules } from "../../core/redact/command-line.ts"
import { CONFIG_RULES } from "../../core/redact/configs.ts"
import { CONTEXT_RULES } from "../../core/redact/contexts.ts"
import { homeRules } from "../../core/redact/home.ts"
import { checkRegexSafety, createRedactor, RedactionPatternError } from "../../core/redact/index.ts"
import { TOKEN_RULES } from "../../core/redact/tokens.ts"

describe("user patterns (redaction.patterns)", () => {
  test("hide what they match, marked with their id", () => {
    const r = createRedactor({ patterns: [{ id: "internal-token", regex: "itk_[A-Za-z0-9]{32}" }] })
    const token = "itk_" + "aB3".repeat(10) + "xy"
    expect(r.text(`calling billing with ${token} now`)).toBe("calling billing with [REDACTED:internal-token] now")
    expect(r.value({ header: `X-Internal: ${token}` })).toEqual({ header: "X-Internal: [REDACTED:internal-token]" })
  })

  test("a group named secret limits what is hidden", () => {
    const r = createRedactor({ patterns: [{ id: "employee", regex: "employee=(?<secret>E\\d{6})" }] })
    expect(r.text("lookup employee=E123456 ok")).toBe("lookup employee=[REDACTED:employee] ok")
  })

  test("(?i) at the start makes a pattern ignore case", () => {
    const r = createRedactor({ patterns: [{ id: "vendor", regex: "(?i)vnd-[a-z]{12}" }] })
    expect(r.text("VND-ABCDEFGHIJKL and vnd-abcdefghijkl")).toBe("[REDACTED:vendor] and [REDACTED:vendor]")
  })

  test("patterns without a literal start work too", () => {
    const r = createRedactor({ patterns: [{ id: "ticket-pin", regex: "\\b\\d{4}-\\d{4}-\\d{4}\\b" }] })
    expect(r.text("pin 1234-5678-9012 issued")).toBe("pin [REDACTED:ticket-pin] issued")
  })

  test("a user pattern is tried before the built-in ones and names the marker", () => {
    const r = createRedactor({ patterns: [{ id: "our-github", regex: "ghp_[A-Za-z0-9]{36}" }] })
    expect(r.text("ghp_" + "k".repeat(36))).toBe("[REDACTED:our-github]")
  })

  test("a pattern that could backtrack catastrophically is refused with a message naming it", () => {
    let error: unknown
    try {
      createRedactor({ patterns: [{ id: "greedy", regex: "(a+)+$" }] })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(RedactionPatternError)
    expect((error as Error).message).toContain('pattern "greedy"')
    expect((error as Error).message).toContain("nested quantifier")
    expect((error as RedactionPatternError).id).toBe("greedy")
  })

  test("invalid and empty-matching patterns are refused, even with redaction off", () => {
    expect(() => createRedactor({ patterns: [{ id: "broken", regex: "([a-z]" }] })).toThrow(/broken.*invalid regular expression/)
    expect(() => createRedactor({ enabled: false, patterns: [{ id: "empty", regex: "x*" }] })).toThrow(/matches the empty string/)
  })
})

describe("checkRegexSafety", () => {
  test("every built-in rule passes the check user patterns must pass", () => {
    for (const rule of [...TOKEN_RULES, ...CONTEXT_RULES, ...CONFIG_RULES, ...secretArgumentRules(), ...homeRules()]) expect([rule.id, checkRegexSafety(rule.re.source)]).toEqual([rule.id, undefined])
  })

  test.each([
    ["(a+)+", "nested quantifier"],
    ["(\\w+\\s?)+$", "nested quantifier"],
    ["(.*,)+x", "nested quantifier"],
    ["(a*)*", "nested quantifier"],
    ["(a{1,10}){1,10}", "nested quantifier"],
    ["((ab+))*c", "nested quantifier"],
    ["(a|a)*b", "ambiguous alternation"],
    ["(\\d|\\w)+!", "ambiguous alternation"],
    ["(?i)([A-Z]|[a-z])+", "ambiguous alternation"],
    ["[unclosed", "invalid regular expression"],
  ])("refuses %s (%s)", (regex, problem) => {
    expect(checkRegexSafety(regex)).toContain(problem)
  })

  test.each([
    "itk_[A-Za-z0-9]{32}",
    "(?:[a-z0-9]+\\.)+[a-z]{2,}",
    "(?:\\.[a-z]+)+",
    "(?:foo|bar)+",
    "(?:[A-Z]|[a-z])+",
    "(?:a{2})+",
    "(?:x*)?",
    "(?<=key=)[A-Za-z0-9]{20}",
    '"(?:[^"\\\\]|\\\\.)*"',
    "(?:-[a-z][ \\t]+){0,4}-p",
  ])("accepts %s", (regex) => {
    expect(checkRegexSafety(regex)).toBeUndefined()
  })

  test("a refused pattern really is slow, an accepted rewrite is not", () => {
    const input = "a".repeat(24) + "!"
    const t0 = performance.now()
    new RegExp("^(a+)+$").test(input)
    const slow = performance.now() - t0
    const t1 = performance.now()
    new RegExp("^a+$").test(input)
    const fast = performance.now() - t1
    expect(checkRegexSafety("^(a+)+$")).toBeDefined()
    expect(checkRegexSafety("^a+$")).toBeUndefined()
    expect(slow).toBeGreaterThan(fast * 10)
  })
})

describe("redaction turned off", () => {
  test("returns every input unchanged and says so", () => {
    const r = createRedactor({ enabled: false, env: { GITHUB_TOKEN: "ghp_" + "x".repeat(36) }, home: "/home/alice" })
    const line = "password=hunter2 ghp_" + "x".repeat(36) + " /home/alice/x"
    const args = { api_key: "k-123456789", cwd: "/home/alice" }
    expect(r.enabled).toBe(false)
    expect(r.text(line)).toBe(line)
    expect(r.value(args)).toEqual({ api_key: "k-123456789", cwd: "/home/alice" })
    expect(createRedactor().enabled).toBe(true)
  })
})
