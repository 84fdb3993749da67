// Bash's brace expansion ({a,b}, {1..3}, {a..e..2}, {01..10}, nested): the braces to expand are marked
// first (quoted and expanded text keeps its braces as they are), then expanded. More results than
// MAX_BRACE_WORDS, or a letter range across the cases, make the expansion unknown (undefined), never a
// truncated or wrong list. Pure.

const OPEN = "\u0001", COMMA = "\u0002", CLOSE = "\u0003"

/** The most words one brace expansion is followed to; past it the words are not known here. */
export const MAX_BRACE_WORDS = 64

/** The braces and commas of unquoted text, marked for expandMarked. */
export function markBraces(text: string): string {
  return text.replace(/[{},]/g, (c) => (c === "{" ? OPEN : c === "," ? COMMA : CLOSE))
}

/** The words a marked text expands to, unmarked; undefined when there are more than MAX_BRACE_WORDS. */
export function expandMarked(marked: string): string[] | undefined {
  const out = braceExpand(marked, 0)
  return out && out.map(unmark)
}

/** Brace expansion of a plain text, as bash (and the npm glob package) does it: `{a,b}/x` is a/x and
 *  b/x; undefined when there are more than MAX_BRACE_WORDS words. */
export function braceWords(text: string): string[] | undefined {
  if (!text.includes("{")) return [text]
  return expandMarked(markBraces(text))
}

function unmark(s: string): string {
  return s.replace(/[\u0001\u0002\u0003]/g, (c) => (c === OPEN ? "{" : c === COMMA ? "," : "}"))
}

function braceExpand(s: string, depth: number): string[] | undefined {
  if (depth > 8) return s.includes(OPEN) ? undefined : [s]
  const open = s.indexOf(OPEN)
  if (open < 0) return [s]
  let level = 0
  const commas: number[] = []
  let close = -1
  for (let i = open; i < s.length; i++) {
    const c = s[i]
    if (c === OPEN) level++
    else if (c === CLOSE && --level === 0) {
      close = i
      break
    } else if (c === COMMA && level === 1) commas.push(i)
  }
  const head = s.slice(0, open)
  // an unclosed brace is text; a later one may still expand (`{{1..2}` is {1 {2)
  if (close < 0) return braceExpand(head + "{" + s.slice(open + 1), depth + 1)
  const tail = s.slice(close + 1)
  const inner = s.slice(open + 1, close)
  let options: string[]
  if (commas.length) {
    options = []
    let from = open + 1
    for (const c of [...commas, close]) {
      options.push(s.slice(from, c))
      from = c + 1
    }
  } else {
    const seq = sequence(inner)
    if (seq === null) return braceExpand(head + "{" + inner + "}" + tail, depth + 1)
    if (seq === undefined) return undefined
    options = seq
  }
  const out: string[] = []
  for (const o of options) {
    const more = braceExpand(head + o + tail, depth + 1)
    if (!more) return undefined
    out.push(...more)
    if (out.length > MAX_BRACE_WORDS) return undefined
  }
  return out
}

const SEQUENCE = /^(?:([+-]?\d+)\.\.([+-]?\d+)|([A-Za-z])\.\.([A-Za-z]))(?:\.\.([+-]?\d+))?$/

// `{x..y}` / `{x..y..incr}`: the words, null when it is no sequence (bash leaves it as written),
// undefined when there are too many to follow
function sequence(inner: string): string[] | null | undefined {
  const m = SEQUENCE.exec(inner)
  if (!m) return null
  const step = Math.max(1, Math.abs(Number(m[5] ?? 1)))
  const out: string[] = []
  if (m[3] !== undefined) {
    const from = m[3].charCodeAt(0), to = m[4]!.charCodeAt(0)
    // from upper to lower case it passes \ and ` (`{Z..a}`), which bash then reads as a quote and a
    // substitution: not followed
    if (Math.min(from, to) < 0x5c && Math.max(from, to) > 0x60) return undefined
    const dir = from <= to ? 1 : -1
    for (let i = from; dir > 0 ? i <= to : i >= to; i += dir * step) {
      out.push(String.fromCharCode(i))
      if (out.length > MAX_BRACE_WORDS) return undefined
    }
    return out
  }
  const a = m[1]!, b = m[2]!
  const from = Number(a), to = Number(b)
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) return undefined
  // a leading zero on either end pads every word to the longer end's width (the sign counts)
  const width = /^[+-]?0\d/.test(a) || /^[+-]?0\d/.test(b) ? Math.max(a.replace("+", "").length, b.replace("+", "").length) : 0
  const dir = from <= to ? 1 : -1
  for (let i = from; dir > 0 ? i <= to : i >= to; i += dir * step) {
    out.push(pad(i, width))
    if (out.length > MAX_BRACE_WORDS) return undefined
  }
  return out
}

function pad(n: number, width: number): string {
  const digits = String(Math.abs(n))
  const sign = n < 0 ? "-" : ""
  return sign + digits.padStart(width - sign.length, "0")
}
