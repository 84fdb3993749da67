// The generator behind the redaction corpus: fake secrets derived from a fixed seed per kind, so the
// same kind always gets the same value and no live-looking credential is written out.

export interface CorpusEntry {
  /** what it is, unique */
  kind: string
  /** the exact text that must never be stored or printed */
  secret: string
  /** a realistic line (or block of output) containing it */
  line: string
}

export const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
export const LOWER = "abcdefghijklmnopqrstuvwxyz"
export const DIGITS = "0123456789"
export const ALNUM = UPPER + LOWER + DIGITS
export const HEX = "0123456789abcdef"
export const B64 = ALNUM + "+/"
export const URLSAFE = ALNUM + "_-"
export const BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"

export type Gen = (alphabet: string, n: number) => string

/** A generator seeded by the kind's name: the same kind always gets the same secret. */
function generator(seed: string): Gen {
  let h = 2166136261
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 16777619)
  let state = h >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return (alphabet, n) => {
    let out = ""
    for (let i = 0; i < n; i++) out += alphabet[Math.floor(next() * alphabet.length)]
    return out
  }
}

export function entry(kind: string, make: (g: Gen) => { secret: string; line: string }): CorpusEntry {
  return { kind, ...make(generator(kind)) }
}

/** A password-like value: mixed case, digits and a little punctuation, always with a digit. */
export const password = (g: Gen, n = 16) => g(ALNUM, n - 3) + g("-_.", 1) + g(DIGITS, 2)

export function pem(g: Gen, label: string, lines: number, first: string, width = 64): string {
  const body = [first + g(B64, width - first.length)]
  for (let i = 1; i < lines; i++) body.push(g(B64, width))
  body.push(g(B64, 24) + "==")
  return `-----BEGIN ${label}-----\n${body.join("\n")}\n-----END ${label}-----`
}

export const base64url = (s: string) => btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
