// What a rule is, what it hides for one match, and how hidden stretches are merged and rendered.
// Pure: no I/O, no clock. Never emits any part of a matched secret.
import { isPublicExample } from "./examples.ts"

/** One detector. `re` is global; what it hides is, in order of preference: the named group `secret`
 *  (user rules, compiled with the `d` flag), the last capture group that matched (built-in rules put
 *  it at the end of the match, trailing context goes in lookaheads), or the whole match. */
export interface Rule {
  id: string
  re: RegExp
  /** literals every match starts with (case-insensitively when `re` has the `i` flag); the engine
   *  only runs `re` where one occurs. Without anchors `re` scans the whole text. */
  anchors?: readonly string[]
  /** its regex may also match at the very start of the text, where it has no anchor (a program name
   *  whose anchors are the name after a delimiter): such a match begins with one of these literals */
  atStart?: readonly string[]
  /** a zero-width check (regex source) that holds right after an anchor wherever `re` can match there;
   *  lets the anchor scan skip the many places a common keyword ("token", "password") is just a word */
  follow?: string
  /** characters before the match (checked by a lookbehind) that are part of the secret */
  lead?: number
  /** replacement; default `[REDACTED:<id>]` */
  marker?: string
  /** per-match replacement (known values carry the name of the variable they came from) */
  markerOf?: (match: string) => string
  /** last word on a candidate: false keeps the text as it is */
  accept?: (m: RegExpExecArray, secret: string, text: string) => boolean
  /** matches spanning lines are ignored (user patterns: keeps streamed and whole redaction equal) */
  singleLine?: boolean
  /** for rules that hide several stretches per match (the secret arguments of a command): their
   *  ranges in the text, in any order; used instead of the capture groups */
  locate?: (m: RegExpExecArray, text: string, memo: Map<unknown, unknown>) => readonly Located[]
  /** the literal values this rule matches (a stream holds back a line that may start one of them) */
  values?: readonly string[]
}

/** A stretch to hide, and where what decided it starts when that is before the match (default: the match). */
export type Located = [start: number, end: number, origin?: number]

export interface Span {
  start: number
  end: number
  /** the rule's place in the order (known values, user patterns, built-in patterns, home directories): lower wins when spans overlap */
  rank: number
  marker: string
  /** where the match that found it starts, when before `start` on an earlier line (a command's
   *  program name, a `Private-Lines:` header): a stream must not release that text apart from it */
  origin?: number
}

/** Per-rule span lists (each sorted) as one sorted list; overlapping spans become one (best rank's marker). */
export function mergeLists(lists: readonly Span[][]): Span[] {
  if (lists.length === 0) return []
  // neighbours pairwise, in rounds: a big list is copied log2(lists) times, not once per list; on equal
  // starts the earlier list's span still comes first, as when folding from the left
  let round = lists
  while (round.length > 1) {
    const next: Span[][] = []
    for (let i = 0; i < round.length; i += 2) next.push(i + 1 < round.length ? mergeSorted(round[i]!, round[i + 1]!) : round[i]!)
    round = next
  }
  return mergeOverlaps(round[0]!)
}

/** The text from `from` to `to` with every span inside that range replaced by its marker. */
export function render(text: string, spans: readonly Span[], from = 0, to = text.length): string {
  if (spans.length === 0) return from === 0 && to === text.length ? text : text.slice(from, to)
  // `+=` builds a rope the engine flattens once; several times faster than parts.join on big texts
  let out = ""
  let pos = from
  for (const s of spans) {
    if (s.end <= from) continue
    if (s.start >= to) break
    out += text.slice(pos, s.start) + s.marker
    pos = s.end
  }
  return out + text.slice(pos, to)
}

export function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")
}

/** Appends the spans a match hides (the rule's own checks passed) to `out`. `memo` lives for one
 *  scan of one text (a rule that reads a whole command once for its several matches). */
export function addSpans(rule: Rule, m: RegExpExecArray, text: string, rank: number, out: Span[], memo: Map<unknown, unknown>): void {
  if (!rule.locate) {
    const span = spanOf(rule, m, text, rank)
    if (span) out.push(span)
    return
  }
  const marker = rule.marker ?? `[REDACTED:${rule.id}]`
  for (const [start, end, origin = m.index] of rule.locate(m, text, memo)) {
    if (end > start && !isPublicExample(text.slice(start, end))) out.push({ start, end, rank, marker, origin })
  }
}

/** The span a match hides, or undefined when the rule's own check turns it down. */
function spanOf(rule: Rule, m: RegExpExecArray, text: string, rank: number): Span | undefined {
  if (rule.singleLine && m[0].includes("\n")) return undefined
  const [start, end] = secretRange(m, rule.lead ?? 0)
  if (end <= start) return undefined
  const secret = text.slice(start, end)
  // already masked: redacting twice must not change anything
  if (secret.startsWith("[REDACTED:") || secret === "***" || isPublicExample(secret)) return undefined
  if (rule.accept && !rule.accept(m, secret, text)) return undefined
  return { start, end, rank, marker: rule.markerOf ? rule.markerOf(m[0]) : (rule.marker ?? `[REDACTED:${rule.id}]`) }
}

function secretRange(m: RegExpExecArray, lead: number): [number, number] {
  const named = m.indices?.groups?.secret
  if (named) return [named[0], named[1]]
  const end = m.index + m[0].length
  for (let g = m.length - 1; g >= 1; g--) {
    const group = m[g]
    if (group !== undefined) return [end - group.length - lead, end]
  }
  return [m.index - lead, end]
}

function mergeSorted(a: Span[], b: Span[]): Span[] {
  const out: Span[] = []
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) out.push(a[i]!.start <= b[j]!.start ? a[i++]! : b[j++]!)
  while (i < a.length) out.push(a[i++]!)
  while (j < b.length) out.push(b[j++]!)
  return out
}

function mergeOverlaps(sorted: Span[]): Span[] {
  const out: Span[] = []
  let cur: Span | undefined
  for (const s of sorted) {
    if (cur && s.start < cur.end) {
      // one masked stretch: nothing of either secret may stay visible
      if (s.rank < cur.rank) cur = { ...cur, rank: s.rank, marker: s.marker }
      if (s.end > cur.end) cur = { ...cur, end: s.end }
      if (s.origin !== undefined && s.origin < (cur.origin ?? cur.start)) cur = { ...cur, origin: s.origin }
      out[out.length - 1] = cur
      continue
    }
    cur = s
    out.push(s)
  }
  return out
}
