// Every place where any of many literals occurs in a text, found in one pass over its characters: an
// Aho-Corasick automaton compiled to a table (state x character class -> state), one per case mode,
// both stepped in the same loop. What the combined anchor regexes did, at a fixed cost per character
// instead of a regex engine's tests at every place. Pure.

/** The literals of one case mode; with `ignoreCase` they are lower-case and ASCII letters of the text
 *  are folded (what a non-unicode `/i` regex does: no other character matches an ASCII letter). */
export interface Literals {
  keys: readonly string[]
  ignoreCase: boolean
}

interface Table {
  /** character code -> class (0: in no literal) */
  cls: Uint16Array
  /** (state * classes + class) -> next state * classes, written as -(that + 1) when the next state
   *  ends a literal; states are stored multiplied by the class count so a step is one add */
  next: Int32Array
  classes: number
  /** state -> its literals (its own and those ending in it): indexes into `out` from outFrom[s] to outFrom[s + 1] */
  outFrom: Int32Array
  out: Int32Array
  lengths: Int32Array
}

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
  const found = a.tables.map((): Found => ({ at: [], key: [] }))
  if (a.tables.length === 2) findTwo(a.tables[0]!, a.tables[1]!, text, found[0]!, found[1]!)
  else a.tables.forEach((t, i) => findOne(t, text, found[i]!))
  return found
}

function findOne(t: Table, text: string, f: Found): void {
  const { cls, next } = t
  let s = 0
  for (let i = 0, n = text.length; i < n; i++) {
    const v = next[s + cls[text.charCodeAt(i)]!]!
    if (v >= 0) s = v
    else record(t, (s = -v - 1), i, f)
  }
}

/** Both modes in one loop: the text is read once (the loop costs more than either table's step). */
function findTwo(t: Table, u: Table, text: string, f: Found, g: Found): void {
  const tc = t.cls
  const tn = t.next
  const uc = u.cls
  const un = u.next
  let s = 0
  let r = 0
  for (let i = 0, n = text.length; i < n; i++) {
    const c = text.charCodeAt(i)
    const v = tn[s + tc[c]!]!
    const w = un[r + uc[c]!]!
    if (v >= 0) s = v
    else record(t, (s = -v - 1), i, f)
    if (w >= 0) r = w
    else record(u, (r = -w - 1), i, g)
  }
}

/** The literals ending at `end` (state `s`), kept sorted by start: a longer one found later can start
 *  before a shorter one found earlier, by less than the longest literal. */
function record(t: Table, s: number, end: number, f: Found): void {
  const state = s / t.classes
  const { at, key } = f
  for (let o = t.outFrom[state]!, to = t.outFrom[state + 1]!; o < to; o++) {
    const k = t.out[o]!
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

function table({ keys, ignoreCase }: Literals): Table {
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
  // the prefix tree: goto[state * classes + class], -1 where it has no edge
  const maxStates = 1 + keys.reduce((n, k) => n + k.length, 0)
  const goto = new Int32Array(maxStates * classes).fill(-1)
  const ends: number[][] = [[]]
  let states = 1
  keys.forEach((key, k) => {
    let s = 0
    for (let i = 0; i < key.length; i++) {
      const e = s * classes + cls[key.charCodeAt(i)]!
      if (goto[e] === -1) {
        goto[e] = states++
        ends.push([])
      }
      s = goto[e]!
    }
    ends[s]!.push(k)
  })
  // breadth first: each state's failure link and full transitions, and the literals ending in it
  // (its own, then those of its failure state: the shorter suffixes)
  const next = new Int32Array(states * classes)
  const fail = new Int32Array(states)
  const order: number[] = []
  for (let c = 0; c < classes; c++) {
    const t = goto[c]!
    if (t > 0) order.push(t)
    next[c] = Math.max(t, 0)
  }
  for (let q = 0; q < order.length; q++) {
    const s = order[q]!
    ends[s]!.push(...ends[fail[s]!]!)
    for (let c = 0; c < classes; c++) {
      const t = goto[s * classes + c]!
      if (t === -1) next[s * classes + c] = next[fail[s]! * classes + c]!
      else {
        fail[t] = next[fail[s]! * classes + c]!
        next[s * classes + c] = t
        order.push(t)
      }
    }
  }
  const outFrom = new Int32Array(states + 1)
  for (let s = 0; s < states; s++) outFrom[s + 1] = outFrom[s]! + ends[s]!.length
  const out = Int32Array.from(ends.flat())
  for (let e = 0; e < next.length; e++) {
    const t = next[e]!
    next[e] = ends[t]!.length > 0 ? -(t * classes) - 1 : t * classes
  }
  return { cls, next, classes, outFrom, out, lengths: Int32Array.from(keys, (k) => k.length) }
}
