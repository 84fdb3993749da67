// Redaction of output that arrives in chunks: emits what no later chunk can change and holds back the
// rest (the current line, an open key block, the start of a known multi-line secret). The emitted
// pieces joined are the redaction of the whole. Never emits a character it has not scanned in context.
import { render, type Span } from "./spans.ts"
import { openHereDoc } from "./stdin.ts"

/** Up to this length a line is held until its newline; longer ones are cut at whitespace. */
const MAX_LINE = 64 * 1024
/** Longer than any match that can contain whitespace (key blocks are held whole instead). */
const MARGIN = 8 * 1024
/** Farther than any rule looks behind its match (`login user password`): kept after a cut inside a line. */
const CONTEXT = 1024
/** Past this, output goes out even without whitespace to cut at (one giant token, e.g. base64). */
const MAX_HOLD = 1024 * 1024

export interface Stream {
  push(chunk: string): string
  flush(): string
}

/** `find` gives the merged spans of a text; `values` are the known secrets (those spanning lines matter). */
export function createStream(find: (text: string) => Span[], values: readonly string[]): Stream {
  const multiline = values.filter((v) => v.includes("\n"))
  let held = ""
  // after a cut inside a line: the end of what went out, so rules that look behind still see it
  let context = ""
  return {
    push(chunk) {
      if (chunk === "") return ""
      held += chunk
      // without a new line end nothing can be released yet
      if (held.length <= MAX_LINE && !chunk.includes("\n")) return ""
      const text = context + held
      const spans = find(text)
      const cut = safeCut(text, context.length, spans, multiline)
      if (cut <= context.length) return ""
      const out = render(text, spans, context.length, cut)
      context = text[cut - 1] === "\n" ? "" : text.slice(Math.max(0, cut - CONTEXT), cut)
      held = text.slice(cut)
      return out
    },
    flush() {
      const text = context + held
      const out = render(text, find(text), context.length)
      held = ""
      context = ""
      return out
    },
  }
}

/** Where the text (context + held) can be split so that no span straddles it and nothing after it can
 *  change what comes before. Returns `from` or less when nothing can go out yet. */
function safeCut(text: string, from: number, spans: readonly Span[], multiline: readonly string[]): number {
  const lineStart = (pos: number) => text.lastIndexOf("\n", pos - 1) + 1
  // only key blocks, known values and here-docs fed to a password option cross a newline; every other
  // rule reads within one line
  let cut = Math.min(lineStart(text.length), partialValue(text, multiline, lineStart), openObject(text, from), openHereDoc(text, from))
  for (let before = -1; cut !== before; ) {
    before = cut
    // a line ending in a backslash goes on in the next (`mysql -u root \` then `  -pSECRET`)
    while (cut > 1 && text[cut - 1] === "\n" && text[cut - 2] === "\\") cut = lineStart(cut - 1)
    cut = clear(text, spans, cut, lineStart)
  }
  if (cut > from || text.length - from <= MAX_LINE) return cut

  const afterSpace = (pos: number) => lastSpace(text, pos) + 1
  cut = clear(text, spans, afterSpace(text.length - MARGIN), afterSpace)
  if (cut > from || text.length - from <= MAX_HOLD) return cut
  return clear(text, spans, text.length - MARGIN, (pos) => pos)
}

/** Moves `cut` back (with `back`) until no span straddles it and no span that may still grow (it
 *  touches the end) begins before it. */
function clear(text: string, spans: readonly Span[], cut: number, back: (pos: number) => number): number {
  for (let k = spans.length - 1; k >= 0 && cut > 0; k--) {
    const s = spans[k]!
    const origin = Math.min(s.origin ?? s.start, s.start)
    if (origin >= cut) continue
    // found from text before the cut (a program name on an earlier line): goes out with it
    if (s.start >= cut) cut = back(origin)
    else if (s.end > cut || s.end === text.length) cut = back(origin)
    else break // sorted and disjoint: every earlier span ends before this one
  }
  return cut
}

/** Start of the line where the held text ends with the beginning of a known multi-line value. */
function partialValue(text: string, values: readonly string[], lineStart: (pos: number) => number): number {
  let cut = text.length
  for (const v of values) {
    const firstLine = v.slice(0, v.indexOf("\n") + 1)
    for (let i = text.indexOf(firstLine, Math.max(0, text.length - v.length + 1)); i !== -1; i = text.indexOf(firstLine, i + 1)) {
      if (v.startsWith(text.slice(i))) {
        cut = Math.min(cut, lineStart(i))
        break
      }
    }
  }
  return cut
}

/** A JSON object printed over several lines decides what its members are from all of them (a JWK's
 *  `"d"` is a secret because of its `"kty"`): the start of the first line that opens an object still
 *  open at the end of the text (`{`, `"key": {`), or the text's length when there is none. */
function openObject(text: string, from: number): number {
  OPENS_LINE.lastIndex = from
  if (!OPENS_LINE.test(text)) return text.length
  const opened: { at: number; depth: number }[] = []
  let depth = 0
  let inString = false
  let lineStart = from
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i++ // backslash
      else if (c === 34 || c === 10) inString = false
      continue
    }
    if (c === 34) inString = true
    else if (c === 123) {
      depth++
      if (OPENER.test(text.slice(lineStart, text.indexOf("\n", i) < 0 ? text.length : text.indexOf("\n", i)))) opened.push({ at: lineStart, depth })
    } else if (c === 125) {
      depth--
      while (opened.length > 0 && opened[opened.length - 1]!.depth > depth) opened.pop()
    } else if (c === 10) lineStart = i + 1
  }
  return opened[0]?.at ?? text.length
}

const OPENS_LINE = /\{[ \t]*\r?\n/g
const OPENER = /^[ \t]*(?:"[^"\n]{0,256}"[ \t]*:[ \t]*|\[[ \t]*)?\{[ \t]*\r?$/

function lastSpace(text: string, before: number): number {
  const from = before - 1
  return Math.max(text.lastIndexOf(" ", from), text.lastIndexOf("\t", from), text.lastIndexOf("\r", from))
}
