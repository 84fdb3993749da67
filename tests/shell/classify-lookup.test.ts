// The classifier finds a program's table entries on first use instead of building the whole table by
// program at start-up: for every name the table or the assessors know, their case variants, names close to
// them and random ones, the lookup gives exactly what the table built up front gave (same entries, same
// order, the same compiled objects for every program of an entry, the same "looks past the name").
import { describe, expect, test } from "bun:test"
import { tableEntries } from "../../core/shell/classify.ts"
import { TABLE, type Entry } from "../../core/shell/table.ts"
import { ASSESSORS } from "../../core/shell/assess.ts"
import { NAME_PROGRAMS } from "../../core/shell/builtins.ts"

// the way it was built before: every entry under each of its programs, in table order
function upFront(): { byProgram: Map<string, Entry[]>; looksAtArgs: Set<string> } {
  const byProgram = new Map<string, Entry[]>()
  for (const e of TABLE) for (const p of e.programs) byProgram.set(p, [...(byProgram.get(p) ?? []), e])
  const own = new Set([...NAME_PROGRAMS, "make", "ed", "ex"])
  const looksAtArgs = new Set([...TABLE.filter((e) => e.sub || e.when).flatMap((e) => e.programs), ...[...ASSESSORS.keys()].filter((k) => !own.has(k))])
  return { byProgram, looksAtArgs }
}

function random(seed: number): (n: number) => number {
  return (n) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    return seed % n
  }
}

const known = [...new Set([...TABLE.flatMap((e) => e.programs), ...ASSESSORS.keys(), ...NAME_PROGRAMS])]

function names(): string[] {
  const pick = random(20261127)
  const out = [...known, "", "make", "ed", "ex", "constructor", "__proto__", "toString", "hasOwnProperty"]
  for (const name of known) {
    out.push(name.toUpperCase(), name[0]!.toUpperCase() + name.slice(1), `${name}x`, name.slice(0, -1), ` ${name}`, `/usr/bin/${name}`)
  }
  const chars = "abcdefghijklmnopqrstuvwxyz-_.0123456789+/ ~ÄéK"
  for (let i = 0; i < 3000; i++) {
    let s = ""
    for (let n = 1 + pick(8); n > 0; n--) s += chars[pick(chars.length)]
    out.push(s)
  }
  return out
}

describe("classifier table lookup", () => {
  const before = upFront()

  test("every known, near and random program name finds the entries the up-front table had", () => {
    const all = names()
    expect(all.length).toBeGreaterThan(known.length * 5)
    let withEntries = 0
    for (const name of all) {
      const { entries, looksAtArgs } = tableEntries(name)
      const expected = before.byProgram.get(name) ?? []
      expect(entries.map((c) => c.finding)).toEqual(expected.map((e) => ({ name: e.name, level: e.level, reason: e.reason })))
      expect(entries.map((c) => c.when)).toEqual(expected.map((e) => e.when))
      expect(entries.map((c) => (c.sub ? [...c.sub] : undefined))).toEqual(expected.map((e) => (e.sub ? [...new Set(e.sub)] : undefined)))
      expect(looksAtArgs).toBe(before.looksAtArgs.has(name))
      if (entries.length) withEntries++
    }
    expect(withEntries).toBeGreaterThan(100)
  })

  test("an entry is compiled once: all its programs share one object, and asking again gives the same one", () => {
    for (const e of TABLE) {
      if (e.programs.length < 2) continue
      const [a, b] = [tableEntries(e.programs[0]!).entries, tableEntries(e.programs[1]!).entries]
      const shared = a.filter((c) => b.includes(c))
      expect(shared.length).toBeGreaterThan(0)
      expect(Object.isFrozen(shared[0]!.finding)).toBe(true)
      const again = tableEntries(e.programs[0]!).entries
      expect(again.length).toBe(a.length)
      expect(again.every((c, k) => c === a[k])).toBe(true)
    }
  })
})
