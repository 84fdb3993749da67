// `ccode policy test`: run every example of the given policies and report each failure with its
// position, instead of stopping at the first as loading does. Reads the files it is given.
import { readFileSync } from "node:fs"
import { parseYaml, validateYaml, positionOf } from "../base/yaml.ts"
import { PolicyFile } from "./schema.ts"
import { layerFromValue } from "./parse.ts"
import { runExamples } from "./examples.ts"
import { bundledLayer, isBundledName } from "./bundled.ts"
import type { Layer } from "./layer.ts"

export interface PolicyTestResult {
  name: string
  examples: number
  failures: { where: string; rule: string; example: string; expected: "match" | "no_match"; problem: string }[]
}

/** `targets`: policy file paths, or `builtin:NAME` for a bundled policy. */
export async function testPolicies(targets: string[]): Promise<PolicyTestResult[]> {
  const results: PolicyTestResult[] = []
  for (const target of targets) results.push(await testOne(target))
  return results
}

async function testOne(target: string): Promise<PolicyTestResult> {
  const bundled = target.startsWith("builtin:") ? target.slice(8) : undefined
  if (bundled !== undefined && isBundledName(bundled)) {
    const layer = bundledLayer(bundled)
    const failures = await runExamples(layer.value)
    return {
      name: layer.label, examples: countExamples(layer.value),
      failures: failures.map((f) => ({ ...f, where: layer.at[f.path] ?? layer.label })),
    }
  }
  const src = parseYaml(readFileSync(target, "utf8"), target)
  const value = validateYaml(src, PolicyFile)
  // structure and regexes are checked as on load; examples are collected below rather than thrown
  await layerFromValue(value, src, [], { name: "workspace", trusted: true, skipExamples: true })
  const failures = await runExamples(value)
  return {
    name: target, examples: countExamples(value),
    failures: failures.map((f) => {
      const at = positionOf(src, f.path.split(".").map((k) => (/^\d+$/.test(k) ? Number(k) : k)))
      return { ...f, where: `${target}:${at.line}:${at.col}` }
    }),
  }
}

function countExamples(value: Layer["value"]): number {
  let n = 0
  for (const r of [...(value.rules ?? []), ...(value.risk?.commands ?? [])]) n += (r.examples?.match?.length ?? 0) + (r.examples?.no_match?.length ?? 0)
  return n
}
