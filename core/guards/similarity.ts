// How the loop detector tells calls and errors apart: canonical args, short content hashes,
// normalised error text and word-set similarity. Pure: no fs, no clock.
import { sha256 } from "../base/hash.ts"

/** The same call written differently (key order, whitespace, args as a JSON string) gives the same text. */
export function canonicalArgs(args: unknown): string {
  // not base/json.ts's canonicalJson: JSON.stringify puts integer-like keys first ("9" before "10"),
  // and loop keys already stored in checkpoints must keep comparing equal after an upgrade
  return JSON.stringify(squeezeStrings(parseIfJson(args)))
}

/** 16 hex chars of SHA-256: stable across versions, so hashes stored in a checkpoint still compare after an upgrade. */
export function shortHash(text: string): string {
  return sha256(text).slice(0, 16)
}

/** Hash of a tool's output with numbers masked: a new timing or pid does not make an answer new. */
export function outputHash(text: string): string {
  return shortHash(text.replace(/\d+/g, "N"))
}

/**
 * Error text with the parts that change between attempts of the same mistake replaced:
 * quoted strings -> "STR", paths -> /PATH, numbers -> N. Lower-cased.
 */
export function normaliseError(text: string): string {
  return text
    .toLowerCase()
    .replace(/"(?:[^"\\\n]|\\.)*"|'[^'\n]*'|`[^`\n]*`/g, ' "STR" ')
    .replace(/(?:[a-z]:\\|~?\.{0,2}\/)?(?:[\w.@+-]+[/\\])+[\w.@+-]*|(?<![\w/])\/[\w.@+-]+|[a-z]:\\[\w.@+-]*/gi, " /PATH ")
    .replace(/\b0x[0-9a-f]+\b|\d+(?:\.\d+)*/g, "N")
    .replace(/\s+/g, " ")
    .trim()
}

/** The set of words of a normalised error (punctuation dropped, markers kept). */
export function wordSet(normalised: string): Set<string> {
  return new Set(normalised.match(/"STR"|\/PATH|[a-z0-9_]+|N/gi) ?? [])
}

/** |A ∩ B| / |A ∪ B|; two empty sets are identical. */
export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1
  let shared = 0
  for (const word of a) if (b.has(word)) shared++
  return shared / (a.size + b.size - shared)
}

function parseIfJson(value: unknown): unknown {
  if (typeof value !== "string") return value
  const trimmed = value.trim()
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return value
  try {
    return JSON.parse(trimmed)
  } catch {
    return value
  }
}

// Keys sorted, whitespace inside strings squeezed, a key set to undefined the same as no key.
function squeezeStrings(value: unknown): unknown {
  if (typeof value === "string") return value.replace(/\s+/g, " ").trim()
  if (Array.isArray(value)) return value.map(squeezeStrings)
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key]
      if (item !== undefined) out[key] = squeezeStrings(item)
    }
    return out
  }
  return value ?? null
}
