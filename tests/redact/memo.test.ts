// A redactor remembers what it made of short strings (a run redacts the same keys and values at every
// step): what it gives for a string seen before must be what a scan gives, secrets hidden alike.
import { describe, expect, test } from "bun:test"
import { createRedactor } from "../../core/redact/index.ts"
import { builtinRules } from "../../core/redact/builtin.ts"
import { CORPUS, NEAR_MISSES, leaked } from "./corpus.ts"
import { fuzzText } from "./fuzz.ts"

const options = { env: { DEPLOY_TOKEN: "tok-3f9a8b7c6d5e4f3a2b1c", PATH: "/usr/bin" }, home: "/home/ada" }

// short texts (the memo's size): corpus lines, near misses, fuzzed pieces, and ones naming the env
// value and the home folder
const texts = [
  ...CORPUS.map((c) => c.line),
  ...NEAR_MISSES,
  ...Array.from({ length: 300 }, (_, i) => fuzzText(builtinRules(), 7_000 + i, { parts: 1 + (i % 6), wide: i % 3 === 0, recase: i % 2 === 0 })),
  "deploy with tok-3f9a8b7c6d5e4f3a2b1c now", "/home/ada/.ssh/id_ed25519", "allow", "", "sandboxed",
].filter((t) => t.length <= 512)

describe("redacting a string again", () => {
  test("gives what a fresh redactor's scan gives, for every text, every time", () => {
    const warm = createRedactor(options)
    const first = texts.map((t) => warm.text(t))
    for (let round = 0; round < 3; round++) {
      texts.forEach((t, i) => expect(warm.text(t)).toBe(first[i]!))
    }
    // each on a redactor that has seen nothing before
    texts.forEach((t, i) => expect(createRedactor(options).text(t)).toBe(first[i]!))
    expect(texts.length).toBeGreaterThan(350)
  })

  test("a secret stays hidden when its line is redacted again", () => {
    const warm = createRedactor(options)
    for (let round = 0; round < 2; round++) {
      for (const c of CORPUS) expect(leaked(warm.text(c.line), c.secret)).toBe(false)
      expect(warm.text("deploy with tok-3f9a8b7c6d5e4f3a2b1c now")).toBe("deploy with [REDACTED:env:DEPLOY_TOKEN] now")
    }
  })

  test("past the memo's size (it is emptied and filled again) the results stay the same", () => {
    const warm = createRedactor(options)
    const first = texts.map((t) => warm.text(t))
    for (let i = 0; i < 5_000; i++) warm.text(`filler ${i}`)
    texts.forEach((t, i) => expect(warm.text(t)).toBe(first[i]!))
  })

  test("structured values with the same keys again: sensitive keys masked every time", () => {
    const warm = createRedactor(options)
    const value = { apiKey: "k-123", user_id: "u-1234567890abcdef", step: "s1", nested: { Authorization: "Bearer abc", command: "echo hi" } }
    const first = warm.value(value)
    expect(first).toEqual({ apiKey: "***", user_id: "u-12***cdef", step: "s1", nested: { Authorization: "***", command: "echo hi" } })
    for (let round = 0; round < 3; round++) expect(warm.value(value)).toEqual(first)
    expect(createRedactor(options).value(value)).toEqual(first)
  })
})
