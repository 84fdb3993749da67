// Layers -> the effective Policy, keeping the source of every value. Trusted layers override;
// an untrusted layer may only restrict, and each grant it tries is ignored and reported once.
// Managed layers go first and lock what they set: no later layer, trusted or not, may loosen it. Pure.
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
  const locked: Record<string, string> = {}
  // the managed layers sit above every other for restrictions: merged first, so the rest can only tighten
  const ordered = [...layers.filter((l) => l.name === "managed"), ...layers.filter((l) => l.name !== "managed")]
  const { name, source } = pickExtends(ordered, ignored)
  policy.extends = name
  policy.sources.extends = source
  const all = name === "none" ? ordered : [bundled(name), ...ordered]
  for (const layer of all) applyLayer(policy, layer, ignored, locked)
  policy.ignored = [...ignored]
  if (Object.keys(locked).length) policy.locked = locked
  return policy
}

// A managed `extends` is final; otherwise the highest trusted layer that sets it wins. An untrusted
// layer may only ask for `strict`.
function pickExtends(layers: readonly Layer[], ignored: Set<string>): { name: Extends; source: string } {
  const managed = layers.findLast((l) => l.name === "managed" && l.value.extends)
  let pick: { name: Extends; source: string } | undefined = managed && { name: managed.value.extends!, source: sourceAt(managed, "extends") }
  for (let i = layers.length - 1; i >= 0; i--) {
    const layer = layers[i]!
    const want = layer.value.extends
    if (!want || layer.name === "managed") continue
    if (managed) {
      // `strict` is the strictest base, so any layer may still ask for it; anything else is the managed choice's
      if (want === "strict" && pick!.name !== "strict") pick = { name: want, source: sourceAt(layer, "extends") }
      else if (want !== managed.value.extends) ignored.add(lockedLine(sourceAt(layer, "extends"), `extends: ${want}`, sourceAt(managed, "extends")))
      continue
    }
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
  /** set `path` to `next` when the layer may (trusted and not locked, or `tighter`); otherwise report it */
  take<T>(path: string, current: T, next: NonNullable<T> | undefined, tighter: (current: T, next: NonNullable<T>) => boolean): T
  /** report a value of this layer at `path` (its own key) as ignored; `lock` names the managed source that forbade it */
  ignore(path: string, what: string, lock?: string): void
  /** may this layer set the value at `key` to anything, looser included? */
  mayLoosen(key: string): boolean
  /** the managed source that locks `key` against this layer, if any */
  lockOf(key: string): string | undefined
  /** record that this layer set `key` (from its own `path`): its source, and a lock when managed */
  claim(key: string, path: string): void
}

function applyLayer(policy: Policy, layer: Layer, ignored: Set<string>, locked: Record<string, string>): void {
  const managed = layer.name === "managed"
  const step: MergeStep = {
    policy,
    layer,
    take(path, current, next, tighter) {
      if (next === undefined) return current
      if (!step.mayLoosen(path) && !tighter(current, next)) {
        step.ignore(path, `${path}: ${show(next)}`, step.lockOf(path))
        return current
      }
      step.claim(path, path)
      return next
    },
    ignore(path, what, lock) {
      const at = sourceAt(layer, path)
      ignored.add(lock ? lockedLine(at, what, lock) : ignoredLine(at, what))
    },
    mayLoosen: (key) => layer.trusted && step.lockOf(key) === undefined,
    lockOf: (key) => (managed ? undefined : lockFor(locked, key)),
    claim(key, path) {
      policy.sources[key] = sourceAt(layer, path)
      if (managed) locked[key] = policy.sources[key]
    },
  }
  mergeApproval(step)
  mergeRules(step)
  mergeRest(step)
}

function mergeApproval(m: MergeStep): void {
  let a = m.layer.value.approval
  if (!a) return
  const cur = m.policy.approval
  // yolo and allowlist approve without looking at the threshold, so a managed threshold rules them out
  const thresholdLock = m.lockOf("approval.threshold")
  if ((a.mode === "yolo" || a.mode === "allowlist") && a.mode !== cur.mode && thresholdLock && !m.lockOf("approval.mode")) {
    m.ignore("approval.mode", `approval.mode: ${a.mode}`, thresholdLock)
    a = { ...a, mode: undefined }
  }
  cur.mode = m.take("approval.mode", cur.mode, a.mode, (c, n) => n === c || MODE_RANK[n] > MODE_RANK[c])
  cur.threshold = m.take("approval.threshold", cur.threshold, a.threshold, riskNotAbove)
  cur.on_ask = m.take("approval.on_ask", cur.on_ask, a.on_ask, (c, n) => ON_ASK_RANK[n] >= ON_ASK_RANK[c])
  cur.timeout = m.take("approval.timeout", cur.timeout, a.timeout, (c, n) => n <= c)
  cur.sandboxed_threshold = m.take("approval.sandboxed_threshold", cur.sandboxed_threshold, a.sandboxed_threshold, riskNotAbove)
  if (a.tools) {
    // an untrusted layer may narrow the allowlist, never add to it
    const kept = m.mayLoosen("approval.tools") ? a.tools : a.tools.filter((t) => cur.tools.includes(t))
    for (const t of a.tools) if (!kept.includes(t)) m.ignore("approval.tools", `approval.tools: ${t}`, m.lockOf("approval.tools"))
    cur.tools = kept
    m.claim("approval.tools", "approval.tools")
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

function lockedLine(source: string, what: string, lock: string): string {
  return `${source}: ${what} ignored: locked by the managed policy (${lock}); other layers may only tighten it`
}

// Values bounded by another managed value too: per-tool and step timeouts by a managed tool_timeout, the
// sandboxed threshold by a managed threshold, new writable paths by a managed sandbox mode.
function lockFor(locked: Record<string, string>, key: string): string | undefined {
  if (locked[key]) return locked[key]
  // a task step's own `timeout:` may reach max_tool_timeout: raising it would stretch tool_timeout too
  if (key.startsWith("limits.tool_timeouts.") || key === "limits.max_tool_timeout") return locked["limits.tool_timeout"]
  if (key === "approval.sandboxed_threshold") return locked["approval.threshold"]
  if (key === "sandbox.writable") return locked["sandbox.mode"]
  return undefined
}

function show(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value)
}
