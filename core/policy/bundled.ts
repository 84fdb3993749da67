// The bundled policies (default, strict, ci), embedded pre-parsed so loading them costs no YAML or zod.
// Generated from policies/*.yaml by `bun policies/build.ts`; a test keeps them in sync. Pure.
// evaluated at build time (a Bun macro): one JSON text per policy, parsed when first used
import { bundledTexts } from "./bundled-text.ts" with { type: "macro" }
import type { Layer, BundledName } from "./layer.ts"
import type { Policy } from "./types.ts"
import { BUNDLED_NAMES } from "./layer.ts"

const TEXTS = bundledTexts()
const layers = new Map<BundledName, Layer>()

export function bundledLayer(name: BundledName): Layer {
  let layer = layers.get(name)
  if (!layer) layers.set(name, (layer = JSON.parse(TEXTS.layers[name]!) as Layer))
  return layer
}

/** The bundled policy already merged (a fresh copy): what applies where no other layer exists. */
export function bundledPolicy(name: BundledName): Policy {
  return JSON.parse(TEXTS.merged[name]!) as Policy
}

/** policyFingerprint(bundledPolicy(name)), computed when the code was bundled. */
export function bundledFingerprint(name: BundledName): string {
  return TEXTS.fingerprints[name]!
}

export function isBundledName(name: string): name is BundledName {
  return (BUNDLED_NAMES as readonly string[]).includes(name)
}
