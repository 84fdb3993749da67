// Precompiles the bundled policies (YAML, examples proven) to policies/bundled.json, which the binary
// embeds so no YAML or zod is loaded on the hot path. Run: `bun policies/build.ts` after editing a policy.
import { BUNDLED_NAMES, type BundledName, type Layer } from "../core/policy/layer.ts"

export async function buildBundled(): Promise<Record<BundledName, Layer>> {
  const { parsePolicy } = await import("../core/policy/parse.ts")
  const out = {} as Record<BundledName, Layer>
  for (const name of BUNDLED_NAMES) {
    const text = await Bun.file(new URL(`./${name}.yaml`, import.meta.url)).text()
    out[name] = await parsePolicy(text, `builtin:${name}.yaml`, { name: "builtin", trusted: true })
  }
  return out
}

export function serialise(layers: Record<BundledName, Layer>): string {
  return JSON.stringify(layers, null, 1) + "\n"
}

if (import.meta.main) {
  const target = new URL("./bundled.json", import.meta.url)
  await Bun.write(target, serialise(await buildBundled()))
  console.error(`wrote ${target.pathname}`)
}
