// Which plugin files a run may load: the user's, the workspace's (only when
// trusted: plugin code runs with the user's rights), and the task's. Reads the fs; imports nothing.
import { readdirSync, readFileSync, statSync } from "node:fs"
import { isAbsolute, join, resolve } from "node:path"
import { sha256 } from "../base/hash.ts"
import { realpathOr } from "../base/paths.ts"

export type PluginOrigin = "user" | "workspace" | "task"

export interface PluginFile {
  /** absolute path */
  path: string
  origin: PluginOrigin
}

export interface SkippedPlugin extends PluginFile {
  reason: string
}

export interface DiscoverOptions {
  workspace: string
  env: Record<string, string | undefined>
  home: string
  /** the trust store (content hash per file); `--trust` makes it always true */
  isTrusted(path: string, sha256: string): boolean
  /** the task's `plugins:` entries, relative to its folder */
  task?: { file: string; dir: string; entries: string[] }
}

export interface Discovered {
  files: PluginFile[]
  skipped: SkippedPlugin[]
  /** task entries that name nothing loadable, by index in `plugins:` */
  missing: { index: number; message: string }[]
}

export function discoverPlugins(opts: DiscoverOptions): Discovered {
  const files: PluginFile[] = []
  const skipped: SkippedPlugin[] = []
  const missing: Discovered["missing"] = []
  const seen = new Set<string>()
  const add = (path: string, origin: PluginOrigin) => {
    const real = realpathOr(path)
    if (seen.has(real)) return
    seen.add(real)
    files.push({ path, origin })
  }
  for (const path of pluginFilesIn(userPluginDir(opts.env, opts.home))) add(path, "user")
  for (const path of workspacePluginFiles(opts.workspace)) {
    if (opts.isTrusted(path, fileHash(path))) add(path, "workspace")
    else skipped.push({ path, origin: "workspace", reason: "the workspace plugin is not trusted: review it, then `ccode trust` (or --trust for one run)" })
  }
  const task = opts.task
  task?.entries.forEach((entry, index) => {
    const target = isAbsolute(entry) ? entry : resolve(task.dir, entry)
    const kind = fileKind(target)
    if (!kind) return missing.push({ index, message: `plugin ${entry} not found (looked for ${target})` })
    const paths = kind === "dir" ? pluginFilesIn(target) : [target]
    if (kind === "dir" && !paths.length) return missing.push({ index, message: `plugin folder ${entry} has no .ts files` })
    for (const path of paths) {
      // by its own content, like a workspace plugin: trusting the task file once does not cover later edits
      if (opts.isTrusted(path, fileHash(path))) add(path, "task")
      else skipped.push({ path, origin: "task", reason: `the task plugin is not trusted: review it, then \`ccode trust ${task.file}\` (or --trust for one run)` })
    }
  })
  return { files, skipped, missing }
}

/** `$XDG_CONFIG_HOME/ccode/plugins`, else `~/.config/ccode/plugins`. */
export function userPluginDir(env: Record<string, string | undefined>, home: string): string {
  return join(env.XDG_CONFIG_HOME || join(home, ".config"), "ccode", "plugins")
}

/** `.ccode/plugins/*.ts` of a workspace (the same paths `ccode trust` records). */
export function workspacePluginFiles(workspace: string): string[] {
  return pluginFilesIn(join(workspace, ".ccode", "plugins"))
}

/** Plugin files of a folder: `*.ts` except type declarations, sorted (their load order). */
export function pluginFilesIn(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"))
      .sort()
      .map((name) => join(dir, name))
      .filter((path) => fileKind(path) === "file")
  } catch {
    return []
  }
}

/** The content hash `ccode trust` records for a file. */
export function fileHash(path: string): string {
  try {
    return sha256(readFileSync(path, "utf8"))
  } catch {
    return ""
  }
}

function fileKind(path: string): "file" | "dir" | undefined {
  try {
    const st = statSync(path)
    return st.isDirectory() ? "dir" : st.isFile() ? "file" : undefined
  } catch {
    return undefined
  }
}

