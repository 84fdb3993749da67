// The combined anchor regexes: one per case mode, all anchors as a prefix tree behind a lookahead of
// their first two characters. The scanner's reference way to find anchors (and its way for literals
// the automaton does not take: an empty one, or a non-ASCII one ignoring case). Pure.
import { escapeRegex, type Rule } from "./spans.ts"

export interface Pass {
  re: RegExp
  ignoreCase: boolean
  /** anchor (lower-cased when ignoring case) -> indexes into the anchored rules, its own and its prefixes' */
  rules: Map<string, number[]>
}

/** A pass as plain data: what a build-time macro can compute and inline (core/redact/builtin.ts). */
export interface PassData {
  source: string
  ignoreCase: boolean
  rules: [string, number[]][]
}

/** The passes of `rules`, as data, and a fingerprint of the rules they were computed from. */
export function passData(rules: readonly Rule[]): { fingerprint: string; passes: PassData[] } {
  return { fingerprint: rulesFingerprint(rules), passes: regexPasses(rules.filter((rule) => rule.anchors?.length)).map((p) => ({ source: p.re.source, ignoreCase: p.ignoreCase, rules: [...p.rules] })) }
}

/** Everything of the rules the passes are computed from (id, pattern, flags, anchors, follow), in order. */
export function rulesFingerprint(rules: readonly Rule[]): string {
  return Bun.hash(rules.map((r) => `${r.id}\0${r.re.source}\0${r.re.flags}\0${(r.anchors ?? []).join("\x01")}\0${r.follow ?? "\x02"}`).join("\n")).toString(36)
}

/** The passes of the anchored rules (`anchored[k]` has anchors), from `prebuilt` data when it was
 *  computed from exactly `rules` (building them costs ~5-10 ms). */
export function passesOf(anchored: readonly Rule[], rules: readonly Rule[], prebuilt?: { fingerprint: string; passes: PassData[] }): Pass[] {
  if (prebuilt && prebuilt.fingerprint === rulesFingerprint(rules)) {
    return prebuilt.passes.map((p) => ({ re: new RegExp(p.source, p.ignoreCase ? "gi" : "g"), ignoreCase: p.ignoreCase, rules: new Map(p.rules) }))
  }
  return regexPasses(anchored)
}

function regexPasses(anchored: readonly Rule[]): Pass[] {
  return [pass(anchored, false), pass(anchored, true)].filter((p) => p !== undefined)
}

function pass(anchored: readonly Rule[], ignoreCase: boolean): Pass | undefined {
  const rules = new Map<string, number[]>()
  anchored.forEach((rule, k) => {
    if (rule.re.ignoreCase !== ignoreCase) return
    for (const anchor of rule.anchors!) {
      const key = ignoreCase ? anchor.toLowerCase() : anchor
      const list = rules.get(key) ?? []
      if (!list.includes(k)) list.push(k)
      rules.set(key, list)
    }
  })
  if (rules.size === 0) return undefined
  const keys = [...rules.keys()]
  // a follow is written for the end of its own anchor; rules reached through a shorter anchor get none
  const follow = new Map(keys.map((key) => [key, followOf(rules.get(key)!.map((k) => anchored[k]!))]))
  // the scan reports the longest anchor at a spot; the rules of shorter ones found there run too
  // (prefixes are looked up by length, not by comparing every pair: this runs at every start)
  const hasShorter = new Set<string>()
  for (const key of keys) {
    const own = rules.get(key)!
    for (let len = 1; len < key.length; len++) {
      const shorter = rules.get(key.slice(0, len))
      if (!shorter) continue
      hasShorter.add(key)
      for (const k of shorter) if (!own.includes(k)) own.push(k)
    }
    own.sort((x, y) => x - y)
  }
  const alternation = trie(keys.map((key) => [key, hasShorter.has(key) ? "" : follow.get(key)!]))
  return { re: new RegExp(gate(keys) + alternation, ignoreCase ? "gi" : "g"), ignoreCase, rules }
}

/** A lookahead of the characters anchors start with, first and second (`(?=[AGs ...][KOk-...])`): the
 *  regex engine rejects most places of a text with two class tests instead of entering the trie, whose
 *  first characters include the space and most lower-case letters (~35% more throughput on logs). It
 *  only restates what every alternative of the trie needs, so it finds exactly the same anchors. */
function gate(keys: readonly string[]): string {
  if (keys.some((k) => k.length === 0)) return ""
  const cls = (chars: Iterable<string>) => `[${[...new Set(chars)].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")}]`
  const first = cls(keys.map((k) => k[0]!))
  return keys.some((k) => k.length === 1) ? `(?=${first})` : `(?=${first}${cls(keys.map((k) => k[1]!))})`
}

interface Node {
  next: Map<string, Node>
  /** a key ends here: what must follow it */
  end?: string
}

/** The anchors as a prefix tree (`m(?:ongo(?:sh|dump|(?=...))|ysql...)`): the regex engine gives up on
 *  a branch at its first character instead of trying every anchor at every spot. Longer keys come
 *  before a key that is their prefix, so the longest anchor at a spot is the one reported. */
function trie(entries: readonly [string, string][]): string {
  const root: Node = { next: new Map() }
  for (const [key, tail] of entries) {
    let node = root
    for (const ch of key) {
      let child = node.next.get(ch)
      if (!child) node.next.set(ch, (child = { next: new Map() }))
      node = child
    }
    node.end = tail
  }
  return render(root)
}

function render(node: Node): string {
  const alts = [...node.next].map(([ch, child]) => escapeRegex(ch) + render(child))
  if (node.end !== undefined) alts.push(node.end)
  return alts.length === 1 ? alts[0]! : `(?:${alts.join("|")})`
}

/** The checks after an anchor: any one of its rules' `follow` (none when a rule has none). */
export function followOf(rules: readonly Rule[]): string {
  if (rules.some((r) => r.follow === undefined)) return ""
  const follows = [...new Set(rules.map((r) => r.follow!))]
  return follows.length === 1 ? `(?:${follows[0]})` : `(?:${follows.map((f) => `(?:${f})`).join("|")})`
}
