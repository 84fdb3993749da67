// The tools a run can call: built-ins first, then plugins and MCP tools, each with where it came from.
import { editFileTool, readFileTool, writeFileTool } from "./builtin/files.ts"
import { globTool, grepTool, listDirTool } from "./builtin/search.ts"
import { shell } from "./builtin/shell.ts"
import type { Tool } from "./types.ts"

export interface RegisteredTool {
  tool: Tool
  /** "builtin", a plugin file path, or "mcp:<server>" */
  source: string
}

export type ToolRegistry = Map<string, RegisteredTool>

export const BUILTIN_TOOLS: Tool[] = [shell, readFileTool, writeFileTool, editFileTool, listDirTool, globTool, grepTool]

export function createRegistry(extra: Tool[] = []): ToolRegistry {
  const registry: ToolRegistry = new Map()
  for (const tool of [...BUILTIN_TOOLS, ...extra]) registry.set(tool.name, { tool, source: "builtin" })
  return registry
}

export class ToolClashError extends Error {
  readonly exitCode = 2
}

/** Add a tool from a plugin or server; a name already taken is an error naming both sources. */
export function addTool(registry: ToolRegistry, tool: Tool, source: string): void {
  const existing = registry.get(tool.name)
  if (existing) {
    throw new ToolClashError(`tool "${tool.name}" from ${source} clashes with the one from ${existing.source}`)
  }
  registry.set(tool.name, { tool, source })
}
