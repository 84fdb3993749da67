// Every place where any of many literals occurs in a text, found in one pass over its characters: an
// Aho-Corasick automaton compiled to a table (state x character class -> state), one per case mode,
// both stepped in the same loop. What the combined anchor regexes did, at a fixed cost per character
// instead of a regex engine's tests at every place. Pure.

/** The literals of one case mode; with `ignoreCase` they are lower-case and ASCII letters of the text
 *  are folded (what a non-unicode `/i` regex does: no other character matches an ASCII letter). */
export interface Literals {
  keys: readonly string[]
  ignoreCase: boolean
  /** per literal, optionally: the characters one of which must come right after it for it to be
   *  reported (index 128: any non-ASCII one); a literal at the end of the text is not reported then */
  after?: readonly (Uint8Array | undefined)[]
}

interface Table {
  /** character code -> class (0: in no literal) */
  cls: Uint16Array
  /** (state * classes + class) -> next state * classes, written as -(that + 1) when the next state
   *  ends a literal, or UNKNOWN (0) until first needed (states are stored multiplied by the class
   *  count so a step is one add; filling rows on demand keeps building the table near a millisecond) */
  next: Int32Array
  classes: number
  /** state -> the state of its longest proper suffix that is a prefix of a literal */
  fail: Int32Array
  /** state -> its literals (its own and those ending in it): indexes into `out` from outFrom[s] to outFrom[s + 1] */
  outFrom: Int32Array
  out: Int32Array
  lengths: Int32Array
  longest: number
  after: readonly (Uint8Array | undefined)[]
}

const UNKNOWN = 0

export interface Automaton {
  readonly tables: readonly Table[]
}

/** Where each literal starts, per mode: `at` ascending, and for each the literal's index in its mode's keys. */
export interface Found {
  at: number[]
  key: number[]
}

/** Literals must be non-empty; an ignore-case mode only holds ASCII (callers check `canBuild`). */
export function canBuild(modes: readonly Literals[]): boolean {
  return modes.every((m) => m.keys.every((k) => k.length > 0 && (!m.ignoreCase || /^[\x00-\x7f]+$/.test(k))))
}

export function buildAutomaton(modes: readonly Literals[]): Automaton {
  return { tables: modes.map(table) }
}

/** The literals of every mode found in `text`, each list sorted by where they start. */
export function findAll(a: Automaton, text: string): Found[] {
  const w = startWalk(a)
  advance(a, w, text, 0, text.length)
  return w.found
}

/** A walk through a text in pieces (so what is found can be used, and dropped, as it goes): the
 *  state of each mode and what was found so far. */
export interface Walk {
  states: number[]
  found: Found[]
}

export function startWalk(a: Automaton): Walk {
  return { states: a.tables.map((t) => t.classes), found: a.tables.map((): Found => ({ at: [], key: [] })) }
}

/** Walks on over text[from, to) (the walk has read text[0, from)). What starts before
 *  `to - longest(a) + 1` is all found by then; later pieces only find what starts after it. */
export function advance(a: Automaton, w: Walk, text: string, from: number, to: number): void {
  const [t, u] = a.tables
  if (u !== undefined) [w.states[0], w.states[1]] = findTwo(t!, u, text, from, to, w.states[0]!, w.states[1]!, w.found[0]!, w.found[1]!)
  else if (t !== undefined) w.states[0] = findOne(t, text, from, to, w.states[0]!, w.found[0]!)
}

/** The length of the longest literal. */
export function longest(a: Automaton): number {
  return Math.max(0, ...a.tables.map((t) => t.longest))
}

function findOne(t: Table, text: string, from: number, to: number, s: number, f: Found): number {
  const { cls, next } = t
  for (let i = from; i < to; i++) {
    const e = s + cls[text.charCodeAt(i)]!
    let v = next[e]!
    if (v > 0) {
      s = v
      continue
    }
    if (v === UNKNOWN) v = step(t, e)
    if (v > 0) s = v
    else record(t, (s = -v - 1), i, f, text)
  }
  return s
}

/** Both modes in one loop: the text is read once (the loop costs more than either table's step). */
function findTwo(t: Table, u: Table, text: string, from: number, to: number, s: number, r: number, f: Found, g: Found): [number, number] {
  const tc = t.cls
  const tn = t.next
  const uc = u.cls
  const un = u.next
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i)
    const e = s + tc[c]!
    const d = r + uc[c]!
    let v = tn[e]!
    let w = un[d]!
    if (v <= 0) {
      if (v === UNKNOWN) v = step(t, e)
      if (v < 0) record(t, (v = -v - 1), i, f, text)
    }
    if (w <= 0) {
      if (w === UNKNOWN) w = step(u, d)
      if (w < 0) record(u, (w = -w - 1), i, g, text)
    }
    s = v
    r = w
  }
  return [s, r]
}

/** The literals ending at `end` (state `s`), kept sorted by start: a longer one found later can start
 *  before a shorter one found earlier, by less than the longest literal. */
function record(t: Table, s: number, end: number, f: Found, text: string): void {
  const state = s / t.classes
  const { at, key } = f
  for (let o = t.outFrom[state]!, to = t.outFrom[state + 1]!; o < to; o++) {
    const k = t.out[o]!
    const after = t.after[k]
    if (after !== undefined) {
      const c = text.charCodeAt(end + 1)
      if (end + 1 >= text.length || after[c < 128 ? c : 128] === 0) continue
    }
    const start = end + 1 - t.lengths[k]!
    let j = at.length
    at.push(start)
    key.push(k)
    while (j > 0 && at[j - 1]! > start) {
      at[j] = at[j - 1]!
      key[j] = key[j - 1]!
      j--
    }
    at[j] = start
    key[j] = k
  }
}

/** Fills the transition at `e` (state * classes + class), and those of the states it falls back to:
 *  where the prefix tree has no edge, a state goes where its failure state goes. */
function step(t: Table, e: number): number {
  const state = Math.floor(e / t.classes)
  const f = t.fail[state]! * t.classes + (e - state * t.classes)
  let v = t.next[f]!
  if (v === UNKNOWN) v = step(t, f)
  t.next[e] = v
  return v
}

/** The root is state 1 (row 0 is never used): a new table's zeros are its UNKNOWN transitions. */
const ROOT = 1

function table({ keys, ignoreCase, after = [] }: Literals): Table {
  const cls = new Uint16Array(65536)
  let classes = 1
  for (const key of keys) {
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i)
      if (cls[c] !== 0) continue
      cls[c] = classes++
      if (ignoreCase && c >= 97 && c <= 122) cls[c - 32] = cls[c]!
    }
  }
  // the prefix tree: its edges in `next` (child states, 0 where it has none); children listed per state
  const maxStates = 2 + keys.reduce((n, k) => n + k.length, 0)
  const next = new Int32Array(maxStates * classes)
  const ends: number[][] = [[], []]
  const children: number[][] = [[], []]
  let states = 2
  keys.forEach((key, k) => {
    let s = ROOT
    for (let i = 0; i < key.length; i++) {
      const e = s * classes + cls[key.charCodeAt(i)]!
      if (next[e] === 0) {
        next[e] = states++
        ends.push([])
        children.push([])
        children[s]!.push(e - s * classes)
      }
      s = next[e]!
    }
    ends[s]!.push(k)
  })
  // breadth first: each state's failure state, and the literals ending in it (its own, then those
  // of its failure state: the shorter suffixes)
  const fail = new Int32Array(states).fill(ROOT)
  const order = children[ROOT]!.map((c) => next[ROOT * classes + c]!)
  for (let q = 0; q < order.length; q++) {
    const s = order[q]!
    ends[s]!.push(...ends[fail[s]!]!)
    for (const c of children[s]!) {
      const child = next[s * classes + c]!
      let f = fail[s]!
      while (f !== ROOT && next[f * classes + c] === 0) f = fail[f]!
      if (next[f * classes + c] !== 0) fail[child] = next[f * classes + c]!
      order.push(child)
    }
  }
  const outFrom = new Int32Array(states + 1)
  for (let s = 0; s < states; s++) outFrom[s + 1] = outFrom[s]! + ends[s]!.length
  // the tree's edges as the scan reads them; the root stays where it is on any other character
  for (let s = ROOT; s < states; s++) {
    for (const c of children[s]!) {
      const t = next[s * classes + c]!
      next[s * classes + c] = ends[t]!.length > 0 ? -(t * classes) - 1 : t * classes
    }
  }
  for (let e = ROOT * classes; e < (ROOT + 1) * classes; e++) if (next[e] === 0) next[e] = ROOT * classes
  return { cls, next: next.subarray(0, states * classes), classes, fail, outFrom, out: Int32Array.from(ends.flat()), lengths: Int32Array.from(keys, (k) => k.length), longest: keys.reduce((n, k) => Math.max(n, k.length), 0), after }
}
