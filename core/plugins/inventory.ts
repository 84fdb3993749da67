// What `ccode plugins ls` shows: every tool a run here would get (built-ins, plugins, MCP tools) with
// its source, base risk and description, plus what was left out and why. Loads plugins; runs no tool.
import { compilePolicy } from "../policy/compile.ts"
import type { Policy } from "../policy/types.ts"
import { createRegistry } from "../tools/registry.ts"
import { addExtraTools, type ExtrasOptions } from "./extras.ts"

export interface ToolRow {
  name: string
  /** "builtin", a plugin file, or "mcp:SERVER" */
  source: string
  origin: "builtin" | "user" | "workspace" | "task" | "mcp"
  /** the base risk a call starts from (the policy's risk.tools wins over the tool's own) */
  risk: string
  risk_from: "policy" | "tool" | "computed" | "unknown"
  description: string
  idempotent: boolean
  timeout?: string | number
}

export interface Inventory {
  tools: ToolRow[]
  /** plugins, exports and servers left out */
  problems: string[]
  /** name clashes (a run here would stop with exit 2) */
  clashes: string[]
}

export async function inventory(opts: Omit<ExtrasOptions, "registry" | "onClash"> & { policy: Policy }): Promise<Inventory> {
  const registry = createRegistry()
  const clashes: string[] = []
  const extras = await addExtraTools({ ...opts, registry, onClash: (error) => clashes.push(error.message) })
  await extras.close()
  const origins = new Map(extras.plugins.map((p) => [p.path, p.origin]))
  const policyRisk = compilePolicy(opts.policy)
  const tools = [...registry.values()].map(({ tool, source }): ToolRow => {
    const fromPolicy = policyRisk.toolRisk(tool.name)
    const own = typeof tool.risk === "function" ? "computed" : tool.risk
    return {
      name: tool.name,
      source,
      origin: source === "builtin" ? "builtin" : source.startsWith("mcp:") ? "mcp" : (origins.get(source) ?? "task"),
      risk: fromPolicy ?? own ?? "medium",
      risk_from: fromPolicy ? "policy" : own === "computed" ? "computed" : own ? "tool" : "unknown",
      description: tool.description,
      idempotent: tool.idempotent === true,
      timeout: tool.timeout,
    }
  })
  return { tools, problems: extras.problems, clashes }
}
