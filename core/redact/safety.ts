// Static check that a user-written regex cannot backtrack catastrophically (nested or ambiguous
// repetition), shared by redaction patterns and policy rules. Pure: never runs the regex on input.

/** `(?i)` at the start (the Go/PCRE spelling users copy from other tools) becomes the `i` flag. */
export function splitInlineFlags(regex: string): { source: string; flags: string } {
  return regex.startsWith("(?i)") ? { source: regex.slice(4), flags: "i" } : { source: regex, flags: "" }
}

/** A description of what is wrong, or undefined when the regex is safe to run over large outputs. */
export function checkRegexSafety(regex: string): string | undefined {
  const { source, flags } = splitInlineFlags(regex)
  try {
    new RegExp(source, flags)
  } catch (e) {
    return `invalid regular expression: ${(e as Error).message.replace(/^invalid regular expression:\s*/i, "")}`
  }
  let top: Term[][]
  try {
    top = parse(source, flags.includes("i"))
  } catch (e) {
    return `unsupported regular expression: ${(e as Error).message}`
  }
  return findProblem(top, source)
}

/** 0-127: that ASCII character; 128: any non-ASCII character. */
type Chars = Uint8Array
type Atom =
  | { kind: "chars"; chars: Chars }
  | { kind: "group"; alts: Term[][]; look: boolean }
  | { kind: "assert" }
  | { kind: "backref" }
interface Term {
  atom: Atom
  min: number
  max: number
  start: number
  end: number
}

function findProblem(alts: Term[][], src: string): string | undefined {
  for (const seq of alts) {
    for (const t of seq) {
      if (t.atom.kind !== "group") continue
      const inner = t.atom.alts
      const repeated = t.max > 1 && t.max > t.min
      const text = src.slice(t.start, t.end)
      if (repeated && containsRepetition(inner) && !hasSeparator(inner)) {
        return `nested quantifier in "${text}": a repeated group contains another repetition, so text that almost matches can take exponential time; make the inner part fixed-length or end each repetition with a character the inner part cannot match (like "(?:[a-z]+\\.)+")`
      }
      if (repeated && inner.length >= 2 && alternativesOverlap(inner)) {
        return `ambiguous alternation in "${text}": alternatives of a repeated group can start with the same character, so text that almost matches can take exponential time; make the alternatives start differently`
      }
      const deeper = findProblem(inner, src)
      if (deeper) return deeper
    }
  }
  return undefined
}

function containsRepetition(alts: Term[][]): boolean {
  return alts.some((seq) =>
    seq.some((t) => t.max > t.min || (t.atom.kind === "group" && containsRepetition(t.atom.alts))),
  )
}

/** Every alternative has a mandatory single character the repeated parts can never match. */
function hasSeparator(alts: Term[][]): boolean {
  const repeated = repeatedChars(alts)
  return alts.every((seq) =>
    seq.some((t) => {
      if (t.min !== 1 || t.max !== 1) return false
      if (t.atom.kind === "chars") return disjoint(t.atom.chars, repeated)
      if (t.atom.kind === "group" && !t.atom.look && !nullable(t.atom)) return disjoint(allChars(t.atom), repeated)
      return false
    }),
  )
}

function repeatedChars(alts: Term[][]): Chars {
  const out = new Uint8Array(129)
  for (const seq of alts) {
    for (const t of seq) {
      if (t.max > t.min) union(out, allChars(t.atom))
      else if (t.atom.kind === "group") union(out, repeatedChars(t.atom.alts))
    }
  }
  return out
}

function alternativesOverlap(alts: Term[][]): boolean {
  const firsts = alts.map(firstChars)
  for (let i = 0; i < firsts.length; i++)
    for (let j = i + 1; j < firsts.length; j++) if (!disjoint(firsts[i]!, firsts[j]!)) return true
  return false
}

function firstChars(seq: Term[]): Chars {
  const out = new Uint8Array(129)
  for (const t of seq) {
    if (t.atom.kind === "assert" || (t.atom.kind === "group" && t.atom.look)) continue
    if (t.atom.kind === "chars") union(out, t.atom.chars)
    else if (t.atom.kind === "backref") out.fill(1)
    else for (const alt of t.atom.alts) union(out, firstChars(alt))
    if (t.min >= 1 && !nullable(t.atom)) break
  }
  return out
}

function allChars(atom: Atom): Chars {
  if (atom.kind === "chars") return atom.chars
  const out = new Uint8Array(129)
  if (atom.kind === "backref") out.fill(1)
  if (atom.kind === "group" && !atom.look) for (const seq of atom.alts) for (const t of seq) union(out, allChars(t.atom))
  return out
}

function nullable(atom: Atom): boolean {
  if (atom.kind === "chars") return false
  if (atom.kind !== "group" || atom.look) return true
  return atom.alts.some((seq) => seq.every((t) => t.min === 0 || nullable(t.atom)))
}

function union(into: Chars, from: Chars): void {
  for (let i = 0; i < 129; i++) if (from[i]) into[i] = 1
}

function disjoint(a: Chars, b: Chars): boolean {
  for (let i = 0; i < 129; i++) if (a[i] && b[i]) return false
  return true
}

/** Just enough of the JS regex grammar to see repetitions, groups and character sets. */
function parse(src: string, caseless: boolean): Term[][] {
  let i = 0
  // off while reading a class: ranges need their raw endpoints; the class is folded as a whole
  let fold = caseless
  const alts = alternatives()
  if (i < src.length) throw new Error(`unexpected "${src[i]}" at ${i}`)
  return alts

  function alternatives(): Term[][] {
    const out: Term[][] = [sequence()]
    while (src[i] === "|") {
      i++
      out.push(sequence())
    }
    return out
  }

  function sequence(): Term[] {
    const seq: Term[] = []
    while (i < src.length && src[i] !== "|" && src[i] !== ")") seq.push(term())
    return seq
  }

  function term(): Term {
    const start = i
    const a = atom()
    let min = 1
    let max = 1
    const c = src[i]
    const braces = /^\{(\d+)(?:(,)(\d*))?\}/.exec(src.slice(i))
    if (c === "*" || c === "+" || c === "?") {
      ;[min, max] = c === "*" ? [0, Infinity] : c === "+" ? [1, Infinity] : [0, 1]
      i++
    } else if (braces) {
      min = Number(braces[1])
      max = braces[2] ? (braces[3] ? Number(braces[3]) : Infinity) : min
      i += braces[0].length
    }
    if ((min !== 1 || max !== 1) && src[i] === "?") i++
    return { atom: a, min, max, start, end: i }
  }

  function atom(): Atom {
    const c = src[i++]!
    if (c === "(") return group()
    if (c === "[") return { kind: "chars", chars: charClass() }
    if (c === ".") return { kind: "chars", chars: setOf((code) => code !== 10 && code !== 13, true) }
    if (c === "^" || c === "$") return { kind: "assert" }
    if (c === "\\") return escape()
    return { kind: "chars", chars: literal(c.charCodeAt(0)) }
  }

  function group(): Atom {
    const rest = src.slice(i)
    const head = /^\?(?:<?[=!]|:|<[A-Za-z_$][\w$]*>|[a-z]*-?[a-z]*:)/.exec(rest)
    if (!head && rest.startsWith("?")) throw new Error(`unknown group "(${rest.slice(0, 4)}"`)
    const look = head !== null && /^\?<?[=!]/.test(head[0])
    i += head ? head[0].length : 0
    const inner = alternatives()
    if (src[i] !== ")") throw new Error("unclosed group")
    i++
    return { kind: "group", alts: inner, look }
  }

  function escape(): Atom {
    const c = src[i++] ?? "\\"
    if (c === "b" || c === "B") return { kind: "assert" }
    if (/[1-9]/.test(c) || (c === "k" && src[i] === "<")) {
      while (/\d/.test(src[i] ?? "")) i++
      if (c === "k") i = src.indexOf(">", i) + 1
      return { kind: "backref" }
    }
    return { kind: "chars", chars: escapeChars(c) }
  }

  /** The characters an escape stands for, inside or outside a class (the escape letter is consumed). */
  function escapeChars(c: string): Chars {
    switch (c) {
      case "d": return setOf(isDigit, false)
      case "D": return setOf((x) => !isDigit(x), true)
      case "w": return setOf(isWord, false)
      case "W": return setOf((x) => !isWord(x), true)
      case "s": return setOf(isSpace, true)
      case "S": return setOf((x) => !isSpace(x), true)
      case "p": case "P":
        if (src[i] === "{") i = src.indexOf("}", i) + 1
        return setOf(() => true, true)
      case "n": return literal(10)
      case "r": return literal(13)
      case "t": return literal(9)
      case "f": return literal(12)
      case "v": return literal(11)
      case "0": return literal(0)
      case "x": case "u": {
        const hex = /^(?:\{([0-9a-fA-F]+)\}|[0-9a-fA-F]{2,4})/.exec(src.slice(i))
        const digits = hex ? (hex[1] ?? hex[0].slice(0, c === "x" ? 2 : 4)) : ""
        i += hex ? (hex[1] ? hex[0].length : digits.length) : 0
        return literal(digits ? parseInt(digits, 16) : c.charCodeAt(0))
      }
      case "c": return literal(src.charCodeAt(i++) % 32)
      default: return literal(c.charCodeAt(0))
    }
  }

  function charClass(): Chars {
    const negate = src[i] === "^"
    if (negate) i++
    let out: Chars = new Uint8Array(129)
    fold = false
    let first = true
    while (i < src.length && (src[i] !== "]" || first)) {
      first = false
      const lo = classItem()
      if (src[i] === "-" && i + 1 < src.length && src[i + 1] !== "]" && lo.code !== undefined) {
        i++
        const hi = classItem()
        if (hi.code === undefined) {
          union(out, lo.chars)
          union(out, hi.chars)
          out[45] = 1
        } else union(out, range(lo.code, hi.code))
      } else union(out, lo.chars)
    }
    if (src[i] !== "]") throw new Error("unclosed character class")
    i++
    fold = caseless
    if (fold) out = foldCase(out)
    return negate ? out.map((v, k) => (k === 128 || !v ? 1 : 0)) : out
  }

  function classItem(): { chars: Chars; code?: number } {
    const c = src[i++]!
    if (c !== "\\") return { chars: literal(c.charCodeAt(0)), code: c.charCodeAt(0) }
    const e = src[i++] ?? "\\"
    if (e === "b") return { chars: literal(8), code: 8 }
    const chars = escapeChars(e)
    if (/[dDwWsSpP]/.test(e)) return { chars }
    const single = chars.reduce((n, v) => n + v, 0) === 1 ? chars.indexOf(1) : -1
    return { chars, code: single >= 0 && single < 128 ? single : undefined }
  }

  function range(lo: number, hi: number): Chars {
    return setOf((x) => x >= lo && x <= hi, hi > 127)
  }

  function literal(code: number): Chars {
    const out = new Uint8Array(129)
    out[code > 127 ? 128 : code] = 1
    return fold ? foldCase(out) : out
  }
}

function setOf(has: (code: number) => boolean, nonAscii: boolean): Chars {
  const out = new Uint8Array(129)
  for (let k = 0; k < 128; k++) if (has(k)) out[k] = 1
  if (nonAscii) out[128] = 1
  return out
}

function foldCase(chars: Chars): Chars {
  const out = chars.slice()
  for (let k = 65; k <= 90; k++) if (chars[k] || chars[k + 32]) out[k] = out[k + 32] = 1
  return out
}

const isDigit = (x: number) => x >= 48 && x <= 57
const isWord = (x: number) => isDigit(x) || (x >= 65 && x <= 90) || (x >= 97 && x <= 122) || x === 95
const isSpace = (x: number) => (x >= 9 && x <= 13) || x === 32
