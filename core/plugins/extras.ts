// The tools a run gets beyond the built-ins: plugins (user, trusted workspace, task) and the tools
// of MCP servers (policy and task), added to the registry in that order. A name clash is a
// configuration error naming both files; a plugin or server that fails is reported and left out.
import type { Policy } from "../policy/types.ts"
import type { LoadedTask } from "../task/load.ts"
import { ConfigError, positionOf } from "../base/yaml.ts"
import { addTool, type ToolRegistry } from "../tools/registry.ts"
import type { Tool } from "../tools/types.ts"
import { discoverPlugins, type SkippedPlugin } from "./discover.ts"
import { loadPluginFiles, type LoadedPlugin } from "./load.ts"
import type { PluginHooks } from "./validate.ts"

export type McpServers = Policy["mcp"]["servers"]

export interface ExtrasOptions {
  registry: ToolRegistry
  workspace: string
  /** where MCP stdio servers start */
  cwd: string
  env: Record<string, string | undefined>
  home: string
  /** where plugin bundles are cached ($CCODE_HOME/cache) */
  cacheDir?: string
  /** the trust store; `--trust` makes every file trusted */
  isTrusted(path: string, sha256: string): boolean
  /** MCP servers of the effective policy (only trusted layers can add them) */
  servers: McpServers
  task?: LoadedTask
  /** a name clash: thrown (a run: exit 2) unless this collects it (a listing shows everything it can) */
  onClash?(error: Error): void
}

export interface Extras {
  /** beforeCall/afterCall hooks in load order (see applyHooks) */
  hooks: PluginHooks[]
  plugins: LoadedPlugin[]
  skipped: SkippedPlugin[]
  /** one line per plugin, export or MCP server left out: the run reports them and goes on */
  problems: string[]
  /** stop the MCP servers this run started */
  close(): Promise<void>
}

export async function addExtraTools(opts: ExtrasOptions): Promise<Extras> {
  const task = opts.task
  const found = discoverPlugins({
    workspace: opts.workspace,
    env: opts.env,
    home: opts.home,
    isTrusted: opts.isTrusted,
    task: task?.spec.plugins?.length ? { file: task.file, dir: task.dir, entries: task.spec.plugins } : undefined,
  })
  const missing = found.missing[0]
  if (missing && task) {
    const at = positionOf(task.source, ["plugins", missing.index])
    throw new ConfigError(task.file, at.line, at.col, missing.message)
  }
  const plugins = await loadPluginFiles(found.files, { cacheDir: opts.cacheDir, isTrusted: opts.isTrusted })
  const problems = found.skipped.map((s) => `plugin ${s.path} not loaded: ${s.reason}`)
  for (const plugin of plugins) {
    if (plugin.untrusted) {
      const reason = `not trusted as it is now: ${plugin.untrusted.join(", ")} changed since \`ccode trust\` (or was never trusted); review, then \`ccode trust\` (or --trust for one run)`
      found.skipped.push({ path: plugin.path, origin: plugin.origin, reason })
      problems.push(`plugin ${plugin.path} not loaded: ${reason}`)
    }
    if (plugin.error) problems.push(`plugin ${plugin.path} ${plugin.error}`)
    for (const problem of plugin.problems) problems.push(`plugin ${plugin.path}: ${problem}`)
    for (const tool of plugin.tools) add(opts, tool, plugin.path)
  }
  const hooks = plugins.flatMap((p) => (p.hooks ? [p.hooks] : []))

  const servers = { ...opts.servers }
  const taskServers = task?.spec.mcp?.servers ?? {}
  // a server command sits in the task file itself: trusted with the task file's content
  if (Object.keys(taskServers).length && !opts.isTrusted(task!.file, task!.sha256)) {
    problems.push(`MCP servers of ${task!.file} (${Object.keys(taskServers).join(", ")}) not started: the task file is not trusted (\`ccode trust ${task!.file}\` or --trust)`)
  } else Object.assign(servers, taskServers)
  let close = async () => {}
  if (Object.keys(servers).length) {
    const { connectServers } = await import("../mcp/client.ts")
    const connected = await connectServers(servers, { cwd: opts.cwd, env: opts.env })
    problems.push(...connected.problems)
    try {
      for (const entry of connected.tools) add(opts, entry.tool, entry.source)
    } catch (error) {
      await connected.close()
      throw error
    }
    close = connected.close
  }
  return { hooks, plugins, skipped: found.skipped, problems, close }
}

function add(opts: ExtrasOptions, tool: Tool, source: string): void {
  try {
    addTool(opts.registry, tool, source)
  } catch (error) {
    if (!opts.onClash) throw error
    opts.onClash(error as Error)
  }
}

/** Where a run records warnings (its Recorder), without this module depending on the runner. */
export interface WarningSink {
  event(type: "tool.warning", fields: { message: string }): unknown
  audit(row: { type: "error"; actor: "system"; action: string; result: "error"; reason: string }): void
}

/** Record what was left out: one `tool.warning` event (shown to the user) and one audit row each. */
export function reportExtras(recorder: WarningSink, extras: Pick<Extras, "problems">): void {
  for (const problem of extras.problems) {
    recorder.event("tool.warning", { message: problem })
    recorder.audit({ type: "error", actor: "system", action: "load_tools", result: "error", reason: problem })
  }
}
