// The environment layer (5) and the command-line layer (6): CCODE_* variables and run flags as a
// trusted policy layer. Pure: the environment is passed in; bad values are configuration errors.
import type { Risk } from "../base/risk.ts"
import type { Layer } from "./layer.ts"
import type { PolicyFile } from "./schema.ts"

export interface LayerWithWarnings {
  layer?: Layer
  warnings: string[]
}

export async function envLayer(env: Record<string, string | undefined>): Promise<LayerWithWarnings> {
  const value: PolicyFile = {}
  const at: Record<string, string> = {}
  const warnings: string[] = []
  const get = (name: string) => {
    const v = env[name]?.trim()
    return v ? v : undefined
  }
  const set = <K extends keyof PolicyFile>(section: K, key: string, v: unknown, from: string) => {
    const target = ((value[section] as Record<string, unknown> | undefined) ??= {}) as Record<string, unknown>
    target[key] = v
    at[`${section}.${key}`] = `env:${from}`
  }

  const auto = get("CCODE_AUTO_APPROVE")
  if (auto !== undefined) {
    if (!/^(1|true|0|false)$/i.test(auto)) await fail("CCODE_AUTO_APPROVE", auto, "expected 1, true, 0 or false")
    if (/^(1|true)$/i.test(auto)) set("approval", "mode", "auto", "CCODE_AUTO_APPROVE")
  }
  const threshold = get("CCODE_AUTO_APPROVE_THRESHOLD")
  if (threshold !== undefined) {
    const level = await approvalLevel("CCODE_AUTO_APPROVE_THRESHOLD", threshold, warnings)
    set("approval", "threshold", level, "CCODE_AUTO_APPROVE_THRESHOLD")
  }
  const tools = get("CCODE_AUTO_APPROVE_TOOLS")
  if (tools !== undefined) {
    set("approval", "tools", tools.split(",").map((t) => t.trim()).filter(Boolean), "CCODE_AUTO_APPROVE_TOOLS")
    // listing tools means "auto-approve these": allowlist mode, unless CCODE_AUTO_APPROVE asked for auto
    if (!value.approval?.mode) set("approval", "mode", "allowlist", "CCODE_AUTO_APPROVE_TOOLS")
  }
  const timeout = get("CCODE_TOOL_TIMEOUT")
  if (timeout !== undefined) set("limits", "tool_timeout", await duration("CCODE_TOOL_TIMEOUT", timeout), "CCODE_TOOL_TIMEOUT")
  const steps = get("CCODE_MAX_STEPS")
  if (steps !== undefined) set("limits", "max_steps", await positive("CCODE_MAX_STEPS", steps), "CCODE_MAX_STEPS")
  const failures = get("CCODE_CIRCUIT_FAILURE_THRESHOLD")
  if (failures !== undefined) {
    set("circuit_breaker", "failure_threshold", await positive("CCODE_CIRCUIT_FAILURE_THRESHOLD", failures), "CCODE_CIRCUIT_FAILURE_THRESHOLD")
  }
  const recovery = get("CCODE_CIRCUIT_RECOVERY_TIMEOUT")
  if (recovery !== undefined) {
    set("circuit_breaker", "recovery_timeout", await duration("CCODE_CIRCUIT_RECOVERY_TIMEOUT", recovery), "CCODE_CIRCUIT_RECOVERY_TIMEOUT")
  }
  const sandbox = get("CCODE_SANDBOX")
  if (sandbox !== undefined) set("sandbox", "mode", await sandboxMode("CCODE_SANDBOX", sandbox), "CCODE_SANDBOX")
  const redact = get("CCODE_REDACT")
  if (redact !== undefined) {
    if (!/^(0|1|true|false)$/i.test(redact)) await fail("CCODE_REDACT", redact, "expected 0 or 1")
    set("redaction", "enabled", /^(1|true)$/i.test(redact), "CCODE_REDACT")
  }
  if (!Object.keys(at).length) return { warnings }
  return { layer: { name: "env", label: "env", trusted: true, value, at }, warnings }
}

export interface PolicyFlags {
  /** --policy FILE|NAME, in order (loaded as their own trusted layers by the loader) */
  policy?: string[]
  /** --yes: auto mode, threshold high */
  yes?: boolean
  /** --auto-approve LEVEL: auto mode with this threshold */
  autoApprove?: string
  /** --max-steps N */
  maxSteps?: string | number
  /** --sandbox off|auto|required */
  sandbox?: string
}

/** The flag values (not the --policy files) as the topmost layer. */
export async function flagsLayer(flags: PolicyFlags): Promise<LayerWithWarnings> {
  const value: PolicyFile = {}
  const at: Record<string, string> = {}
  const warnings: string[] = []
  if (flags.yes) {
    value.approval = { mode: "auto", threshold: "high" }
    at["approval.mode"] = at["approval.threshold"] = "flag:--yes"
  }
  if (flags.autoApprove !== undefined) {
    const level = await approvalLevel("--auto-approve", flags.autoApprove, warnings)
    value.approval = { mode: "auto", threshold: level }
    at["approval.mode"] = at["approval.threshold"] = "flag:--auto-approve"
  }
  if (flags.maxSteps !== undefined) {
    value.limits = { max_steps: await positive("--max-steps", String(flags.maxSteps)) }
    at["limits.max_steps"] = "flag:--max-steps"
  }
  if (flags.sandbox !== undefined) {
    value.sandbox = { mode: await sandboxMode("--sandbox", flags.sandbox) }
    at["sandbox.mode"] = "flag:--sandbox"
  }
  if (!Object.keys(at).length) return { warnings }
  return { layer: { name: "flags", label: "flags", trusted: true, value, at }, warnings }
}

const APPROVABLE = ["safe", "low", "medium", "high"] as const

// critical is never auto-approved, so asking for it is taken as the highest level that can be
async function approvalLevel(name: string, raw: string, warnings: string[]): Promise<Risk> {
  const level = raw.toLowerCase()
  if (level === "critical") {
    warnings.push(`${name}=critical lowered to high: critical risk is never auto-approved`)
    return "high"
  }
  if (!(APPROVABLE as readonly string[]).includes(level)) await fail(name, raw, "expected safe, low, medium or high")
  return level as Risk
}

async function sandboxMode(name: string, raw: string): Promise<"off" | "auto" | "required"> {
  const mode = raw.toLowerCase()
  if (mode !== "off" && mode !== "auto" && mode !== "required") await fail(name, raw, "expected off, auto or required")
  return mode as "off" | "auto" | "required"
}

async function positive(name: string, raw: string): Promise<number> {
  if (!/^\d+$/.test(raw) || Number(raw) < 1) await fail(name, raw, "expected a positive whole number")
  return Number(raw)
}

async function duration(name: string, raw: string): Promise<number> {
  const { parseDuration } = await import("../base/duration.ts")
  const ms = parseDuration(raw)
  if (ms === undefined) await fail(name, raw, "expected a duration like 250ms, 30s, 5m, 1h or a number of milliseconds")
  return ms!
}

async function fail(name: string, raw: string, problem: string): Promise<never> {
  const { ConfigError } = await import("../base/yaml.ts")
  throw new ConfigError(name.startsWith("--") ? `flag ${name}` : `env ${name}`, 1, 1, `${problem}, got "${raw}"`)
}
