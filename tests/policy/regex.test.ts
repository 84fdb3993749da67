// Policy regexes share the redaction engine's safety check; these are the shapes policies must refuse.
import { describe, expect, test } from "bun:test"
import { checkRegexSafety, compileRegex } from "../../core/policy/regex.ts"

describe("policy regexes", () => {
  test("ordinary regexes are accepted", () => {
    for (const re of ["curl\\b.*\\|\\s*(ba)?sh\\b", "^https://api\\.example\\.com/", "itk_[A-Za-z0-9]{32}", "(ab){3}", "[a+]+", "(?:[a-z]+\\.)+com"]) {
      expect(checkRegexSafety(re)).toBeUndefined()
    }
  })

  test("nested quantifiers are refused", () => {
    for (const re of ["(a+)+", "(a*)*", "^(\\w+\\s?)*$", "(x{1,9})+", "(?:[a-z]+)*", "(\\d+)+$"]) {
      expect(checkRegexSafety(re) ?? "").toContain("nested quantifier")
    }
  })

  test("invalid syntax is refused", () => {
    expect(checkRegexSafety("(unclosed") ?? "").toMatch(/^invalid regular expression/)
  })

  test("a leading (?i) means case-insensitive", () => {
    expect(checkRegexSafety("(?i)^deploy")).toBeUndefined()
    expect(compileRegex("(?i)^deploy").test("DEPLOY prod")).toBe(true)
  })
})
