import { describe, expect, test } from "bun:test"
import { canonicalArgs, jaccard, normaliseError, outputHash, shortHash, wordSet } from "../../core/guards/similarity.ts"

describe("canonical args", () => {
  test("key order, nesting order and whitespace do not matter; values do", () => {
    expect(canonicalArgs({ b: 1, a: { y: [1, 2], x: "p  q" } })).toBe(canonicalArgs({ a: { x: "p q", y: [1, 2] }, b: 1 }))
    expect(canonicalArgs('{"command":"ls   -la"}')).toBe(canonicalArgs({ command: "ls -la" }))
    expect(canonicalArgs({ a: [1, 2] })).not.toBe(canonicalArgs({ a: [2, 1] }))
    expect(canonicalArgs({ a: undefined, b: 1 })).toBe(canonicalArgs({ b: 1 }))
    expect(canonicalArgs("not json {")).toBe('"not json {"')
  })
})

describe("error normalisation", () => {
  test("numbers, paths and quoted strings are masked", () => {
    expect(normaliseError("ENOENT: no such file, open '/home/me/x.ts'")).toBe('enoent: no such file, open "STR"')
    expect(normaliseError("Error at src/foo/bar.ts:12:5: expected 3 got 4")).toBe("error at /PATH :N:N: expected N got N")
    expect(normaliseError("cannot find ./lib/util.js (code 0x1F)")).toBe("cannot find /PATH (code N)")
  })

  test("similar errors score high, different ones low", () => {
    const words = (text: string) => wordSet(normaliseError(text))
    const a = words("TS2322: Type 'string' is not assignable to type 'number' at src/a.ts:1:2")
    const b = words("TS2322: Type 'boolean' is not assignable to type 'Date' at lib/b.ts:30:9")
    const c = words("ls: cannot access 'nope': No such file or directory")
    expect(jaccard(a, b)).toBe(1)
    expect(jaccard(a, c)).toBeLessThan(0.2)
    expect(jaccard(new Set(), new Set())).toBe(1)
  })
})

describe("hashes", () => {
  test("short, stable and blind to numbers in outputs", () => {
    expect(shortHash("abc")).toBe("ba7816bf8f01cfea") // SHA-256 prefix: the same in every version
    expect(outputHash("3 pass [12ms]")).toBe(outputHash("3 pass [9ms]"))
    expect(outputHash("3 pass")).not.toBe(outputHash("3 fail"))
  })
})
