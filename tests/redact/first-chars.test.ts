import { describe, expect, test } from "bun:test"
import { builtinRules } from "../../core/redact/builtin.ts"
import { firstChars } from "../../core/redact/first-chars.ts"
import { followOf } from "../../core/redact/passes.ts"
import { CORPUS, NEAR_MISSES } from "./corpus.ts"
import { fuzzText, seeded } from "./fuzz.ts"

const chars = (set: Uint8Array | undefined) =>
  set === undefined ? undefined : [...set].flatMap((x, i) => (x ? [i === 128 ? "<non-ASCII>" : String.fromCharCode(i)] : [])).join("")

/** Wherever `source` matches in `texts`, its set holds the character there. */
function holds(source: string, ignoreCase: boolean, texts: readonly string[]): number {
  const set = firstChars(source, ignoreCase)
  const re = new RegExp(source, ignoreCase ? "iy" : "y")
  let matched = 0
  for (const text of texts) {
    for (let p = 0; p <= text.length; p++) {
      re.lastIndex = p
      if (!re.test(text)) continue
      matched++
      if (set === undefined) continue
      const c = text.charCodeAt(p)
      expect({ source, at: text.slice(p, p + 12), held: p < text.length && set[c < 128 ? c : 128] === 1 }).toEqual({ source, at: text.slice(p, p + 12), held: true })
    }
  }
  return matched
}

describe("the characters a follow check can begin with", () => {
  test("small patterns: lookaheads count, other assertions are skipped, an empty or unknown match gives no set", () => {
    expect(chars(firstChars("a?b", false))).toBe("ab")
    expect(chars(firstChars("(?=x)", false))).toBe("x")
    expect(chars(firstChars("(?:(?=[ \\t]{0,4}=))", true))).toBe("\t =")
    expect(chars(firstChars("(?=s?(?:\\\\{0,3}[\"'])?[:=])", true))).toBe("\"':=S\\s")
    expect(chars(firstChars("\\bfoo", false))).toBe("f")
    expect(chars(firstChars("(?!a)b|c", false))).toBe("bc")
    expect(chars(firstChars("[^\\s:]", false))).toContain("<non-ASCII>")
    expect(chars(firstChars("[^\\s:]", false))).not.toContain(":")
    expect(chars(firstChars("[a-c]{2}", true))).toBe("ABCabc")
    for (const unknown of ["x*", "(?=a)?", "(a)\\1", "(?<=x)", "a|", "\\u0041", "[\\w-z]", "(?=a|$)", "a{", "(?=x", "[a"]) {
      expect({ unknown, set: firstChars(unknown, false) }).toEqual({ unknown, set: undefined })
    }
  })

  test("every built-in follow, wherever it holds in corpus lines, near misses and fuzzed texts, holds a character of its set", () => {
    const rules = builtinRules()
    const texts = [
      ...CORPUS.map((c) => c.line),
      ...NEAR_MISSES,
      ...Array.from({ length: 60 }, (_, i) => fuzzText(rules, i + 9000, { wide: true, recase: true })),
      // what the checks look for, in every spelling: separators after optional quotes and escapes
      ...[" = x", '\\" : y', "'\t=z", "word: 1", "WD=2", "s : 3", "PHRASE\t> 4", "-upload", "-9", "x".repeat(30) + ".abcdef.", "a:b@", "0123456789abcdef".repeat(2)],
    ]
    const sources = new Set<string>()
    let matched = 0
    for (const rule of rules) {
      if (!rule.follow) continue
      for (const source of [rule.follow, followOf([rule])]) {
        if (sources.has(source + rule.re.ignoreCase)) continue
        sources.add(source + rule.re.ignoreCase)
        expect(firstChars(source, rule.re.ignoreCase) === undefined && !source.includes("(?<=")).toBe(false)
        matched += holds(source, rule.re.ignoreCase, texts)
      }
    }
    expect(matched).toBeGreaterThan(1000)
  })

  test("random patterns: wherever one matches a random text, its set holds the character there", () => {
    const rand = seeded(3)
    const atoms = ["a", "b", "A", "\\s", "\\w", "\\d", "[^ab]", "[a-c]", "[\\s:]", ".", "é", "\\.", "\\b", "^", "(?=a)", "(?!b)", "(?<=a)", "(?:a|b)", "(?:)", "(?=[ab]?c)"]
    const quant = ["", "", "?", "*", "+", "{0,2}", "{2}", "{1,3}?"]
    const alphabet = ["a", "b", "c", "A", "B", " ", ":", "é", "\n", "1", "."]
    const texts = Array.from({ length: 30 }, () => Array.from({ length: 60 }, () => alphabet[rand(alphabet.length)]).join(""))
    let known = 0
    for (let n = 0; n < 400; n++) {
      const seq = () => Array.from({ length: 1 + rand(3) }, () => atoms[rand(atoms.length)]! + quant[rand(quant.length)]!).join("")
      const source = rand(3) === 0 ? `${seq()}|${seq()}` : seq()
      let valid = true
      try {
        new RegExp(source)
      } catch {
        valid = false
      }
      if (!valid) continue
      if (firstChars(source, n % 2 === 0) !== undefined) known++
      holds(source, n % 2 === 0, texts)
    }
    expect(known).toBeGreaterThan(50)
  })
})
