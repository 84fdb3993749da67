// Texts for the scanner's differential tests: corpus lines, near misses, bare anchors and noise, cut
// and glued at random places (seeded, so a failure repeats), optionally with non-ASCII and case changes.
import type { Rule } from "../../core/redact/spans.ts"
import { CORPUS, NEAR_MISSES } from "./corpus.ts"

const NOISE = [" ", "\n", "_", "-", "=", ":", '"', "\\n", "/", "abc", "XYZ123", "token", "Bearer ", "://u:p@"]
/** Characters that change how a text is stored or cased: two-byte, astral (a surrogate pair), and
 *  ones whose case maps to ASCII (`ſ` -> `S`, Kelvin `K` -> `k`) or to two characters (`İ`). */
const WIDE = ["✓", "—", "é", "😀", "ſ", "\u212a", "İ", "ß", "\u00a0", "\u2028", "日本"]

export function seeded(seed: number): (n: number) => number {
  let state = seed
  return (n) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0
    return state % n
  }
}

export function fuzzText(rules: readonly Rule[], seed: number, opts: { parts?: number; wide?: boolean; recase?: boolean } = {}): string {
  const rand = seeded(seed)
  const anchors = rules.flatMap((r) => r.anchors ?? [])
  let out = ""
  for (let i = 0; i < (opts.parts ?? 60); i++) {
    const pick = rand(opts.wide ? 5 : 4)
    let source =
      pick === 0 ? CORPUS[rand(CORPUS.length)]!.line : pick === 1 ? NEAR_MISSES[rand(NEAR_MISSES.length)]! : pick === 2 ? anchors[rand(anchors.length)]! : pick === 3 ? NOISE[rand(NOISE.length)]! : WIDE[rand(WIDE.length)]!
    if (opts.recase && rand(4) === 0) source = rand(2) === 0 ? source.toUpperCase() : source.toLowerCase()
    const from = rand(Math.max(1, source.length))
    out += rand(3) === 0 ? source.slice(from) : source
  }
  return out
}
