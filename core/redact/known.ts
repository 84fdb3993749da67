// Exact values of known secrets: env vars named by the policy, env vars whose names look secret,
// and literal values from the caller. Also finds them JSON-escaped and URL-encoded. Pure.
import { escapeRegex, type Rule } from "./spans.ts"
import { looksSecretName, looksSecretVariable } from "../base/secretname.ts"

export interface KnownSources {
  env?: Record<string, string | undefined>
  envNames?: string[]
  secrets?: string[]
}

/** Shorter values would mask ordinary words and numbers everywhere. */
export const MIN_KNOWN_LENGTH = 8

/** A line of key material: long, no blanks (not `Encryption: none` or `-----END ... KEY-----`). */
const KEY_LINE = /^[^\s-][^\s]{15,}$/

// the rule lives in core/base, where the shell analysis reads it too
export { looksSecretName, looksSecretVariable }

/** One rule matching every known value in a single pass, or nothing when there are none. */
export function knownValueRule(src: KnownSources): Rule | undefined {
  const markers = new Map<string, string>()
  const add = (value: string | undefined, marker: string) => {
    if (!value || value.length < MIN_KNOWN_LENGTH) return
    for (const form of encodings(value)) if (!markers.has(form)) markers.set(form, marker)
    // a key in a variable, printed a line at a time (`printenv | grep`, `head -3`): each line of key
    // material is a secret of its own
    if (value.includes("\n")) {
      for (const line of value.split(/\r?\n/)) if (KEY_LINE.test(line) && !markers.has(line)) markers.set(line, marker)
    }
  }
  const env = src.env ?? {}
  for (const name of src.envNames ?? []) add(env[name], `[REDACTED:env:${name}]`)
  for (const [name, value] of Object.entries(env)) if (looksSecretVariable(name, env)) add(value, `[REDACTED:env:${name}]`)
  for (const value of src.secrets ?? []) add(value, "[REDACTED:secret]")
  if (markers.size === 0) return undefined
  // longest first: where one value contains another, the whole of the longer one goes
  const forms = [...markers.keys()].sort((a, b) => b.length - a.length)
  return {
    id: "known-secret",
    anchors: forms,
    re: new RegExp(forms.map(escapeRegex).join("|"), "g"),
    markerOf: (match) => markers.get(match) ?? "[REDACTED:secret]",
    values: forms,
  }
}

/** The value as written, as it appears inside a JSON string, and URL-encoded; also without the
 *  surrounding whitespace a value read from a file often carries (`token\n`). */
export function encodings(value: string): string[] {
  const trimmed = value.trim()
  const bases = trimmed !== value && trimmed.length >= MIN_KNOWN_LENGTH ? [value, trimmed] : [value]
  const forms = new Set(bases.flatMap((v) => [v, JSON.stringify(v).slice(1, -1), encodeURIComponent(v)]))
  return [...forms]
}
