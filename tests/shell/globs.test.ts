// A glob segment matches a name the way bash could in any locale and with any shopt: the on-disk
// expansion (core/policy/globdisk.ts) and the sensitive-name check both read globs through it.
import { describe, expect, test } from "bun:test"
import { globCandidates, segmentRegex } from "../../core/shell/globs.ts"

describe("segmentRegex", () => {
  test("POSIX classes, equivalence classes and collating symbols are a character", () => {
    for (const [glob, name] of [[".[[:alpha:]]ws", ".aws"], ["[[:lower:]]hadow", "shadow"], [".[[=a=]]ws", ".aws"], [".[[.a.]]ws", ".aws"], ["[![:digit:]]ocs", "docs"]]) {
      expect([glob, segmentRegex(glob!).test(name!)]).toEqual([glob, true])
    }
  })

  test("] first in a class is a member, and a class still excludes what it excludes", () => {
    expect(segmentRegex(".[]a]ws").test(".aws")).toBe(true)
    expect(segmentRegex(".[!]x]ws").test(".aws")).toBe(true)
    expect(segmentRegex(".[!a]ws").test(".aws")).toBe(false)
    expect(segmentRegex("[\\d]x").test("1x")).toBe(false)
  })

  test("? is one character as bash counts it: a code point (UTF-8) or a byte (LANG=C)", () => {
    expect(segmentRegex("d?cs").test("d😀cs")).toBe(true)
    expect(segmentRegex("??cs").test("d😀cs")).toBe(true)
    expect(segmentRegex("d????cs").test("d😀cs")).toBe(true) // four bytes under LANG=C
    expect(segmentRegex("d[!x]cs").test("décs")).toBe(true)
    expect(segmentRegex("a?b").test("ab")).toBe(false)
  })

  test("* and ? match a leading dot (dotglob may be on)", () => {
    expect(segmentRegex("*pgpass").test(".pgpass")).toBe(true)
    expect(segmentRegex("?pgpass").test(".pgpass")).toBe(true)
  })
})

describe("globCandidates", () => {
  test("every credential location's name is a candidate", () => {
    expect(globCandidates("/h/*vault-token")).toContain("/h/.vault-token")
    expect(globCandidates("/h/*pgpass")).toContain("/h/.pgpass")
    expect(globCandidates("/h/.m2/*.xml")).toContain("/h/.m2/settings.xml")
    expect(globCandidates("/h/.[[:alpha:]]ws/credentials")).toContain("/h/.aws/credentials")
  })
})
