// The bundled policies as one JSON text per policy, and the fingerprint of each merged one, computed
// when the code is bundled: bundled.ts imports `bundledTexts` as a Bun macro, so the binary carries
// short strings and parses only the policy it uses (turning the whole of policies/bundled.json into
// objects at import cost ~0.5 ms per start), and a directory with no policy files of its own is
// stamped without hashing the policy again.
import data from "../../policies/bundled.json" with { type: "json" }
import { policyFingerprint } from "./fingerprint.ts"
import type { Policy } from "./types.ts"

export interface BundledTexts {
  layers: Record<string, string>
  merged: Record<string, string>
  /** policyFingerprint of each merged policy as bundledPolicy returns it */
  fingerprints: Record<string, string>
}

export function bundledTexts(): BundledTexts {
  const each = (group: Record<string, unknown>) => Object.fromEntries(Object.entries(group).map(([name, value]) => [name, JSON.stringify(value)]))
  const merged = each(data.merged)
  const fingerprints = Object.fromEntries(Object.entries(merged).map(([name, text]) => [name, policyFingerprint(JSON.parse(text) as Policy)]))
  return { layers: each(data.layers), merged, fingerprints }
}
