// The effective policy as text for `ccode policy show`: every value with the source it came from, the
// values the managed policy locks marked "(managed)". Pure.
import type { Policy } from "./types.ts"
import type { Layer } from "./layer.ts"

const DURATIONS = /(^|\.)(timeout|max_wall_time|tool_timeout|idle_timeout|retry_backoff|time_window|recovery_timeout|max_tool_timeout)$|^limits\.tool_timeouts\./

export function describePolicy(policy: Policy, ctx: { workspace: string; layers: Layer[] }): string {
  const out: string[] = [`# effective policy for ${ctx.workspace}`, `# layers: bundled ${policy.extends}${ctx.layers.map((l) => `, ${l.name} ${l.label}${l.trusted ? "" : " (untrusted)"}`).join("")}`]
  if (policy.fingerprint) out.push(`# fingerprint ${policy.fingerprint}${policy.managed_keys?.length ? `; managed policy signed by key ${policy.managed_keys.join(", ")}` : ""}`)
  const locked = policy.locked ?? {}
  const line = (indent: number, text: string, key?: string) => {
    const src = key ? policy.sources[key] : undefined
    const lock = key ? locked[key] : undefined
    const mark = lock === undefined ? "" : lock === src ? " (managed)" : ` (managed: ${lock})`
    out.push(src ? `${" ".repeat(indent)}${text.padEnd(44 - indent)} # ${src}${mark}` : `${" ".repeat(indent)}${text}`)
  }
  line(0, `extends: ${policy.extends}`, "extends")
  section(line, policy, "approval", { ...policy.approval, tools: `[${policy.approval.tools.join(", ")}]` })
  out.push("rules:")
  if (!policy.rules.length) out.push("  []")
  for (const r of policy.rules) {
    const what = [r.tool && `tool: ${[r.tool].flat().join(", ")}`, r.command && `command: ${[r.command].flat().join(" | ")}`,
      r.path && `path: ${[r.path].flat().join(", ")}${r.access ? ` (${r.access})` : ""}`, r.args && `args: ${JSON.stringify(r.args)}`]
    out.push(`  - ${r.decision.padEnd(5)} ${r.id}${r.trusted ? "" : " (untrusted)"}  # ${r.source}${r.layer === "managed" ? " (managed)" : ""}`)
    out.push(`      ${what.filter(Boolean).join("; ")}${r.reason ? `  — ${r.reason}` : ""}`)
  }
  out.push("risk:")
  mapSection(line, policy, "risk.tools", policy.risk.tools, 2)
  if (policy.risk.tool_floors) mapSection(line, policy, "risk.tool_floors", policy.risk.tool_floors, 2)
  mapSection(line, policy, "risk.overrides", policy.risk.overrides, 2)
  out.push("  commands:")
  for (const c of policy.risk.commands) out.push(`    - ${c.id}: /${c.regex}/ -> ${c.level}  # ${c.source}`)
  out.push("  paths:")
  policy.risk.paths.forEach((p, i) => line(4, `- ${p.path}: ${p.level}`, `risk.paths.${i}`))
  const { tool_timeouts, ...limits } = policy.limits
  section(line, policy, "limits", limits)
  mapSection(line, policy, "limits.tool_timeouts", tool_timeouts, 2)
  section(line, policy, "loop_detection", policy.loop_detection)
  section(line, policy, "circuit_breaker", policy.circuit_breaker)
  section(line, policy, "workspace", { confine: policy.workspace.confine, detect_external_changes: policy.workspace.detect_external_changes })
  out.push("  protected:")
  policy.workspace.protected.forEach((p, i) => line(4, `- ${p}`, `workspace.protected.${i}`))
  section(line, policy, "redaction", { enabled: policy.redaction.enabled, env: `[${policy.redaction.env.join(", ")}]` })
  for (const p of policy.redaction.patterns) line(2, `- pattern ${p.id}: /${p.regex}/`, `redaction.patterns.${p.id}`)
  for (const [program, flags] of Object.entries(policy.redaction.flags)) line(2, `- flags ${program}: ${flags.join(", ")}`, `redaction.flags.${program}`)
  const box = policy.sandbox
  section(line, policy, "sandbox", { mode: box.mode, network: Array.isArray(box.network) ? `[${box.network.join(", ")}]` : box.network, preview: box.preview })
  for (const key of ["writable", "hidden", "read_only"] as const) {
    out.push(`  ${key}:${box[key].length ? "" : " []  # besides the built-in ones (docs/sandbox.md)"}`)
    box[key].forEach((p, i) => line(4, `- ${p}`, `sandbox.${key}.${i}`))
  }
  if (Object.keys(policy.mcp.servers).length) mapSection(line, policy, "mcp.servers", Object.fromEntries(Object.entries(policy.mcp.servers).map(([k, v]) => [k, v.command ?? v.url ?? ""])), 0)
  if (policy.ignored.length) out.push("", "# ignored (untrusted layers may only restrict; managed values may only be tightened):", ...policy.ignored.map((i) => `#   ${i}`))
  return out.join("\n")
}

type Line = (indent: number, text: string, key?: string) => void

function section(line: Line, policy: Policy, name: string, values: Record<string, unknown>): void {
  line(0, `${name}:`)
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) continue
    line(2, `${k}: ${show(`${name}.${k}`, v)}`, `${name}.${k}`)
  }
}

function mapSection(line: Line, policy: Policy, key: string, map: Record<string, unknown>, indent: number): void {
  const name = key.split(".").pop()!
  line(indent, `${name}:${Object.keys(map).length ? "" : " {}"}`)
  for (const [k, v] of Object.entries(map)) line(indent + 2, `${k}: ${show(`${key}.${k}`, v)}`, `${key}.${k}`)
  void policy
}

function show(key: string, value: unknown): string {
  if (typeof value === "number" && DURATIONS.test(key)) return duration(value)
  return String(value)
}

function duration(ms: number): string {
  for (const [unit, size] of [["h", 3_600_000], ["m", 60_000], ["s", 1000]] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`
  }
  return `${ms}ms`
}
