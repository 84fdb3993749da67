// The bundled policies (default, strict, ci), embedded pre-parsed so loading them costs no YAML or zod.
// Generated from policies/*.yaml by `bun policies/build.ts`; a test keeps them in sync. Pure.
import data from "../../policies/bundled.json" with { type: "json" }
import type { Layer, BundledName } from "./layer.ts"
import type { Policy } from "./types.ts"
import { BUNDLED_NAMES } from "./layer.ts"

const bundled = data as unknown as { layers: Record<BundledName, Layer>; merged: Record<BundledName, Policy> }

export function bundledLayer(name: BundledName): Layer {
  return bundled.layers[name]
}

/** The bundled policy already merged (a fresh copy): what applies where no other layer exists. */
export function bundledPolicy(name: BundledName): Policy {
  return structuredClone(bundled.merged[name])
}

export function isBundledName(name: string): name is BundledName {
  return (BUNDLED_NAMES as readonly string[]).includes(name)
}
