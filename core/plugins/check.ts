// `ccode plugins check FILE`: load one plugin file and report its tools and hooks, or why it cannot
// be used (load error, an invalid export, a name taken by a built-in). Loads the file: runs its top level.
import { z } from "zod"
import { createRegistry } from "../tools/registry.ts"
import { loadPluginFile } from "./load.ts"

export interface PluginReport {
  file: string
  ok: boolean
  tools: { name: string; description: string; risk: string; timeout?: string | number; idempotent: boolean; args: unknown }[]
  hooks: string[]
  problems: string[]
}

export async function checkPluginFile(file: string): Promise<PluginReport> {
  const loaded = await loadPluginFile({ path: file, origin: "task" })
  const problems = loaded.error ? [loaded.error] : [...loaded.problems]
  const builtins = createRegistry()
  for (const tool of loaded.tools) {
    if (builtins.has(tool.name)) problems.push(`tool "${tool.name}" clashes with the built-in tool of that name; rename it`)
  }
  const tools = loaded.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    risk: typeof tool.risk === "function" ? "computed" : (tool.risk ?? "medium (not declared)"),
    timeout: tool.timeout,
    idempotent: tool.idempotent === true,
    args: z.toJSONSchema(tool.args, { io: "input", unrepresentable: "any" }),
  }))
  const hooks = loaded.hooks ? (["beforeCall", "afterCall"] as const).filter((h) => loaded.hooks![h]) : []
  return { file, ok: problems.length === 0, tools, hooks, problems }
}
