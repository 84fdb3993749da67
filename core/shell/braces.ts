// Bash's brace expansion ({a,b}, {1..3}, nested, at most 64 results): the braces to expand are marked
// first (quoted and expanded text keeps its braces as they are), then expanded. Pure.

const OPEN = "\u0001", COMMA = "\u0002", CLOSE = "\u0003"

/** The braces and commas of unquoted text, marked for expandMarked. */
export function markBraces(text: string): string {
  return text.replace(/[{},]/g, (c) => (c === "{" ? OPEN : c === "," ? COMMA : CLOSE))
}

/** The words a marked text expands to, unmarked. */
export function expandMarked(marked: string): string[] {
  return braceExpand(marked, 0).map(unmark)
}

/** Brace expansion of a plain text, as bash (and the npm glob package) does it: `{a,b}/x` is a/x and b/x (at most 64). */
export function braceWords(text: string): string[] {
  if (!text.includes("{")) return [text]
  return expandMarked(markBraces(text))
}

function unmark(s: string): string {
  return s.replace(/[\u0001\u0002\u0003]/g, (c) => (c === OPEN ? "{" : c === COMMA ? "," : "}"))
}

function braceExpand(s: string, depth: number): string[] {
  if (depth > 8) return [s]
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
  if (close < 0) return [s]
  const head = s.slice(0, open)
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
    const range = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])$/.exec(inner)
    if (!range) return braceExpand(head + "{" + inner + "}" + tail, depth + 1).map((x) => x)
    options = expandRange(range[1]!, range[2]!)
  }
  const out: string[] = []
  for (const o of options) {
    for (const r of braceExpand(head + o + tail, depth + 1)) {
      out.push(r)
      if (out.length >= 64) return out
    }
  }
  return out
}

function expandRange(a: string, b: string): string[] {
  const num = /^-?\d+$/.test(a) && /^-?\d+$/.test(b)
  const from = num ? Number(a) : a.charCodeAt(0)
  const to = num ? Number(b) : b.charCodeAt(0)
  const out: string[] = []
  const step = from <= to ? 1 : -1
  for (let i = from; out.length < 64; i += step) {
    out.push(num ? String(i) : String.fromCharCode(i))
    if (i === to) break
  }
  return out
}
