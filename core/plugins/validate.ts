// Checks what a plugin file exports: each export is a tool (made with defineTool) or a hook
// (beforeCall/afterCall). Pure: inspects values, runs nothing the plugin wrote except the zod schema.
import { z } from "zod"
import { RISKS, type Risk } from "../base/risk.ts"
import { parseDuration } from "../base/duration.ts"
import type { DeclaredPath, Tool, ToolContext, ToolOutput } from "../tools/types.ts"
import type { AfterCall, BeforeCall } from "./hooks.ts"

export const TOOL_NAME = /^[a-z][a-z0-9_]{0,63}$/

export interface PluginHooks {
  /** the plugin file */
  source: string
  beforeCall?: BeforeCall
  afterCall?: AfterCall
}

export interface PluginExports {
  tools: Tool[]
  hooks?: PluginHooks
  /** one line per export that is neither a valid tool nor a hook */
  problems: string[]
}

const HOOK_NAMES = new Set(["beforeCall", "afterCall"])

/** Sort a module's exports into tools, hooks and problems. `default` and named exports are treated alike. */
export function pluginExports(module: Record<string, unknown>, source: string): PluginExports {
  const tools: Tool[] = []
  const problems: string[] = []
  const hooks: PluginHooks = { source }
  const seen = new Set<unknown>()
  for (const [name, value] of Object.entries(module)) {
    if (HOOK_NAMES.has(name)) {
      if (typeof value !== "function") problems.push(`export ${name} must be a function (a hook)`)
      else if (name === "beforeCall") hooks.beforeCall = value as BeforeCall
      else hooks.afterCall = value as AfterCall
      continue
    }
    if (name === "default" && isHookBundle(value)) {
      // `export default { beforeCall, afterCall }`
      for (const [hookName, hook] of Object.entries(value)) {
        if (typeof hook !== "function") problems.push(`default export: ${hookName} must be a function (a hook)`)
        else if (hookName === "beforeCall") hooks.beforeCall ??= hook as BeforeCall
        else hooks.afterCall ??= hook as AfterCall
      }
      continue
    }
    if (seen.has(value)) continue // `export default tool` and `export { tool }` name one tool
    seen.add(value)
    const checked = checkTool(value)
    if (typeof checked === "string") problems.push(`export ${name}: ${checked}`)
    else tools.push(checked)
  }
  if (!tools.length && !hooks.beforeCall && !hooks.afterCall && !problems.length) {
    problems.push("exports no tool: `export default defineTool({...})` from \"ccode/plugin\"")
  }
  const names = new Map<string, number>()
  for (const tool of tools) names.set(tool.name, (names.get(tool.name) ?? 0) + 1)
  for (const [name, count] of names) if (count > 1) problems.push(`defines the tool "${name}" ${count} times`)
  return {
    tools: tools.filter((t) => names.get(t.name) === 1),
    hooks: hooks.beforeCall || hooks.afterCall ? hooks : undefined,
    problems,
  }
}

/** A valid tool (wrapped so its risk and output are always well-formed), or what is wrong with it. */
export function checkTool(value: unknown): Tool | string {
  if (!value || typeof value !== "object") return `is ${value === null ? "null" : typeof value}, not a tool made with defineTool({...})`
  const t = value as Partial<Tool> & Record<string, unknown>
  if (typeof t.name !== "string") return "has no name"
  if (!TOOL_NAME.test(t.name)) return `tool name "${t.name}" must be snake_case: lowercase letters, digits and _ (at most 64)`
  const where = `tool "${t.name}"`
  if (typeof t.description !== "string" || !t.description.trim()) return `${where} has no description`
  if (typeof t.run !== "function") return `${where} has no run(args, ctx) function`
  const args = t.args as { safeParse?: unknown } | undefined
  if (!args || typeof args.safeParse !== "function") return `${where}: args must be a zod schema, e.g. z.object({ path: z.string() })`
  const shape = objectSchema(t.args as z.ZodType)
  if (shape) return `${where}: ${shape}`
  if (t.risk !== undefined && typeof t.risk !== "function" && !RISKS.includes(t.risk as Risk)) {
    return `${where}: risk must be one of ${RISKS.join(", ")} or a function of the arguments, got ${JSON.stringify(t.risk)}`
  }
  if (t.timeout !== undefined && (!["string", "number"].includes(typeof t.timeout) || parseDuration(t.timeout as string | number) === undefined)) {
    return `${where}: timeout must be a duration like "30s" or milliseconds, got ${JSON.stringify(t.timeout)}`
  }
  if (t.idempotent !== undefined && typeof t.idempotent !== "boolean") return `${where}: idempotent must be true or false`
  const declared = checkDeclaration(t)
  if (declared) return `${where}: ${declared}`
  return wrapTool(t as Tool)
}

const EFFECTS = ["read", "write", "execute", "network"]
const ACCESS = ["read", "write"]

// effects and paths decide which path rules, snapshots and confinement apply: a malformed one is refused, not ignored
function checkDeclaration(t: Partial<Tool>): string | undefined {
  if (t.effects !== undefined && (!Array.isArray(t.effects) || t.effects.some((e) => !EFFECTS.includes(e)))) {
    return `effects must be a list of ${EFFECTS.join(", ")}, got ${JSON.stringify(t.effects)}`
  }
  if (t.paths === undefined || typeof t.paths === "function") return undefined
  if (!Array.isArray(t.paths)) return "paths must be a list like [{ arg: \"file\", access: \"write\" }] or a function of the arguments"
  for (const p of t.paths as unknown[]) {
    const spec = p as Record<string, unknown>
    if (!spec || typeof spec.arg !== "string" || !ACCESS.includes(spec.access as string)) {
      return `each paths entry needs arg (an argument name) and access (read or write), got ${JSON.stringify(p)}`
    }
    if (spec.default !== undefined && typeof spec.default !== "string") return `paths entry ${spec.arg}: default must be a path`
  }
  return undefined
}

// Arguments arrive as a JSON object (from a task, a model, an MCP client): the schema must describe one.
function objectSchema(schema: z.ZodType): string | undefined {
  try {
    const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as { type?: unknown }
    return json.type === "object" ? undefined : "args must be an object schema: z.object({...})"
  } catch (error) {
    return `args cannot be described as JSON Schema (${(error as Error).message})`
  }
}

// The plugin's functions are user code: a computed risk that returns nonsense counts as high,
// and whatever run() returns becomes a ToolOutput.
function wrapTool(tool: Tool): Tool {
  const risk = tool.risk
  const wrapped: Tool = {
    ...tool,
    run: async (args: unknown, ctx: ToolContext) => toOutput(await tool.run(args, ctx)),
  }
  const paths = tool.paths
  if (typeof paths === "function") {
    // what the function says is checked: anything but a list of {path, access} fails the call closed
    wrapped.paths = (args: unknown) => {
      const parsed = tool.args.safeParse(args)
      const out: unknown = paths(parsed.success ? parsed.data : args)
      if (!Array.isArray(out) || out.some((p) => !p || typeof p.path !== "string" || !ACCESS.includes(p.access))) {
        throw new Error(`${tool.name}: paths() must return a list of { path, access }`)
      }
      return out as DeclaredPath[]
    }
  }
  if (typeof risk === "function") {
    // the function sees the arguments as run() will (defaults filled in); invalid ones fail the call anyway
    wrapped.risk = (args: unknown, ctx: { cwd: string; workspace: string }) => {
      const parsed = tool.args.safeParse(args)
      const level: unknown = risk(parsed.success ? parsed.data : args, ctx)
      return RISKS.includes(level as Risk) ? (level as Risk) : "high"
    }
  }
  return wrapped
}

export function toOutput(value: unknown): ToolOutput {
  if (value === undefined || value === null) return { text: "" }
  if (typeof value === "string") return { text: value }
  if (typeof value !== "object" || Array.isArray(value)) return { text: JSON.stringify(value), data: value }
  const out = value as Record<string, unknown>
  if (!("text" in out) && !("data" in out) && !("error" in out)) return { text: JSON.stringify(value), data: value }
  const error = out.error as ToolOutput["error"] | string | undefined
  return {
    text: out.text === undefined ? undefined : typeof out.text === "string" ? out.text : JSON.stringify(out.text),
    data: out.data,
    error: error === undefined ? undefined : typeof error === "string" ? { message: error } : { ...error, message: String(error.message ?? "failed") },
  }
}

function isHookBundle(value: unknown): value is Record<string, unknown> {
  if (!value || typeof value !== "object" || "run" in value || "name" in value) return false
  const keys = Object.keys(value)
  return keys.length > 0 && keys.every((k) => HOOK_NAMES.has(k))
}
