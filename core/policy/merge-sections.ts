// Merging of the policy sections after approval and rules: what "restrict only" means field by field
// for an untrusted layer or a value the managed policy locked (lower limits, higher risk, more redaction). Pure.
import { basename } from "node:path"
import { riskRank, type Risk } from "../base/risk.ts"
import type { MergeStep } from "./merge.ts"
import { sourceAt } from "./layer.ts"
import { mergeSandbox } from "./merge-sandbox.ts"

export function mergeRest(m: MergeStep): void {
  mergeRisk(m)
  mergeLimits(m)
  mergeGuards(m)
  mergeWorkspace(m)
  mergeRedaction(m)
  mergeSandbox(m)
  mergeMcpAndPrices(m)
}

const lower = (c: number | undefined, n: number) => c === undefined || n <= c
const higher = (c: number, n: number) => n >= c
const onlyOn = (c: boolean, n: boolean) => n || n === c

function mergeRisk(m: MergeStep): void {
  const r = m.layer.value.risk
  if (!r) return
  const cur = m.policy.risk
  for (const [tool, level] of Object.entries(r.tools ?? {})) {
    const path = `risk.tools.${tool}`
    if (m.layer.trusted || Object.hasOwn(cur.tools, tool)) {
      cur.tools[tool] = m.take(path, cur.tools[tool] ?? level, level, riskNotBelow)
    } else {
      // the tool's own level is unknown here: an untrusted level can only add a floor under it
      const floors = (cur.tool_floors ??= {})
      floors[tool] = maxOf(floors[tool], level)
      m.claim(path, path)
    }
  }
  for (const [name, level] of Object.entries(r.overrides ?? {})) {
    const path = `risk.overrides.${name}`
    if (m.layer.trusted || Object.hasOwn(cur.overrides, name)) {
      cur.overrides[name] = m.take(path, cur.overrides[name] ?? level, level, riskNotBelow)
    } else if (level === "critical") {
      cur.overrides[name] = m.take(path, level, level, () => true)
    } else m.ignore(path, `${path}: ${level} (the built-in level may be higher)`)
  }
  ;(r.commands ?? []).forEach((c, i) => {
    // a risk regex only ever raises (risk is a max), so any layer may add one
    const id = c.id ?? `${basename(m.layer.label)}#risk${i + 1}`
    cur.commands.push({ ...c, id, source: sourceAt(m.layer, `risk.commands.${i}`), layer: m.layer.name, trusted: m.layer.trusted })
  })
  ;(r.paths ?? []).forEach((p, i) => {
    const path = `risk.paths.${i}`
    const at = cur.paths.findIndex((q) => q.path === p.path)
    if (at < 0) {
      m.claim(`risk.paths.${cur.paths.length}`, path)
      cur.paths.push({ ...p })
    } else if (m.mayLoosen(`risk.paths.${at}`) || riskNotBelow(cur.paths[at]!.level, p.level)) {
      m.claim(`risk.paths.${at}`, path)
      cur.paths[at] = { ...p }
    } else m.ignore(path, `risk.paths ${p.path}: ${p.level}`, m.lockOf(`risk.paths.${at}`))
  })
}

function mergeLimits(m: MergeStep): void {
  const l = m.layer.value.limits
  if (!l) return
  const cur = m.policy.limits
  for (const key of LOWER_LIMITS) cur[key] = m.take(`limits.${key}`, cur[key], l[key], lower)
  cur.max_tokens = m.take("limits.max_tokens", cur.max_tokens, l.max_tokens, lower)
  cur.max_cost = m.take("limits.max_cost", cur.max_cost, l.max_cost, lower)
  // unset means "no step may go beyond its tool's timeout": setting it is a grant
  cur.max_tool_timeout = m.take("limits.max_tool_timeout", cur.max_tool_timeout, l.max_tool_timeout, (c, n) => c !== undefined && n <= c)
  cur.retry_backoff = m.take("limits.retry_backoff", cur.retry_backoff, l.retry_backoff, () => true)
  for (const [tool, ms] of Object.entries(l.tool_timeouts ?? {})) {
    const current = cur.tool_timeouts[tool] ?? cur.tool_timeout
    cur.tool_timeouts[tool] = m.take(`limits.tool_timeouts.${tool}`, current, ms, lower)
  }
}

const LOWER_LIMITS = [
  "max_steps", "max_tool_calls", "max_depth", "max_wall_time", "tool_timeout", "idle_timeout", "retries",
  "max_noop_iterations", "parallel",
] as const

function mergeGuards(m: MergeStep): void {
  const loop = m.layer.value.loop_detection
  if (loop) {
    const cur = m.policy.loop_detection
    cur.repeat_threshold = m.take("loop_detection.repeat_threshold", cur.repeat_threshold, loop.repeat_threshold, lower)
    cur.error_repeat_threshold = m.take("loop_detection.error_repeat_threshold", cur.error_repeat_threshold, loop.error_repeat_threshold, lower)
    cur.similarity = m.take("loop_detection.similarity", cur.similarity, loop.similarity, lower)
    cur.window = m.take("loop_detection.window", cur.window, loop.window, higher)
    cur.time_window = m.take("loop_detection.time_window", cur.time_window, loop.time_window, higher)
    cur.oscillation = m.take("loop_detection.oscillation", cur.oscillation, loop.oscillation, onlyOn)
  }
  const cb = m.layer.value.circuit_breaker
  if (cb) {
    const cur = m.policy.circuit_breaker
    cur.failure_threshold = m.take("circuit_breaker.failure_threshold", cur.failure_threshold, cb.failure_threshold, lower)
    cur.recovery_timeout = m.take("circuit_breaker.recovery_timeout", cur.recovery_timeout, cb.recovery_timeout, higher)
  }
}

function mergeWorkspace(m: MergeStep): void {
  const w = m.layer.value.workspace
  if (!w) return
  const cur = m.policy.workspace
  cur.confine = m.take("workspace.confine", cur.confine, w.confine, onlyOn)
  cur.detect_external_changes = m.take("workspace.detect_external_changes", cur.detect_external_changes, w.detect_external_changes, onlyOn)
  ;(w.protected ?? []).forEach((p, i) => {
    if (cur.protected.includes(p)) return
    m.claim(`workspace.protected.${cur.protected.length}`, `workspace.protected.${i}`)
    cur.protected.push(p)
  })
}

function mergeRedaction(m: MergeStep): void {
  const r = m.layer.value.redaction
  if (!r) return
  const cur = m.policy.redaction
  cur.enabled = m.take("redaction.enabled", cur.enabled, r.enabled, onlyOn)
  ;(r.patterns ?? []).forEach((p, i) => {
    const at = cur.patterns.findIndex((q) => q.id === p.id)
    // more redaction never loosens anything; replacing a pattern by id is for trusted layers
    const key = `redaction.patterns.${p.id}`
    if (at >= 0 && !m.mayLoosen(key)) {
      cur.patterns.push({ ...p, id: `${p.id}@${m.layer.name}` })
      m.claim(`${key}@${m.layer.name}`, `redaction.patterns.${i}`)
      return
    }
    if (at >= 0) cur.patterns[at] = { ...p }
    else cur.patterns.push({ ...p })
    m.claim(key, `redaction.patterns.${i}`)
  })
  for (const name of r.env ?? []) if (!cur.env.includes(name)) cur.env.push(name)
  // any layer may add: a flag more to hide never loosens anything
  for (const [program, flags] of Object.entries(r.flags ?? {})) {
    const list = (cur.flags[program] ??= [])
    for (const flag of flags) if (!list.includes(flag)) list.push(flag)
    m.policy.sources[`redaction.flags.${program}`] ??= sourceAt(m.layer, `redaction.flags.${program}`)
  }
}

function mergeMcpAndPrices(m: MergeStep): void {
  for (const [name, server] of Object.entries(m.layer.value.mcp?.servers ?? {})) {
    const path = `mcp.servers.${name}`
    // a server is a program ccode would start: a grant, never taken from an untrusted layer
    if (!m.mayLoosen(path)) m.ignore(path, `MCP server ${name}`, m.lockOf(path))
    else {
      m.policy.mcp.servers[name] = { ...server }
      m.claim(path, path)
    }
  }
  for (const [model, price] of Object.entries(m.layer.value.prices ?? {})) {
    const path = `prices.${model}`
    const cur = m.policy.prices[model]
    const cheaper = cur && (price.input_per_mtok < cur.input_per_mtok || price.output_per_mtok < cur.output_per_mtok)
    // a lower price would stretch limits.max_cost
    if (cheaper && !m.mayLoosen(path)) m.ignore(path, `${path}: lower price`, m.lockOf(path))
    else {
      m.policy.prices[model] = { ...price }
      m.claim(path, path)
    }
  }
}

export function riskNotAbove(current: Risk, next: Risk): boolean {
  return riskRank(next) <= riskRank(current)
}

export function riskNotBelow(current: Risk, next: Risk): boolean {
  return riskRank(next) >= riskRank(current)
}

function maxOf(a: Risk | undefined, b: Risk): Risk {
  return a !== undefined && riskRank(a) >= riskRank(b) ? a : b
}
