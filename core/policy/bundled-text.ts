// The bundled policies as one JSON text per policy, computed when the code is bundled: bundled.ts
// imports `bundledTexts` as a Bun macro, so the binary carries short strings and parses only the policy
// it uses (turning the whole of policies/bundled.json into objects at import cost ~0.5 ms per start).
import data from "../../policies/bundled.json" with { type: "json" }

export interface BundledTexts {
  layers: Record<string, string>
  merged: Record<string, string>
}

export function bundledTexts(): BundledTexts {
  const each = (group: Record<string, unknown>) => Object.fromEntries(Object.entries(group).map(([name, value]) => [name, JSON.stringify(value)]))
  return { layers: each(data.layers), merged: each(data.merged) }
}
