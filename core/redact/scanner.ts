// Runs many rules over a text in few passes: one search finds every anchor (a literal that each match
// of a rule starts with) and only the rules of an anchor found run, sticky at that spot. Rules without
// anchors scan the whole text. Pure.
import { advance, buildAutomaton, canBuild, longest, startWalk, type Automaton, type Found } from "./automaton.ts"
import { firstChars, type FirstChars } from "./first-chars.ts"
import { literalHits, literalIndex, type LiteralIndex } from "./literal.ts"
import { followOf, passesOf, type Pass, type PassData } from "./passes.ts"
import { addSpans, type Rule, type Span } from "./spans.ts"

export { passData, rulesFingerprint, type PassData } from "./passes.ts"

export interface Scanner {
  /** appends one sorted span list per rule that found something */
  scan(text: string, out: Span[][]): void
}

/** A rule that matched in this scan: its spans, where its last match ended, and its place in the
 *  order of the span lists (mode, where it first matched; rules that matched only at the start last). */
interface RuleState {
  spans: Span[]
  next: number
  order: [number, number]
}

interface Anchored {
  rule: Rule
  rank: number
  /** the rule's regex, sticky: compiled when the rule first runs (a hook call runs few of ~260) */
  sticky?: RegExp
}

/** The anchors of the rules of one case mode (lower-cased when ignoring case), each with its own rules. */
interface Mode {
  ignoreCase: boolean
  keys: string[]
  /** per key: indexes into `anchored`, ascending */
  rules: number[][]
  /** per key: what must follow it for any of its rules to match there ("" when one of them has no
   *  check; computed with the automaton, the only way that checks it), and that as a sticky regex once used */
  follow: string[]
  /** per key: a set holding the character after it wherever its follow holds (a test that spares most
   *  calls of the follow regex: after "token" in prose comes a space and a word, not a separator) */
  after: (FirstChars | undefined)[]
  followRe: (RegExp | undefined)[]
  /** follow source -> its regex: keys with the same check share one (compiling costs more than many runs) */
  compiled: Map<string, RegExp>
  /** the keys by their first characters, for short texts (built on the first) */
  literal?: LiteralIndex
}

/** Texts up to this length find their anchors by one read of the text against the anchors' first
 *  two characters (literal.ts) until a longer text has had the regexes compiled or the automaton
 *  built (then they use those): a hook call redacts a few short strings, and compiling or building
 *  costs it ~1-3 ms.
 *  Every way runs the same rules at every anchor (scanner tests compare them). */
const LITERAL_BELOW = 512
/** Fewer anchors than this are found faster by the combined regex (the engine skips to the few
 *  characters they start with; the automaton reads every character): known values, a home folder. */
const AUTOMATON_FROM = 64
/** The automaton finds a log's anchors ~20% faster than the combined regexes and reports fewer of
 *  them (its one-character follow test), but building it costs a fresh process ~2-3 ms, compiling the
 *  regexes ~1: it is built once the regexes have searched this many characters (a hook call redacting
 *  a few KB never builds it; a run's log soon does). */
const AUTOMATON_AFTER = 256 * 1024
/** The automaton walks a long text this many characters at a time, using what it found in between. */
const SEGMENT = 1024 * 1024
const ASCII = /^[\x00-\x7f]*$/

export interface ScannerOptions {
  /** texts shorter than this use the literal anchor search (tests set 0 or Infinity to pick a way) */
  literalBelow?: number
  /** how longer texts find their anchors: the automaton (by default from AUTOMATON_FROM anchors on,
   *  after AUTOMATON_AFTER characters), or the combined regexes (the reference the tests compare with) */
  search?: "automaton" | "regex"
  /** how many characters the automaton reads before it uses what it found (tests set a few) */
  segment?: number
}

/** `prebuilt`: the combined regexes computed at build time (`passData`), used only when their
 *  fingerprint is that of `rules` and only where the regexes are used. */
export function createScanner(
  rules: readonly Rule[],
  rankBase = 0,
  prebuilt?: { fingerprint: string; passes: PassData[] },
  opts: ScannerOptions = {},
): Scanner {
  const literalBelow = opts.literalBelow ?? LITERAL_BELOW
  const segment = opts.segment ?? SEGMENT
  const anchored: Anchored[] = []
  const whole: { rule: Rule; rank: number }[] = []
  rules.forEach((rule, i) => {
    const rank = rankBase + i
    if (!rule.anchors?.length) return void whole.push({ rule, rank })
    anchored.push({ rule, rank })
  })
  const modes = modesOf(anchored)
  // the anchored rules that may also match where a text starts (a few of ~260), in order
  const atStart = anchored.flatMap((a, k) => (a.rule.atStart?.length ? [k] : []))
  // an empty anchor, or a non-ASCII one ignoring case, is left to the regexes (no built-in rule has one)
  const exotic = !canBuild(modes)
  const keyCount = modes.reduce((n, m) => n + m.keys.length, 0)
  const useRegex = exotic || (opts.search ?? (keyCount >= AUTOMATON_FROM ? "automaton" : "regex")) === "regex"
  // the default way starts with the regexes (see AUTOMATON_AFTER); a way asked for is used from the start
  const warmUp = opts.search === undefined
  let passes: Pass[] | undefined
  let automaton: Automaton | undefined
  /** characters the regexes searched before the automaton was built */
  let regexSeen = 0
  const stickyOf = (a: Anchored): RegExp => (a.sticky ??= new RegExp(a.rule.re.source, a.rule.re.flags.replace("g", "") + "y"))

  return {
    scan(text, out) {
      // per rule that ran: its spans and where its last match ended (a Map: most texts touch few rules)
      const state = new Map<number, RuleState>()
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
          const cur = st ?? { spans: [], next: 0, order: [a.rule.re.ignoreCase ? 1 : 0, at] }
          if (!st) state.set(k, cur)
          cur.next = at + m[0].length
          addSpans(a.rule, m, text, a.rank, cur.spans, memo)
        }
      }
      // each mode's anchors in text order, the case-sensitive mode first (the order of the span lists);
      // a short text takes what is built already, and is searched by the literal index when nothing is
      const short = text.length < literalBelow && (!exotic || ASCII.test(text))
      if (short && automaton === undefined && passes === undefined) {
        for (const mode of modes) for (const [at, ks] of literalHits((mode.literal ??= literalIndex(mode.keys)), mode.keys, mode.rules, hayOf(mode, text))) run(at, ks)
      } else if (automaton === undefined && (useRegex || (warmUp && (regexSeen += text.length) <= AUTOMATON_AFTER))) {
        passes ??= passesOf(anchored.map((a) => a.rule), rules, prebuilt)
        for (const p of passes) regexHits(p, text, run)
      } else {
        if (automaton === undefined) {
          for (const m of modes) {
            m.follow = m.rules.map((ks) => followOf(ks.map((k) => anchored[k]!.rule)))
            m.after = m.follow.map((f) => (f === "" ? undefined : firstChars(f, m.ignoreCase)))
          }
          automaton = buildAutomaton(modes)
        }
        // in pieces: what was found is used and dropped as the walk goes (memory stays bounded
        // on a text of nothing but anchors)
        const walk = startWalk(automaton)
        const reach = longest(automaton) - 1
        for (let from = 0; from < text.length; from += segment) {
          const to = Math.min(text.length, from + segment)
          advance(automaton, walk, text, from, to)
          const done = to === text.length ? Infinity : to - reach
          walk.found.forEach((found, i) => automatonHits(modes[i]!, text, found, done, run))
        }
      }
      // rules that also match where a text starts, with no anchor there
      for (const k of atStart) {
        const a = anchored[k]!
        // a cheap necessary condition first: most texts start with no such literal (no regex compiled)
        if (!a.rule.atStart!.some((s) => text.startsWith(s))) continue
        const sticky = stickyOf(a)
        sticky.lastIndex = 0
        const m = sticky.exec(text)
        if (m === null || m[0].length === 0) continue
        const cur = state.get(k) ?? { spans: [], next: 0, order: [2, 0] }
        state.set(k, cur)
        addSpans(a.rule, m, text, a.rank, cur.spans, memo)
      }
      // the lists in the order the rules first matched, mode by mode (the automaton's pieces take
      // turns between the modes); where spans tie, the merge keeps the earlier list's first
      const ordered = [...state].sort(([j, x], [k, y]) => x.order[0] - y.order[0] || x.order[1] - y.order[1] || j - k)
      for (const [k, { spans }] of ordered) {
        if (spans.length > 0) out.push(unordered(anchored[k]!.rule) ? sortByStart(spans) : spans)
      }
      for (const { rule, rank } of whole) {
        const list = scanWhole(text, rule, rank, memo)
        if (list.length > 0) out.push(list)
      }
    },
  }
}

/** The anchors of each case mode (the case-sensitive one first; a mode without anchors left out). */
function modesOf(anchored: readonly Anchored[]): Mode[] {
  const modes = [false, true].map((ignoreCase): Mode => ({ ignoreCase, keys: [], rules: [], follow: [], after: [], followRe: [], compiled: new Map() }))
  const index = [new Map<string, number>(), new Map<string, number>()]
  anchored.forEach((a, k) => {
    const m = a.rule.re.ignoreCase ? 1 : 0
    const mode = modes[m]!
    for (const anchor of a.rule.anchors!) {
      const key = m === 1 ? anchor.toLowerCase() : anchor
      let i = index[m]!.get(key)
      if (i === undefined) {
        index[m]!.set(key, (i = mode.keys.length))
        mode.keys.push(key)
        mode.rules.push([k])
        continue
      }
      // rules come in order: a rule already listed for this key is the last one
      const list = mode.rules[i]!
      if (list[list.length - 1] !== k) list.push(k)
    }
  })
  return modes.filter((m) => m.keys.length > 0)
}

/** The automaton's finds of one mode that start before `done`, in text order (dropped once used): at
 *  each place, the rules of every anchor there whose follow check holds (a follow only restates what
 *  its rules need at that anchor's end; the automaton already left out the places where the
 *  character after it cannot begin it). */
function automatonHits(mode: Mode, text: string, found: Found, done: number, run: (at: number, ks: readonly number[]) => void): void {
  const { at, key } = found
  let i = 0
  while (i < at.length && at[i]! < done) {
    const start = at[i]!
    let ks: readonly number[] | undefined
    for (; i < at.length && at[i] === start; i++) {
      const k = key[i]!
      if (mode.follow[k] !== "") {
        const re = mode.followRe[k] ?? followRegex(mode, k)
        re.lastIndex = start + mode.keys[k]!.length
        if (!re.test(text)) continue
      }
      ks = ks === undefined ? mode.rules[k]! : union(ks, mode.rules[k]!)
    }
    if (ks !== undefined) run(start, ks)
  }
  at.splice(0, i)
  key.splice(0, i)
}

function followRegex(mode: Mode, k: number): RegExp {
  const source = mode.follow[k]!
  let re = mode.compiled.get(source)
  if (!re) mode.compiled.set(source, (re = new RegExp(source, mode.ignoreCase ? "iy" : "y")))
  return (mode.followRe[k] = re)
}

/** Two ascending lists as one, without repeats. */
function union(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    const x = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!
    if (out[out.length - 1] !== x) out.push(x)
  }
  return out
}

/** The combined regex's finds: the longest anchor at a place whose follow check holds, with the
 *  rules of the shorter anchors there. */
function regexHits(p: Pass, text: string, run: (at: number, ks: readonly number[]) => void): void {
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

/** The text a mode's anchors are looked for in. Ignoring case folds ASCII letters only, as a
 *  non-unicode `/i` regex does, so every index stays where it was. */
function hayOf(mode: Mode, text: string): string {
  return !mode.ignoreCase ? text : ASCII.test(text) ? text.toLowerCase() : text.replace(/[A-Z]+/g, (s) => s.toLowerCase())
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
