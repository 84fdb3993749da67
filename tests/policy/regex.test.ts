import { describe, expect, test } from "bun:test"
import { checkRegexSafety } from "../../core/policy/regex.ts"

describe("checkRegexSafety", () => {
  test("accepts ordinary regexes", () => {
    for (const re of ["curl\\b.*\\|\\s*(ba)?sh\\b", "^https://api\\.example\\.com/", "itk_[A-Za-z0-9]{32}", "(ab){3}", "[a+]+", "(?:x|y)+", "a{2}b*"]) {
      expect(checkRegexSafety(re)).toBeUndefined()
    }
  })

  test("refuses nested quantifiers", () => {
    for (const re of ["(a+)+", "(a*)*", "^(\\w+\\s?)*$", "(x{1,9})+", "((ab)*c)+", "(?:[a-z]+)*", "(\\d+)+$", "(a+){2,}"]) {
      expect(checkRegexSafety(re)).toContain("nested quantifier")
    }
  })

  test("refuses invalid syntax and back-references", () => {
    expect(checkRegexSafety("(unclosed")).toMatch(/^invalid regular expression/)
    expect(checkRegexSafety("(a)\\1")).toContain("back-references")
  })
})
