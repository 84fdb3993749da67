// Bundles and imports plugin files and sorts their exports. A workspace or task plugin is imported
// only when every input of its bundle (its own file, its relative imports, its packages) is trusted
// as it is now. A file that fails to bundle, throws or hangs while loading is reported with its
// path and left out; it never takes the run (or `ccode plugins ls`) down with it.
import { realpathSync } from "node:fs"
import type { Tool } from "../tools/types.ts"
import { bundlePlugin, type BundleInput } from "./bundle.ts"
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
  /** what its bundle was built from (undefined when it could not be bundled) */
  inputs?: BundleInput[]
  /** inputs not trusted as they are now: the plugin was not imported */
  untrusted?: string[]
}

export interface PluginLoadOptions {
  timeoutMs?: number
  /** where bundles are cached ($CCODE_HOME/cache); default: a folder under the temp dir */
  cacheDir?: string
  /** the trust store; user plugins (the user's own folder) need none */
  isTrusted?: (path: string, sha256: string) => boolean
}

export async function loadPluginFiles(files: readonly PluginFile[], opts: PluginLoadOptions = {}): Promise<LoadedPlugin[]> {
  // one at a time, in order: load order is hook order, and plugin top-level code should not interleave
  const loaded: LoadedPlugin[] = []
  for (const file of files) loaded.push(await loadPluginFile(file, opts))
  return loaded
}

export async function loadPluginFile(file: PluginFile, opts: PluginLoadOptions = {}): Promise<LoadedPlugin> {
  registerPluginModule()
  // the user's own plugins need no trust; the others are neither built nor imported until trusted
  const isTrusted = file.origin === "user" ? undefined : opts.isTrusted
  let bundle
  try {
    bundle = await bundlePlugin(realpathSync(file.path), opts.cacheDir, isTrusted)
  } catch (error) {
    return { ...file, tools: [], problems: [], error: describeImportError(error) }
  }
  const untrusted = bundle.untrusted ?? (isTrusted ? bundle.inputs.filter((i) => !isTrusted(i.path, i.hash)).map((i) => i.path) : [])
  if (untrusted.length || !bundle.file) return { ...file, tools: [], problems: [], inputs: bundle.inputs, untrusted }
  let module: Record<string, unknown>
  try {
    module = await importWithin(bundle.file, opts.timeoutMs ?? IMPORT_TIMEOUT_MS)
  } catch (error) {
    return { ...file, tools: [], problems: [], inputs: bundle.inputs, error: describeImportError(error) }
  }
  const found = pluginExports(module, file.path)
  return { ...file, tools: found.tools, hooks: found.hooks, problems: found.problems, inputs: bundle.inputs }
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
