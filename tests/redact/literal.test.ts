import { describe, expect, test } from "bun:test"
import { builtinRules } from "../../core/redact/builtin.ts"
import { literalHits, literalIndex } from "../../core/redact/literal.ts"
import type { Rule } from "../../core/redact/spans.ts"
import { CORPUS, NEAR_MISSES } from "./corpus.ts"
import { fuzzText, seeded } from "./fuzz.ts"

/** The anchors of one case mode as the scanner keys them: each key once, with its rules ascending. */
function keysOf(rules: readonly Rule[], ignoreCase: boolean): { keys: string[]; rules: number[][] } {
  const keys: string[] = []
  const lists: number[][] = []
  rules.forEach((rule, k) => {
    if (rule.re.ignoreCase !== ignoreCase) return
    for (const anchor of rule.anchors ?? []) {
      const key = ignoreCase ? anchor.toLowerCase() : anchor
      const i = keys.indexOf(key)
      if (i === -1) (keys.push(key), lists.push([k]))
      else if (lists[i]!.at(-1) !== k) lists[i]!.push(k)
    }
  })
  return { keys, rules: lists }
}

/** The reference (the scanner's way before the index): one `indexOf` walk per key. */
function byIndexOf(keys: readonly string[], rules: readonly number[][], hay: string): [number, number[]][] {
  const at = new Map<number, Set<number>>()
  keys.forEach((key, i) => {
    // (an empty key is found at every place up to the end: indexOf past the end answers the end again)
    for (let j = hay.indexOf(key); j !== -1 && j <= hay.length; j = j < hay.length ? hay.indexOf(key, j + 1) : -1) {
      const set = at.get(j) ?? new Set<number>()
      for (const k of rules[i]!) set.add(k)
      at.set(j, set)
    }
  })
  return [...at].sort((x, y) => x[0] - y[0]).map(([i, set]) => [i, [...set].sort((x, y) => x - y)])
}

function same(keys: readonly string[], rules: number[][], texts: readonly string[]): number {
  const index = literalIndex(keys)
  let hits = 0
  for (const hay of texts) {
    const want = byIndexOf(keys, rules, hay)
    hits += want.length
    expect(literalHits(index, keys, rules, hay).map(([at, ks]) => [at, [...ks]])).toEqual(want)
  }
  return hits
}

const BUILTIN = builtinRules()

/** Corpus lines, near misses, windows of them, and fuzz texts with non-ASCII characters and case changes. */
function texts(): string[] {
  const base = [
    ...CORPUS.map((c) => c.line),
    ...NEAR_MISSES,
    ...Array.from({ length: 150 }, (_, i) => fuzzText(BUILTIN, i + 1, { parts: 12 })),
    ...Array.from({ length: 150 }, (_, i) => fuzzText(BUILTIN, i + 500, { parts: 12, wide: true, recase: true })),
  ]
  const out = ["", " ", "a", ...base]
  for (const t of base) for (let from = 0; from < t.length; from += 11) out.push(t.slice(from, from + 40))
  return out
}

describe("short-text anchor search: the index finds what an indexOf per anchor finds", () => {
  const all = texts()

  test("the built-in rules' anchors, case-sensitive and case-folded, over corpus, near misses and fuzz", () => {
    const exact = keysOf(BUILTIN, false)
    const folded = keysOf(BUILTIN, true)
    expect(exact.keys.length).toBeGreaterThan(100)
    expect(same(exact.keys, exact.rules, all)).toBeGreaterThan(5000)
    // the case-folded mode searches the text with ASCII letters lowered (what the scanner passes)
    const lowered = all.map((t) => t.replace(/[A-Z]+/g, (s) => s.toLowerCase()))
    expect(same(folded.keys, folded.rules, lowered)).toBeGreaterThan(100)
  })

  test("keys that are empty, one character, non-ASCII, astral or prefixes of each other", () => {
    const keys = ["", "a", "ab", "abc", "b", "é", "éa", "😀", "\ud83d", "日本", "\n", "\\n", "\\\\", "  "]
    const rules = keys.map((_, k) => (k % 3 === 0 ? [k] : [k, k + 1, 40 + (k % 4)]))
    const rand = seeded(7)
    const alphabet = ["a", "b", "c", "é", "😀", "日", "本", "\n", "\\", " ", "n", "İ"]
    const random = Array.from({ length: 400 }, () => Array.from({ length: rand(30) }, () => alphabet[rand(alphabet.length)]).join(""))
    expect(same(keys, rules, ["", ...random, ...all.slice(0, 300)])).toBeGreaterThan(400)
  })

  test("values of secrets as anchors (the known-value rule): long keys, shared starts", () => {
    const keys = ["hunter2hunter2", "hunter2hunter2%20", "hunter3", "sk-live-0123456789", "sk-test"]
    const rules = keys.map((_, k) => [k])
    const rand = seeded(11)
    const parts = [...keys, "hunter", "sk-", "x", " ", "\"", "2"]
    const random = Array.from({ length: 300 }, () => Array.from({ length: rand(8) }, () => parts[rand(parts.length)]).join(""))
    expect(same(keys, rules, random)).toBeGreaterThan(300)
  })
})
