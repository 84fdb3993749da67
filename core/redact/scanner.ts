// Runs many rules over a text in few passes: one combined scan per case mode finds every anchor (a
// literal that each match of a rule starts with) and only the rules of an anchor found run, sticky at
// that spot. Rules without anchors scan the whole text. Pure.
import { addSpans, escapeRegex, type Rule, type Span } from "./spans.ts"

export interface Scanner {
  /** appends one sorted span list per rule that found something */
  scan(text: string, out: Span[][]): void
}

interface Anchored {
  rule: Rule
  rank: number
  /** the rule's regex, sticky: compiled when the rule first runs (a hook call runs few of ~260) */
  sticky?: RegExp
}

interface Pass {
  re: RegExp
  ignoreCase: boolean
  /** anchor (lower-cased when ignoring case) -> indexes into `anchored`, its own and its prefixes' */
  rules: Map<string, number[]>
}

/** Texts up to this length (ASCII only) find their anchors with `indexOf` instead of the combined
 *  regexes: a hook call redacts a few short strings, and compiling the combined regexes on their
 *  first use costs it ~2 ms. Both ways run the same rules at every anchor (see `literalHits`). */
const LITERAL_BELOW = 512
const ASCII = /^[\x00-\x7f]*$/

export interface ScannerOptions {
  /** texts shorter than this use the literal anchor search (tests set 0 or Infinity to pick a way) */
  literalBelow?: number
}

/** A pass as plain data: what a build-time macro can compute and inline (core/redact/builtin.ts). */
export interface PassData {
  source: string
  ignoreCase: boolean
  rules: [string, number[]][]
}

/** The passes of `rules`, as data, and a fingerprint of the rules they were computed from. */
export function passData(rules: readonly Rule[]): { fingerprint: string; passes: PassData[] } {
  const anchored = rules.filter((rule) => rule.anchors?.length).map((rule) => ({ rule, rank: 0 }))
  const built = [pass(anchored, false), pass(anchored, true)].filter((p) => p !== undefined)
  return { fingerprint: rulesFingerprint(rules), passes: built.map((p) => ({ source: p.re.source, ignoreCase: p.ignoreCase, rules: [...p.rules] })) }
}

/** Everything of the rules the passes are computed from (id, pattern, flags, anchors, follow), in order. */
export function rulesFingerprint(rules: readonly Rule[]): string {
  return Bun.hash(rules.map((r) => `${r.id}\0${r.re.source}\0${r.re.flags}\0${(r.anchors ?? []).join("\x01")}\0${r.follow ?? "\x02"}`).join("\n")).toString(36)
}

/** `prebuilt`: the passes computed at build time (`passData`), used only when their fingerprint is
 *  that of `rules` (building them is most of the scanner's cost, ~5-10 ms, paid on every hook call). */
export function createScanner(
  rules: readonly Rule[],
  rankBase = 0,
  prebuilt?: { fingerprint: string; passes: PassData[] },
  opts: ScannerOptions = {},
): Scanner {
  const literalBelow = opts.literalBelow ?? LITERAL_BELOW
  const anchored: Anchored[] = []
  const whole: { rule: Rule; rank: number }[] = []
  rules.forEach((rule, i) => {
    const rank = rankBase + i
    if (!rule.anchors?.length) return void whole.push({ rule, rank })
    anchored.push({ rule, rank })
  })
  const passes =
    prebuilt && prebuilt.fingerprint === rulesFingerprint(rules)
      ? prebuilt.passes.map((p) => ({ re: new RegExp(p.source, p.ignoreCase ? "gi" : "g"), ignoreCase: p.ignoreCase, rules: new Map(p.rules) }))
      : [pass(anchored, false), pass(anchored, true)].filter((p) => p !== undefined)
  const stickyOf = (a: Anchored): RegExp => (a.sticky ??= new RegExp(a.rule.re.source, a.rule.re.flags.replace("g", "") + "y"))

  return {
    scan(text, out) {
      // per rule that ran: its spans and where its last match ended (a Map: most texts touch few rules)
      const state = new Map<number, { spans: Span[]; next: number }>()
      const memo = new Map<unknown, unknown>()
      const run = (at: number, ks: readonly number[]) => {
        for (const k of ks) {
          const st = state.get(k)
          if (st && at < st.next) continue
          const a = anchored[k]!
          const sticky = stickyOf(a)
          sticky.lastIndex = at
          const m = sticky.exec(text)
          if (m === null || m[0].length === 0) continue
          const cur = st ?? { spans: [], next: 0 }
          if (!st) state.set(k, cur)
          cur.next = at + m[0].length
          addSpans(a.rule, m, text, a.rank, cur.spans, memo)
        }
      }
      const literal = text.length < literalBelow && ASCII.test(text)
      for (const p of passes) {
        if (literal) {
          for (const [at, ks] of literalHits(p, text)) run(at, ks)
          continue
        }
        const re = p.re
        re.lastIndex = 0
        let hit: RegExpExecArray | null
        while ((hit = re.exec(text)) !== null) {
          const at = hit.index
          run(at, p.rules.get(p.ignoreCase ? hit[0].toLowerCase() : hit[0]) ?? [])
          // anchors may overlap ("ops_eyJ" holds "eyJ"): look again one character on
          re.lastIndex = at + 1
        }
      }
      // rules that also match where a text starts, with no anchor there
      anchored.forEach((a, k) => {
        // a cheap necessary condition first: most texts start with no such literal (no regex compiled)
        if (!a.rule.atStart?.some((s) => text.startsWith(s))) return
        const sticky = stickyOf(a)
        sticky.lastIndex = 0
        const m = sticky.exec(text)
        if (m === null || m[0].length === 0) return
        const cur = state.get(k) ?? { spans: [], next: 0 }
        state.set(k, cur)
        addSpans(a.rule, m, text, a.rank, cur.spans, memo)
      })
      for (const [k, { spans }] of state) {
        if (spans.length > 0) out.push(unordered(anchored[k]!.rule) ? sortByStart(spans) : spans)
      }
      for (const { rule, rank } of whole) {
        const list = scanWhole(text, rule, rank, memo)
        if (list.length > 0) out.push(list)
      }
    },
  }
}

/** Every place an anchor of `p` starts in `text` (ASCII: lower-casing keeps every index), with the
 *  rules of every anchor found there, in rule order and by place. The combined regex reports only
 *  the longest anchor at a place whose follow check holds; a follow only restates what its rules
 *  need, so the extra rules run here find nothing the regex way would not (scanner tests compare). */
function literalHits(p: Pass, text: string): [number, number[]][] {
  const hay = p.ignoreCase ? text.toLowerCase() : text
  const at = new Map<number, Set<number>>()
  for (const [key, ks] of p.rules) {
    for (let i = hay.indexOf(key); i !== -1; i = hay.indexOf(key, i + 1)) {
      const set = at.get(i) ?? new Set<number>()
      for (const k of ks) set.add(k)
      at.set(i, set)
    }
  }
  return [...at].sort((x, y) => x[0] - y[0]).map(([i, set]) => [i, [...set].sort((x, y) => x - y)])
}

function pass(anchored: readonly Anchored[], ignoreCase: boolean): Pass | undefined {
  const rules = new Map<string, number[]>()
  anchored.forEach((a, k) => {
    if (a.rule.re.ignoreCase !== ignoreCase) return
    for (const anchor of a.rule.anchors!) {
      const key = ignoreCase ? anchor.toLowerCase() : anchor
      const list = rules.get(key) ?? []
      if (!list.includes(k)) list.push(k)
      rules.set(key, list)
    }
  })
  if (rules.size === 0) return undefined
  const keys = [...rules.keys()]
  // a follow is written for the end of its own anchor; rules reached through a shorter anchor get none
  const follow = new Map(keys.map((key) => [key, followOf(rules.get(key)!.map((k) => anchored[k]!.rule))]))
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
function followOf(rules: readonly Rule[]): string {
  if (rules.some((r) => r.follow === undefined)) return ""
  const follows = [...new Set(rules.map((r) => r.follow!))]
  return follows.length === 1 ? `(?:${follows[0]})` : `(?:${follows.map((f) => `(?:${f})`).join("|")})`
}

function scanWhole(text: string, rule: Rule, rank: number, memo: Map<unknown, unknown>): Span[] {
  const out: Span[] = []
  const re = rule.re
  re.lastIndex = 0
  let m: RegExpExecArray | null
  while ((m = re.exec(text)) !== null) {
    if (m[0].length === 0) {
      re.lastIndex++
      continue
    }
    addSpans(rule, m, text, rank, out, memo)
  }
  return unordered(rule) ? sortByStart(out) : out
}

/** A lead can reach back before the previous match; located spans can lie past the next match. */
function unordered(rule: Rule): boolean {
  return rule.lead !== undefined || rule.locate !== undefined
}

function sortByStart(list: Span[]): Span[] {
  return list.sort((a, b) => a.start - b.start)
}
