// Turning a proposed tool call into a Call for decide(): the I/O edge of the policy engine (shell
// analysis, path resolution with symlinks). decide() itself never touches the fs.
import { realpathSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, dirname, isAbsolute, join, resolve } from "node:path"
import { analyzeShell } from "../shell/index.ts"
import type { TouchedPath } from "../shell/types.ts"
import type { Risk } from "./risk.ts"
import type { Call } from "./types.ts"

export interface PrepareContext {
  /** absolute working directory */
  cwd: string
  /** absolute workspace root (realpath) */
  workspace: string
  home: string
  env?: Record<string, string | undefined>
  /** the tool's own declared risk (registry); undefined for unknown tools */
  toolRisk?: Risk
  /** policy risk.overrides, for the shell classifier */
  overrides?: Record<string, Risk>
  tmpDirs?: string[]
  /** symlink resolution; default: realpath of the longest existing prefix */
  realpath?: (path: string) => string
}

/** Which argument of a built-in file tool names a path, how it is accessed, and the default. */
const FILE_TOOLS: Record<string, { arg: string; access: "read" | "write"; fallback?: string }> = {
  read_file: { arg: "path", access: "read" },
  write_file: { arg: "path", access: "write" },
  edit_file: { arg: "path", access: "write" },
  list_dir: { arg: "path", access: "read", fallback: "." },
  glob: { arg: "path", access: "read", fallback: "." },
  grep: { arg: "path", access: "read", fallback: "." },
}

export async function prepareCall(tool: string, args: Record<string, unknown>, ctx: PrepareContext): Promise<Call> {
  const real = ctx.realpath ?? realpathExisting
  const base = {
    tool, args, workspace: ctx.workspace, home: ctx.home, toolRisk: ctx.toolRisk,
    tmpDirs: ctx.tmpDirs ?? defaultTmpDirs(real),
  }
  if (tool === "shell") {
    const cwd = typeof args.cwd === "string" && args.cwd ? resolve(ctx.cwd, expandHome(args.cwd, ctx.home)) : ctx.cwd
    const command = typeof args.command === "string" ? args.command : ""
    const shell = await analyzeShell(command, { cwd, workspace: ctx.workspace, home: ctx.home, env: ctx.env, overrides: ctx.overrides, realpath: real })
    return { ...base, cwd, shell, paths: shell.paths.map((p) => ({ path: real(p.path), access: p.access })) }
  }
  const spec = FILE_TOOLS[tool]
  const paths: TouchedPath[] = []
  if (spec) {
    const raw = args[spec.arg]
    const given = typeof raw === "string" && raw ? raw : spec.fallback
    if (given !== undefined) paths.push({ path: real(resolve(ctx.cwd, expandHome(given, ctx.home))), access: spec.access })
  }
  return { ...base, cwd: ctx.cwd, paths }
}

function expandHome(path: string, home: string): string {
  return path === "~" ? home : path.startsWith("~/") ? join(home, path.slice(2)) : path
}

/** realpath of the longest prefix that exists, with the rest appended (a file about to be created). */
export function realpathExisting(path: string): string {
  if (!isAbsolute(path)) return path
  let head = path
  const rest: string[] = []
  for (;;) {
    try {
      const real = realpathSync(head)
      return rest.length ? join(real, ...rest.reverse()) : real
    } catch {
      const parent = dirname(head)
      if (parent === head) return path
      rest.push(basename(head))
      head = parent
    }
  }
}

let tmpCache: string[] | undefined

function defaultTmpDirs(real: (p: string) => string): string[] {
  tmpCache ??= [...new Set([tmpdir(), "/tmp", "/var/tmp"].map((d) => real(d)))]
  return tmpCache
}
