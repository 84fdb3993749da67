// Layers -> the effective Policy, keeping the source of every value. Trusted layers override;
// an untrusted layer may only restrict, and each grant it tries is ignored and reported once. Pure.
import { basename } from "node:path"
import type { Policy, PolicyRule } from "./types.ts"
import type { Layer } from "./layer.ts"
import { sourceAt, type BundledName } from "./layer.ts"
import { fallbackPolicy } from "./defaults.ts"
import { mergeRest, riskNotAbove } from "./merge-sections.ts"

export type Extends = BundledName | "none"

/** Merge layers (lowest precedence first) on top of the bundled base their `extends` picks. */
export function mergePolicy(layers: readonly Layer[], bundled: (name: BundledName) => Layer): Policy {
  const policy = fallbackPolicy()
  const ignored = new Set<string>()
  const { name, source } = pickExtends(layers, ignored)
  policy.extends = name
  policy.sources.extends = source
  const all = name === "none" ? layers : [bundled(name), ...layers]
  for (const layer of all) applyLayer(policy, layer, ignored)
  policy.ignored = [...ignored]
  return policy
}

// The highest trusted layer that sets `extends` wins; an untrusted layer may only ask for `strict`.
function pickExtends(layers: readonly Layer[], ignored: Set<string>): { name: Extends; source: string } {
  let pick: { name: Extends; source: string } | undefined
  for (let i = layers.length - 1; i >= 0; i--) {
    const layer = layers[i]!
    const want = layer.value.extends
    if (!want) continue
    if (!layer.trusted && want !== "strict") {
      ignored.add(ignoredLine(sourceAt(layer, "extends"), `extends: ${want}`))
      continue
    }
    pick ??= { name: want, source: sourceAt(layer, "extends") }
  }
  return pick ?? { name: "default", source: "builtin" }
}

export interface MergeStep {
  policy: Policy
  layer: Layer
  /** set `path` to `next` when the layer may (trusted, or `tighter`); otherwise report it */
  take<T>(path: string, current: T, next: NonNullable<T> | undefined, tighter: (current: T, next: NonNullable<T>) => boolean): T
  ignore(path: string, what: string): void
}

function applyLayer(policy: Policy, layer: Layer, ignored: Set<string>): void {
  const step: MergeStep = {
    policy,
    layer,
    take(path, current, next, tighter) {
      if (next === undefined) return current
      if (!layer.trusted && !tighter(current, next)) {
        step.ignore(path, `${path}: ${show(next)}`)
        return current
      }
      policy.sources[path] = sourceAt(layer, path)
      return next
    },
    ignore(path, what) {
      ignored.add(ignoredLine(sourceAt(layer, path), what))
    },
  }
  mergeApproval(step)
  mergeRules(step)
  mergeRest(step)
}

function mergeApproval(m: MergeStep): void {
  const a = m.layer.value.approval
  if (!a) return
  const cur = m.policy.approval
  cur.mode = m.take("approval.mode", cur.mode, a.mode, (c, n) => n === c || MODE_RANK[n] > MODE_RANK[c])
  cur.threshold = m.take("approval.threshold", cur.threshold, a.threshold, riskNotAbove)
  cur.on_ask = m.take("approval.on_ask", cur.on_ask, a.on_ask, (c, n) => ON_ASK_RANK[n] >= ON_ASK_RANK[c])
  cur.timeout = m.take("approval.timeout", cur.timeout, a.timeout, (c, n) => n <= c)
  cur.sandboxed_threshold = m.take("approval.sandboxed_threshold", cur.sandboxed_threshold, a.sandboxed_threshold, riskNotAbove)
  if (a.tools) {
    // an untrusted layer may narrow the allowlist, never add to it
    const kept = m.layer.trusted ? a.tools : a.tools.filter((t) => cur.tools.includes(t))
    for (const t of a.tools) if (!kept.includes(t)) m.ignore("approval.tools", `approval.tools: ${t}`)
    cur.tools = kept
    m.policy.sources["approval.tools"] = sourceAt(m.layer, "approval.tools")
  }
}

function mergeRules(m: MergeStep): void {
  const rules = m.layer.value.rules
  if (!rules) return
  const seen = new Set(m.policy.rules.map(ruleKey))
  rules.forEach((rule, i) => {
    const source = sourceAt(m.layer, `rules.${i}`)
    const id = rule.id ?? `${basename(m.layer.label)}#${i + 1}`
    if (rule.decision === "allow" && !m.layer.trusted) {
      m.ignore(`rules.${i}`, `allow rule ${id}`)
      return
    }
    const merged: PolicyRule = { ...rule, id, source, layer: m.layer.name, trusted: m.layer.trusted }
    // the same rule from two bundled policies (--policy strict over default) is listed once
    const key = ruleKey(merged)
    if (seen.has(key)) return
    seen.add(key)
    m.policy.rules.push(merged)
  })
}

function ruleKey(r: PolicyRule): string {
  return JSON.stringify([r.id, r.decision, r.tool, r.command, r.path, r.access, r.args])
}

const MODE_RANK = { yolo: 0, auto: 1, allowlist: 1, manual: 2 } as const
const ON_ASK_RANK = { prompt: 0, pause: 1, deny: 2 } as const

function ignoredLine(source: string, what: string): string {
  return `${source}: ${what} ignored: an untrusted policy may only restrict (run \`ccode trust\` to accept it)`
}

function show(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value)
}
