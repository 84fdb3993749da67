// The words of one command line as the shell would split them, each with where every character of
// its value came from in the text, so a secret can be hidden in any spelling: attached, after `=`,
// quoted, escaped, inside `$'...'`. Pure. Reads from a program name up to the end of its command.

export interface ShellWord {
  /** the word after quote removal */
  value: string
  /** for each character of `value`, where it was written in the text (from a quote or backslash
   *  escaping it) and where it ends */
  at: number[]
  to: number[]
  /** where the word starts and ends in the text */
  start: number
  end: number
  /** the target of a redirect (`> out.txt`): neither a flag nor an argument */
  redirect: boolean
}

/** How text is read: as written, or as the inside of a JSON string (`\"` is a quote, `"` ends it). */
export type Reading = "shell" | "json"

/** Longer than commands people type (a curl with a few KB of inline JSON); with MAX_WORDS, a bound
 *  on the work done after one program name, so a text made of program names stays linear. */
export const MAX_COMMAND = 16 * 1024
const MAX_WORDS = 64

/** The words from `from` to the end of the command (an unquoted newline, `;`, `|`, `&`, `)`, `#`). */
export function commandWords(text: string, from: number, reading: Reading): ShellWord[] {
  const words: ShellWord[] = []
  const limit = Math.min(text.length, from + MAX_COMMAND)
  const r = new Reader(text, from, limit, reading)
  let redirect = false
  for (;;) {
    r.skipBlanks()
    const c = r.peek()
    if (c === undefined || c === "\n" || c === ";" || c === "|" || c === "&" || c === ")" || c === "#") break
    if (c === "<" || c === ">") {
      while (r.peek() === "<" || r.peek() === ">" || r.peek() === "&") r.next()
      redirect = true
      continue
    }
    const word = readWord(r)
    if (word === undefined || words.length >= MAX_WORDS) break
    word.redirect = redirect
    redirect = false
    words.push(word)
  }
  return words
}

function readWord(r: Reader): ShellWord | undefined {
  const start = r.pos
  const w: ShellWord = { value: "", at: [], to: [], start, end: start, redirect: false }
  /** takes the current character into the value as `ch` (or as itself) */
  const take = (from: number, ch = r.peek()!) => {
    r.next()
    w.value += ch
    w.at.push(from)
    w.to.push(r.pos)
  }
  /** takes the characters up to the first of `stops` as they are (a quote can run for KBs: one
   *  slice instead of a string per character); as written only, where each is itself */
  const takeRun = (stops: string) => {
    const from = r.pos
    const to = r.runEnd(stops)
    if (to === from) return
    w.value += r.text.slice(from, to)
    for (let i = from; i < to; i++) {
      w.at.push(i)
      w.to.push(i + 1)
    }
    r.moveTo(to)
  }
  for (;;) {
    const c = r.peek()
    if (c === undefined || c === " " || c === "\t" || c === "\n" || ";|&)<>".includes(c)) break
    const pos = r.pos
    if (c === "\\") {
      r.next()
      const e = r.peek()
      if (e === undefined) break
      if (e === "\n") r.next() // a backslash-newline joins lines
      else take(pos)
    } else if (c === "'") {
      r.next()
      takeRun("'")
      for (let q = r.peek(); q !== undefined && q !== "'"; q = r.peek()) take(r.pos)
      r.next()
    } else if (c === '"') {
      r.next()
      for (let q = r.peek(); q !== undefined && q !== '"'; q = r.peek()) {
        takeRun('"\\')
        q = r.peek()
        if (q === undefined || q === '"') break
        const qp = r.pos
        if (q !== "\\") {
          take(qp)
          continue
        }
        r.next()
        const e = r.peek()
        if (e === undefined) break
        if (e === "\n") r.next()
        else if ('"\\$`'.includes(e)) take(qp)
        else {
          w.value += "\\"
          w.at.push(qp)
          w.to.push(r.pos)
        }
      }
      r.next()
    } else if (c === "$" && r.text[r.pos + 1] === "'" && r.reading === "shell") {
      // ANSI-C quoting: an escape stands for one character (which one does not matter here)
      r.next()
      r.next()
      for (let q = r.peek(); q !== undefined && q !== "'"; q = r.peek()) {
        const qp = r.pos
        if (q === "\\") {
          r.next()
          if (r.peek() === undefined) break
        }
        take(qp)
      }
      r.next()
    } else take(pos)
  }
  if (r.pos === start) return undefined
  w.end = r.pos
  return w
}

/** Characters as the shell sees them; in JSON reading, escapes are undone and a bare `"` ends the text. */
class Reader {
  pos: number
  private width = 1
  private char: string | undefined
  constructor(
    readonly text: string,
    from: number,
    private readonly limit: number,
    readonly reading: Reading,
  ) {
    this.pos = from
    this.load()
  }

  peek(): string | undefined {
    return this.char
  }

  /** Where the first of `stops` is from here on, or the limit; in JSON reading (escapes change
   *  characters) just here. */
  runEnd(stops: string): number {
    if (this.reading !== "shell") return this.pos
    const a = stops.charCodeAt(0)
    const b = stops.length > 1 ? stops.charCodeAt(1) : a
    let i = this.pos
    for (let c = this.text.charCodeAt(i); i < this.limit && c !== a && c !== b; c = this.text.charCodeAt(++i));
    return i
  }

  moveTo(pos: number): void {
    this.pos = pos
    this.load()
  }

  next(): void {
    this.pos += this.width
    this.load()
  }

  skipBlanks(): void {
    for (;;) {
      const c = this.char
      if (c === " " || c === "\t" || c === "\r") this.next()
      else if (c === "\\" && this.continues()) this.next()
      else break
    }
  }

  /** At a backslash: is it a backslash-newline (the command goes on)? Moves past the backslash if so. */
  private continues(): boolean {
    const [pos, width, char] = [this.pos, this.width, this.char]
    this.next()
    if (this.char === "\n") return true
    ;[this.pos, this.width, this.char] = [pos, width, char]
    return false
  }

  private load(): void {
    const i = this.pos
    if (i >= this.limit) return void (this.char = undefined)
    const c = this.text[i]!
    this.width = 1
    this.char = c
    if (this.reading === "shell") return
    if (c === '"') return void (this.char = undefined)
    if (c !== "\\") return
    // JSON escapes, also of JSON inside JSON: an odd run of backslashes escapes what follows it
    let k = 1
    while (k < 8 && this.text[i + k] === "\\") k++
    const e = this.text[i + k]
    const odd = k % 2 === 1
    this.width = k + (odd ? 1 : 0)
    if (!odd) this.char = "\\"
    else if (e === '"' || e === "/") this.char = e
    else if (e === "n") this.char = "\n"
    else if (e === "t") this.char = "\t"
    else if (e === "r") this.char = "\r"
    else this.width = k
  }
}
