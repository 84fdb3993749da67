import { describe, expect, test } from "bun:test"
import { advance, buildAutomaton, findAll, longest, startWalk } from "../../core/redact/automaton.ts"
import { builtinRules } from "../../core/redact/builtin.ts"
import { knownValueRule } from "../../core/redact/known.ts"
import { createScanner, type Scanner } from "../../core/redact/scanner.ts"
import { mergeLists, render, type Rule, type Span } from "../../core/redact/spans.ts"
import { CORPUS, NEAR_MISSES } from "./corpus.ts"
import { fuzzText, seeded } from "./fuzz.ts"

function spans(scanner: Scanner, text: string): Span[] {
  const lists: Span[][] = []
  scanner.scan(text, lists)
  return mergeLists(lists)
}

/** Every (start, key) by `indexOf`, sorted by start: what the automaton must report. */
function naive(keys: readonly string[], ignoreCase: boolean, text: string): [number, number][] {
  // folding ASCII letters only keeps every index (a non-unicode /i regex folds no other character to them)
  const hay = ignoreCase ? text.replace(/[A-Z]/g, (c) => c.toLowerCase()) : text
  const out: [number, number][] = []
  keys.forEach((key, k) => {
    for (let i = hay.indexOf(key); i !== -1; i = hay.indexOf(key, i + 1)) out.push([i, k])
  })
  return out.sort((a, b) => a[0] - b[0] || a[1] - b[1])
}

describe("the anchor automaton", () => {
  test("reports every occurrence of every literal, overlapping and nested ones too, in order of start", () => {
    const rand = seeded(7)
    const alphabet = ["a", "b", "A", "B", "-", " ", "é", "K", "\u212a", "k", "ſ", "s", "S", "😀"]
    for (let round = 0; round < 300; round++) {
      const pick = (n: number) => Array.from({ length: 1 + rand(n) }, () => alphabet[rand(alphabet.length)]!).join("")
      const cs = [...new Set(Array.from({ length: 1 + rand(12) }, () => pick(5)))]
      const ci = [...new Set(Array.from({ length: 1 + rand(8) }, () => pick(5).replace(/[^\x00-\x7f]/g, "x").toLowerCase()))]
      const text = pick(400)
      const found = findAll(buildAutomaton([{ keys: cs, ignoreCase: false }, { keys: ci, ignoreCase: true }]), text)
      for (const [i, [keys, ignoreCase]] of ([[cs, false], [ci, true]] as const).entries()) {
        const got = found[i]!.at.map((at, j): [number, number] => [at, found[i]!.key[j]!])
        // sorted by start already; the order of literals starting at one place is free
        expect(got.map(([at]) => at)).toEqual([...got.map(([at]) => at)].sort((a, b) => a - b))
        expect([...got].sort((a, b) => a[0] - b[0] || a[1] - b[1])).toEqual(naive(keys, ignoreCase, text))
      }
    }
  })

  test("walked in pieces: what starts before a piece's end less the longest literal is all found by then", () => {
    const rand = seeded(29)
    const alphabet = ["a", "b", "A", " ", "é"]
    for (let round = 0; round < 100; round++) {
      const pick = (n: number) => Array.from({ length: 1 + rand(n) }, () => alphabet[rand(alphabet.length)]!).join("")
      const keys = [...new Set(Array.from({ length: 1 + rand(8) }, () => pick(6)))]
      const text = pick(500)
      const a = buildAutomaton([{ keys, ignoreCase: false }])
      const want = naive(keys, false, text)
      const walk = startWalk(a)
      for (let from = 0; from < text.length; ) {
        const to = Math.min(text.length, from + 1 + rand(40))
        advance(a, walk, text, from, to)
        const done = to - longest(a) + 1
        const found = walk.found[0]!.at.map((at, j): [number, number] => [at, walk.found[0]!.key[j]!]).filter(([at]) => at < done)
        expect(found.sort((x, y) => x[0] - y[0] || x[1] - y[1])).toEqual(want.filter(([at]) => at < done))
        from = to
      }
      expect(walk.found[0]!.at.length).toBe(want.length)
    }
  })

  test("a literal with a set of characters to come after it is reported only where one of them does", () => {
    const rand = seeded(17)
    const alphabet = ["a", "b", "=", " ", "é", "A"]
    for (let round = 0; round < 200; round++) {
      const pick = (n: number) => Array.from({ length: 1 + rand(n) }, () => alphabet[rand(alphabet.length)]!).join("")
      const keys = [...new Set(Array.from({ length: 1 + rand(6) }, () => pick(3)))]
      const after = keys.map(() => {
        if (rand(3) === 0) return undefined
        const set = new Uint8Array(129)
        for (const c of [61, 32, 97, 128]) if (rand(2) === 0) set[c] = 1
        return set
      })
      const text = pick(300)
      const [found] = findAll(buildAutomaton([{ keys, ignoreCase: false, after }]), text)
      const want = naive(keys, false, text).filter(([at, k]) => {
        const set = after[k]
        const end = at + keys[k]!.length
        const c = text.charCodeAt(end)
        return set === undefined || (end < text.length && set[c < 128 ? c : 128] === 1)
      })
      expect(found!.at.map((at, j): [number, number] => [at, found!.key[j]!]).sort((a, b) => a[0] - b[0] || a[1] - b[1])).toEqual(want)
    }
  })

  test("a single mode works alone; a text without literals reports nothing", () => {
    const a = buildAutomaton([{ keys: ["he", "she", "his", "hers"], ignoreCase: false }])
    const [found] = findAll(a, "ushers and his")
    expect(found!.at.map((at, j) => [at, found!.key[j]])).toEqual(naive(["he", "she", "his", "hers"], false, "ushers and his"))
    expect(findAll(a, "nothing to see")[0]).toEqual({ at: [], key: [] })
  })
})

describe("long texts: anchors found by the automaton", () => {
  const BUILTIN = builtinRules()
  const byAutomaton = createScanner(BUILTIN, 1_000_000, undefined, { literalBelow: 0, search: "automaton" })
  const byRegex = createScanner(BUILTIN, 1_000_000, undefined, { literalBelow: 0, search: "regex" })
  const byLiteral = createScanner(BUILTIN, 1_000_000, undefined, { literalBelow: Infinity })
  const lines = [...CORPUS.map((c) => c.line), ...NEAR_MISSES]
  const fuzzed = Array.from({ length: 150 }, (_, i) => fuzzText(BUILTIN, i + 5000, { wide: true, recase: true }))

  /** `literal`: also by indexOf (slow on long texts; it serves short ones) */
  function same(texts: Iterable<string>, literal = true): number {
    let found = 0
    for (const text of texts) {
      const want = spans(byRegex, text)
      found += want.length
      expect(spans(byAutomaton, text)).toEqual(want)
      if (literal) expect(spans(byLiteral, text)).toEqual(want)
    }
    return found
  }

  test("find exactly the spans of the combined regexes: corpus, near misses, fuzzed texts with non-ASCII and changed case", () => {
    const found = same([...lines, lines.join("\n"), JSON.stringify(lines), ...fuzzed])
    expect(found).toBeGreaterThan(CORPUS.length * 2)
  })

  test("and in windows of them cut at every 11th place", () => {
    const windows = function* () {
      for (const t of [...lines, ...fuzzed.slice(0, 40)]) for (let from = 0; from < t.length; from += 11) yield t.slice(from, from + 160)
    }
    expect(same(windows())).toBeGreaterThan(CORPUS.length)
  })

  test("and in very long lines (hundreds of KB without a newline, every secret far from the start)", () => {
    const long = fuzzed.join(" ").replace(/\n/g, " ")
    const wide = "✓ — 😀 ".repeat(20_000) + lines.join(" \u2028 ")
    const found = same([long, wide, lines.join(" ").repeat(8)], false)
    expect(found).toBeGreaterThan(CORPUS.length * 8)
    // what is rendered is the same, byte for byte
    expect(render(wide, spans(byAutomaton, wide))).toBe(render(wide, spans(byRegex, wide)))
  })

  test("read in small pieces (each piece's finds used before the next is read): the same spans", () => {
    for (const segment of [1, 7, 30, 113, 1000]) {
      const pieces = createScanner(BUILTIN, 1_000_000, undefined, { literalBelow: 0, search: "automaton", segment })
      for (const text of [...lines, lines.join("\n"), ...fuzzed.slice(0, 30)]) expect(spans(pieces, text)).toEqual(spans(byRegex, text))
    }
  })

  test("and in texts over a MB, read in 1 MB pieces: anchors across a piece's end, and texts made of anchors", () => {
    const joined = lines.join("\n")
    const MB = 1024 * 1024
    const across = [1, 2, 5, 9, 17, 27].map((back) => "a b ".repeat(MB / 4).slice(0, MB - back) + joined)
    const dense = ["NDNDNDNDNDNDNDNDNDND token password: x -p :// ", "ghp_", "eyJhbGciOi.", "home/", " login "].join("").repeat(40_000)
    expect(dense.length).toBeGreaterThan(2 * MB)
    expect(same([...across, dense, dense.slice(3) + joined], false)).toBeGreaterThan(CORPUS.length * 6)
  })

  test("the default way (indexOf for short texts, regexes first, the automaton once they have read 256 KB) finds the same before and after it switches", () => {
    const byDefault = createScanner(BUILTIN, 1_000_000)
    // 100 KB each: the first two go by the regexes, the rest by the automaton
    const long = fuzzed.join("\n").repeat(2)
    expect(long.length).toBeGreaterThan(100_000 + 6 * 97)
    const texts = Array.from({ length: 6 }, (_, i) => long.slice(i * 97, i * 97 + 100_000) + lines[i % lines.length])
    expect(same(texts, false)).toBeGreaterThan(0)
    // short texts before, between and after: by indexOf, then by the regexes, then by the automaton
    const short = lines.filter((l) => l.length < 512).slice(0, 60)
    for (const text of [...short, ...texts.flatMap((t) => [t, ...short])]) expect(spans(byDefault, text)).toEqual(spans(byRegex, text))
  })

  test("many known values (non-ASCII among them): the automaton finds what their regex finds", () => {
    const secrets = Array.from({ length: 40 }, (_, i) => `${["pässwörd", "日本語パスワード", "😀emoji", "plain", "sp ace\ttab"][i % 5]}-${i}-${"x".repeat(i % 7)}Zq9`)
    const rule = knownValueRule({ secrets })!
    expect(rule.anchors!.length).toBeGreaterThanOrEqual(64)
    const auto = createScanner([rule], 0, undefined, { literalBelow: 0, search: "automaton" })
    const regex = createScanner([rule], 0, undefined, { literalBelow: 0, search: "regex" })
    const rand = seeded(11)
    const texts = Array.from({ length: 60 }, () => {
      let t = ""
      for (let i = 0; i < 30; i++) {
        const s = secrets[rand(secrets.length)]!
        const form = [s, JSON.stringify(s).slice(1, -1), encodeURIComponent(s), s.toUpperCase(), s.slice(1)][rand(5)]!
        t += form + ["", " ", "\n", "✓"][rand(4)]
      }
      return t
    })
    let found = 0
    for (const t of texts) {
      const want = spans(regex, t)
      found += want.length
      expect(spans(auto, t)).toEqual(want)
    }
    expect(found).toBeGreaterThan(500)
  })

  test("an anchor the automaton does not take (non-ASCII, ignoring case) still finds what the whole-text scan finds", () => {
    const rule: Rule = { id: "apple", re: /äpfel-\d+/gi, anchors: ["äpfel-"] }
    const filler = Array.from({ length: 80 }, (_, i) => `line ${i} ÄPFEL-${i} Äpfel-x äpfel-${i * 7}`).join("\n")
    const anchored = createScanner([rule], 0, undefined, { literalBelow: 0 })
    const whole = createScanner([{ id: rule.id, re: rule.re }], 0)
    expect(spans(anchored, filler)).toEqual(spans(whole, filler))
    expect(spans(anchored, filler).length).toBe(160)
  })
})
