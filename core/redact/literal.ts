// Finds the anchors of one case mode in a short text without searching the text once per anchor: the
// anchors are indexed by their first two characters, and the text is read once, looking up the
// anchors that start with the two characters at each place. Finds exactly what an `indexOf` per
// anchor finds (tests/redact/literal.test.ts compares them). Pure.

/** The anchors of one case mode, indexed (built once per scanner, on its first short text). */
export interface LiteralIndex {
  /** index 0-127: an anchor starts with that ASCII character; 128: with a non-ASCII one */
  first: Uint8Array
  /** c0 * 128 + c1 for ASCII c0 and c1: an anchor of two or more characters starts with them (a test
   *  that spares most map lookups: a key's first character is often a common letter or a space) */
  pair: Uint8Array
  /** first and second character (c0 * 65536 + c1) -> the keys (indexes) of that start */
  pairs: Map<number, number[]>
  /** first character -> the keys one character long */
  singles: Map<number, number[]>
  /** keys that are empty: found at every place, the end of the text included */
  empty: number[]
}

export function literalIndex(keys: readonly string[]): LiteralIndex {
  const index: LiteralIndex = { first: new Uint8Array(129), pair: new Uint8Array(128 * 128), pairs: new Map(), singles: new Map(), empty: [] }
  keys.forEach((key, k) => {
    if (key.length === 0) return void index.empty.push(k)
    const c0 = key.charCodeAt(0)
    index.first[c0 < 128 ? c0 : 128] = 1
    if (key.length > 1 && c0 < 128 && key.charCodeAt(1) < 128) index.pair[c0 * 128 + key.charCodeAt(1)] = 1
    const [map, at] = key.length === 1 ? [index.singles, c0] : [index.pairs, c0 * 65536 + key.charCodeAt(1)]
    const list = map.get(at)
    if (list) list.push(k)
    else map.set(at, [k])
  })
  return index
}

/** Every place in `hay` where a key starts, ascending, with the rules of every key found there
 *  (ascending, no repeats). `rules[k]`: the rules of key `k`, ascending. */
export function literalHits(index: LiteralIndex, keys: readonly string[], rules: readonly (readonly number[])[], hay: string): [number, readonly number[]][] {
  const out: [number, readonly number[]][] = []
  const { first, pair, pairs, singles, empty } = index
  const n = hay.length
  const hasSingles = singles.size > 0
  for (let i = 0; i < n; i++) {
    const c0 = hay.charCodeAt(i)
    if (first[c0 < 128 ? c0 : 128] === 0) {
      if (empty.length > 0) out.push([i, rulesOf(empty, rules)])
      continue
    }
    let found: number[] | undefined = empty.length > 0 ? [...empty] : undefined
    if (hasSingles) {
      const one = singles.get(c0)
      if (one) found = found ? found.concat(one) : [...one]
    }
    if (i + 1 < n) {
      const c1 = hay.charCodeAt(i + 1)
      const two = c0 >= 128 || c1 >= 128 || pair[c0 * 128 + c1] === 1 ? pairs.get(c0 * 65536 + c1) : undefined
      if (two) for (const k of two) if (hay.startsWith(keys[k]!, i)) (found ??= []).push(k)
    }
    if (found !== undefined) out.push([i, found.length === 1 ? rules[found[0]!]! : rulesOf(found, rules)])
  }
  // an empty key is also found where the text ends
  if (empty.length > 0) out.push([n, rulesOf(empty, rules)])
  return out
}

/** The rules of several keys found at one place, ascending, without repeats. */
function rulesOf(found: readonly number[], rules: readonly (readonly number[])[]): number[] {
  const set = new Set<number>()
  for (const k of found) for (const r of rules[k]!) set.add(r)
  return [...set].sort((x, y) => x - y)
}
