// Imports plugin files and sorts their exports. A file that throws or hangs while loading is
// reported with its path and left out; it never takes the run (or `ccode plugins ls`) down with it.
import type { Tool } from "../tools/types.ts"
import type { PluginFile } from "./discover.ts"
import { registerPluginModule } from "./module.ts"
import { pluginExports, type PluginHooks } from "./validate.ts"

/** A plugin whose top-level code has not finished by then (a top-level await that never ends) is left out. */
export const IMPORT_TIMEOUT_MS = 10_000

export interface LoadedPlugin extends PluginFile {
  tools: Tool[]
  hooks?: PluginHooks
  /** why the file (error) or some of its exports (problems) were left out */
  error?: string
  problems: string[]
}

export async function loadPluginFiles(files: readonly PluginFile[], timeoutMs = IMPORT_TIMEOUT_MS): Promise<LoadedPlugin[]> {
  // one at a time, in order: load order is hook order, and plugin top-level code should not interleave
  const loaded: LoadedPlugin[] = []
  for (const file of files) loaded.push(await loadPluginFile(file, timeoutMs))
  return loaded
}

export async function loadPluginFile(file: PluginFile, timeoutMs = IMPORT_TIMEOUT_MS): Promise<LoadedPlugin> {
  registerPluginModule()
  let module: Record<string, unknown>
  try {
    module = await importWithin(file.path, timeoutMs)
  } catch (error) {
    return { ...file, tools: [], problems: [], error: describeImportError(error) }
  }
  const found = pluginExports(module, file.path)
  return { ...file, tools: found.tools, hooks: found.hooks, problems: found.problems }
}

async function importWithin(path: string, ms: number): Promise<Record<string, unknown>> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not finish loading within ${ms / 1000}s (a top-level await that never ends?)`)), ms)
  })
  try {
    return (await Promise.race([import(path), late])) as Record<string, unknown>
  } finally {
    clearTimeout(timer)
  }
}

function describeImportError(error: unknown): string {
  if (error instanceof Error) {
    const name = error.name && error.name !== "Error" ? `${error.name}: ` : ""
    return `failed to load: ${name}${error.message}`
  }
  // Bun reports build errors (syntax) as an aggregate with a message per problem
  const errors = (error as { errors?: { message?: string }[] })?.errors
  if (Array.isArray(errors) && errors.length) return `failed to load: ${errors.map((e) => e.message).join("; ")}`
  return `failed to load: ${String(error)}`
}
