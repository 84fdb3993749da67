// `ccode plugins check FILE`: load one plugin file and report its tools and hooks, or why it cannot
// be used (load error, an invalid export, a name taken by a built-in). Loads the file: runs its top level.
import { z } from "zod"
import { createRegistry } from "../tools/registry.ts"
import { loadPluginFile } from "./load.ts"

export interface PluginReport {
  file: string
  ok: boolean
  /** every file the plugin's bundle is built from, and whether trust covers it as it is now */
  inputs: { path: string; sha256: string; trusted: boolean }[]
  tools: { name: string; description: string; risk: string; timeout?: string | number; idempotent: boolean; args: unknown }[]
  hooks: string[]
  problems: string[]
}

export async function checkPluginFile(file: string, opts: { cacheDir?: string; isTrusted?: (path: string, sha256: string) => boolean } = {}): Promise<PluginReport> {
  // loaded as the user's own plugin would be (the person asked to check it); trust is reported, not required
  const loaded = await loadPluginFile({ path: file, origin: "user" }, { cacheDir: opts.cacheDir })
  const inputs = (loaded.inputs ?? []).map((i) => ({ path: i.path, sha256: i.hash, trusted: opts.isTrusted?.(i.path, i.hash) ?? false }))
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
  return { file, ok: problems.length === 0, inputs, tools, hooks, problems }
}
