// Precompiles the bundled policies (YAML, examples proven) to policies/bundled.json, which the binary
// embeds so no YAML or zod is loaded on the hot path. Run: `bun policies/build.ts` after editing a policy.
// Each policy is stored twice: as a layer (to merge user layers onto) and already merged (what a
// directory with no policy files of its own gets, without running the merge at startup).
import { BUNDLED_NAMES, type BundledName, type Layer } from "../core/policy/layer.ts"
import type { Policy } from "../core/policy/types.ts"
import { mergePolicy } from "../core/policy/merge.ts"

export interface Bundled {
  layers: Record<BundledName, Layer>
  merged: Record<BundledName, Policy>
}

export async function buildBundled(): Promise<Bundled> {
  const { parsePolicy } = await import("../core/policy/parse.ts")
  const layers = {} as Record<BundledName, Layer>
  const merged = {} as Record<BundledName, Policy>
  for (const name of BUNDLED_NAMES) {
    const text = await Bun.file(new URL(`./${name}.yaml`, import.meta.url)).text()
    layers[name] = await parsePolicy(text, `builtin:${name}.yaml`, { name: "builtin", trusted: true })
  }
  for (const name of BUNDLED_NAMES) merged[name] = mergePolicy([], () => layers[name])
  return { layers, merged }
}

export function serialise(bundled: Bundled): string {
  return JSON.stringify(bundled, null, 1) + "\n"
}

if (import.meta.main) {
  const target = new URL("./bundled.json", import.meta.url)
  await Bun.write(target, serialise(await buildBundled()))
  console.error(`wrote ${target.pathname}`)
}
