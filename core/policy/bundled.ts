// The bundled policies (default, strict, ci), embedded pre-parsed so loading them costs no YAML or zod.
// Generated from policies/*.yaml by `bun policies/build.ts`; a test keeps them in sync. Pure.
import data from "../../policies/bundled.json" with { type: "json" }
import type { Layer, BundledName } from "./layer.ts"
import { BUNDLED_NAMES } from "./layer.ts"

const layers = data as unknown as Record<BundledName, Layer>

export function bundledLayer(name: BundledName): Layer {
  return layers[name]
}

export function isBundledName(name: string): name is BundledName {
  return (BUNDLED_NAMES as readonly string[]).includes(name)
}
