// The characters a regex's match can begin with, read from its source: a one-character test that may
// spare the regex call (most places a common anchor such as "token" occurs fail at the character after
// it). Sound or silent: a construct it does not know makes it answer undefined (no test). Pure.

/** Index 0-127: that ASCII character may come first; index 128: any non-ASCII character may. */
export type FirstChars = Uint8Array

/** A set that holds the character at any place where `source` (flags `ignoreCase`, no `u`/`v`)
 *  matches, or undefined when it may match with no character there (at the end of a text, or by an
 *  empty match) or holds something this reader does not know. A lookahead at its start counts (a
 *  `follow` is one); other zero-width assertions are skipped: they only ever forbid. */
export function firstChars(source: string, ignoreCase: boolean): FirstChars | undefined {
  try {
    const p = new Reader(source)
    const node = p.alternation()
    if (p.i !== source.length || node.at === undefined) return undefined
    const set = node.at
    if (ignoreCase) {
      for (let c = 65; c <= 90; c++) if (set[c] || set[c + 32]) set[c] = set[c + 32] = 1
    }
    return set
  } catch {
    return undefined
  }
}

interface Node {
  /** what a match that consumes characters begins with */
  first: Uint8Array
  /** it may match consuming nothing */
  nullable: boolean
  /** holds the character where it matches (undefined: no such set) */
  at: Uint8Array | undefined
  /** a zero-width assertion */
  assertion?: boolean
}

const ALL = () => new Uint8Array(129).fill(1)
const NONE = () => new Uint8Array(129)
const union = (a: Uint8Array, b: Uint8Array) => a.map((x, i) => x | b[i]!)
const consuming = (first: Uint8Array): Node => ({ first, nullable: false, at: first })

class Reader {
  i = 0
  constructor(readonly s: string) {}

  alternation(): Node {
    let node = this.sequence()
    while (this.s[this.i] === "|") {
      this.i++
      const next = this.sequence()
      node = {
        first: union(node.first, next.first),
        nullable: node.nullable || next.nullable,
        at: node.at && next.at ? union(node.at, next.at) : undefined,
      }
    }
    return node
  }

  sequence(): Node {
    const items: Node[] = []
    while (this.i < this.s.length && this.s[this.i] !== "|" && this.s[this.i] !== ")") items.push(this.quantified())
    // what it consumes first: the items up to the first that must consume (assertions consume nothing)
    const first = NONE()
    let nullable = true
    for (const item of items) {
      if (item.assertion) continue
      first.set(union(first, item.first))
      if (!item.nullable) {
        nullable = false
        break
      }
    }
    // the character where it matches: what the items that may consume nothing before it may begin
    // with, and what the first item that holds the character there says
    let at: Uint8Array | undefined
    const before = NONE()
    for (const item of items) {
      if (item.at !== undefined || !item.nullable) {
        at = union(before, item.at ?? item.first)
        break
      }
      if (!item.assertion) before.set(union(before, item.first))
    }
    return { first, nullable, at }
  }

  quantified(): Node {
    const atom = this.atom()
    const q = /^(?:[?*]|\+|\{(\d+)(?:,\d*)?\})\??/.exec(this.s.slice(this.i))
    if (!q) return atom
    if (atom.assertion) throw new Error("quantified assertion")
    this.i += q[0].length
    const min = q[0][0] === "+" ? 1 : q[1] !== undefined ? Number(q[1]) : 0
    return min === 0 ? { first: atom.first, nullable: true, at: undefined } : atom
  }

  atom(): Node {
    const c = this.s[this.i++]!
    const assertion = (at?: Uint8Array): Node => ({ first: NONE(), nullable: true, at, assertion: true })
    if (c === "(") {
      const rest = this.s.slice(this.i)
      const look = /^\?(<?)([=!])/.exec(rest)
      if (look) {
        this.i += look[0].length
        const inner = this.alternation()
        this.expect(")")
        // only a lookahead that must hold says what comes next
        return assertion(look[1] === "" && look[2] === "=" ? inner.at : undefined)
      }
      if (rest.startsWith("?:")) this.i += 2
      else if (/^\?<[A-Za-z_$][\w$]*>/.test(rest)) this.i += rest.indexOf(">") + 1
      else if (rest[0] === "?") throw new Error("unknown group")
      const node = this.alternation()
      this.expect(")")
      return node
    }
    if (c === "^" || c === "$") return assertion()
    if (c === ".") return consuming(ALL())
    if (c === "[") return consuming(this.charClass())
    if (c === "\\") {
      const e = this.s[this.i++]!
      if (e === "b" || e === "B") return assertion()
      return consuming(this.escape(e))
    }
    if ("*+?{}])|".includes(c)) throw new Error(`unexpected ${c}`)
    return consuming(one(c.charCodeAt(0)))
  }

  charClass(): Uint8Array {
    const negated = this.s[this.i] === "^"
    if (negated) this.i++
    const set = NONE()
    while (this.s[this.i] !== "]") {
      if (this.i >= this.s.length) throw new Error("open class")
      const lo = this.classAtom()
      if (this.s[this.i] === "-" && this.s[this.i + 1] !== "]") {
        this.i++
        const hi = this.classAtom()
        if (typeof lo !== "number" || typeof hi !== "number") throw new Error("class range of a class")
        for (let c = lo; c <= Math.min(hi, 127); c++) set[c] = 1
        if (hi >= 128) set[128] = 1
      } else if (typeof lo === "number") set[Math.min(lo, 128)] = 1
      else set.set(union(set, lo))
    }
    this.i++
    if (!negated) return set
    // a negated class: every ASCII character not in it, and any non-ASCII one
    return set.map((x, i) => (i === 128 ? 1 : x ? 0 : 1))
  }

  /** One character's code, or a class escape's set. */
  classAtom(): number | Uint8Array {
    const c = this.s[this.i++]!
    if (c !== "\\") return c.charCodeAt(0)
    const e = this.s[this.i++]!
    if ("dDwWsS".includes(e)) return this.escape(e)
    const code = CONTROL[e]
    if (code !== undefined) return code
    if (/[A-Za-z0-9]/.test(e)) throw new Error(`escape \\${e}`)
    return e.charCodeAt(0)
  }

  escape(e: string): Uint8Array {
    const set = NONE()
    const add = (re: RegExp) => {
      for (let c = 0; c < 128; c++) if (re.test(String.fromCharCode(c))) set[c] = 1
    }
    if (e === "d") add(/\d/)
    else if (e === "w") add(/\w/)
    else if (e === "s") (add(/\s/), (set[128] = 1))
    else if (e === "D" || e === "W" || e === "S") {
      add(e === "D" ? /\D/ : e === "W" ? /\W/ : /\S/)
      set[128] = 1
    } else if (CONTROL[e] !== undefined) set[CONTROL[e]] = 1
    else if (/[A-Za-z0-9]/.test(e)) throw new Error(`escape \\${e}`)
    else set[Math.min(e.charCodeAt(0), 128)] = 1
    return set
  }

  expect(c: string): void {
    if (this.s[this.i++] !== c) throw new Error(`expected ${c}`)
  }
}

const CONTROL: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13, "0": 0 }

function one(code: number): Uint8Array {
  const set = NONE()
  set[Math.min(code, 128)] = 1
  return set
}
