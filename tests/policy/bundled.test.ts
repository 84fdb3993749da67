// The bundled policies: embedded JSON in sync with the YAML, every example passes, values as documented.
import { describe, expect, test } from "bun:test"
import { buildBundled, serialise } from "../../policies/build.ts"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import embedded from "../../policies/bundled.json" with { type: "json" }
import { bundledFingerprint, bundledLayer, bundledPolicy } from "../../core/policy/bundled.ts"
import { policyFingerprint } from "../../core/policy/fingerprint.ts"
import { loadPolicy } from "../../core/policy/load.ts"
import { runExamples } from "../../core/policy/examples.ts"
import { mergePolicy } from "../../core/policy/merge.ts"
import { BUNDLED_NAMES } from "../../core/policy/layer.ts"

describe("bundled policies", () => {
  test("policies/bundled.json is what policies/*.yaml compile to (run `bun policies/build.ts`)", async () => {
    const built = serialise(await buildBundled())
    const embedded = await Bun.file(new URL("../../policies/bundled.json", import.meta.url)).text()
    expect(embedded).toBe(built)
  })

  test.each([...BUNDLED_NAMES])("every rule of %s has examples and they pass", async (name) => {
    const layer = bundledLayer(name)
    for (const rule of layer.value.rules ?? []) expect(rule.examples?.match?.length).toBeGreaterThan(0)
    expect(await runExamples(layer.value)).toEqual([])
  })

  test("all three refuse the same destructive commands", () => {
    const denies = (name: (typeof BUNDLED_NAMES)[number]) => JSON.stringify(bundledLayer(name).value.rules)
    expect(denies("strict")).toBe(denies("default"))
    expect(denies("ci")).toBe(denies("default"))
  })

  test("approval settings differ as documented", () => {
    const approval = (name: (typeof BUNDLED_NAMES)[number]) => mergePolicy([{ ...bundledLayer(name), value: { extends: name } }], bundledLayer).approval
    expect(approval("default")).toMatchObject({ mode: "auto", threshold: "low", on_ask: "prompt", timeout: 600_000 })
    expect(approval("strict")).toMatchObject({ mode: "manual", threshold: "safe", on_ask: "prompt" })
    expect(approval("ci")).toMatchObject({ mode: "auto", threshold: "medium", on_ask: "deny" })
  })

  test("ci has tighter limits than default", () => {
    const limits = (name: (typeof BUNDLED_NAMES)[number]) => bundledLayer(name).value.limits!
    expect(limits("ci").max_wall_time!).toBeLessThan(limits("default").max_wall_time!)
    expect(limits("ci").max_steps!).toBeLessThan(limits("default").max_steps!)
  })
})

test("the pre-merged bundled policies equal merging their layers", () => {
  for (const name of BUNDLED_NAMES) {
    expect(bundledPolicy(name)).toEqual(mergePolicy([], () => bundledLayer(name)))
    expect(bundledPolicy(name)).not.toBe(bundledPolicy(name))
  }
})

describe("bundled policies as the binary carries them", () => {
  test.each([...BUNDLED_NAMES])("%s as embedded per policy is bundled.json's, and each bundledPolicy is a fresh copy", (name) => {
    expect(bundledLayer(name)).toEqual(embedded.layers[name] as never)
    expect(bundledPolicy(name)).toEqual(embedded.merged[name] as never)
    const first = bundledPolicy(name)
    first.rules.length = 0
    first.approval.mode = "manual"
    expect(bundledPolicy(name)).toEqual(embedded.merged[name] as never)
  })

  test.each([...BUNDLED_NAMES])("the fingerprint of %s computed at build time is the one computed from the policy", (name) => {
    expect(bundledFingerprint(name)).toBe(policyFingerprint(bundledPolicy(name)))
  })

  test("a directory with no policy files is stamped with the bundled default's fingerprint, as computed from the policy", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ccode-bundled-"))
    try {
      const { policy } = await loadPolicy({ cwd: dir, workspace: dir, home: dir, env: {}, isTrusted: () => false, managedDir: join(dir, "managed") })
      expect(policy.fingerprint).toBe(policyFingerprint(policy))
      expect(policy.fingerprint).toBe(bundledFingerprint("default"))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
