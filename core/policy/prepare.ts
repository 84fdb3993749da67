// Turning a proposed tool call into a Call for decide(): the I/O edge of the policy engine (shell
// analysis, path resolution with symlinks). decide() itself never touches the fs.
import { tmpdir } from "node:os"
import { isAbsolute, join, resolve } from "node:path"
import { analyzeShell, credentialsBelow } from "../shell/index.ts"
import { declaredPaths, type Declaration } from "../tools/declare.ts"
import { expandHome, isInside, realpathExisting } from "../base/paths.ts"
import { gitRepoAt } from "../base/gitrepo.ts"
import { globLinks, walkLinks } from "./globdisk.ts"
import type { TouchedPath } from "../shell/types.ts"
import { BUILTIN_DECLARATIONS } from "../tools/builtin/declarations.ts"
import type { DeclaredPath } from "../tools/types.ts"
import type { Risk } from "../base/risk.ts"
import type { Call, CallPath } from "./types.ts"

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
  /** loader/config variables (PATH, BASH_ENV, LD_*, ...) the task's env: sets: every call sees them */
  loaderEnv?: readonly string[]
  /** what the tool declares it touches (effects, paths); default: the built-in of that name, else guessed from argument names */
  declaration?: Declaration
  /** more paths the call reads, each judged as read_file's path (a host tool's list: read_many_files) */
  reads?: readonly string[]
  /** symlink resolution; default: realpath of the longest existing prefix */
  realpath?: (path: string) => string
  /** which repository git started in a folder uses; default: core/base/gitrepo.ts on the real fs */
  gitRepo?: (dir: string) => string
}

export async function prepareCall(tool: string, args: Record<string, unknown>, ctx: PrepareContext): Promise<Call> {
  const call = await prepareBare(tool, args, ctx)
  if (!ctx.loaderEnv?.length) return call
  // as for a `PATH=./bin cmd` prefix: at least high, and no allow rule covers a shell command
  const raised = [...(call.raised ?? []), { risk: "high" as const, reason: `the task's env sets ${ctx.loaderEnv.join(", ")}, which change what programs load` }]
  if (!call.shell) return { ...call, raised }
  return { ...call, shell: { ...call.shell, commands: call.shell.commands.map((c) => ({ ...c, loaderEnv: true })) }, raised }
}

async function prepareBare(tool: string, args: Record<string, unknown>, ctx: PrepareContext): Promise<Call> {
  const real = ctx.realpath ?? realpathExisting
  const base = {
    tool, args, workspace: ctx.workspace, home: ctx.home, toolRisk: ctx.toolRisk,
    tmpDirs: ctx.tmpDirs ?? defaultTmpDirs(real),
  }
  if (tool === "shell") {
    const cwd = typeof args.cwd === "string" && args.cwd ? resolve(ctx.cwd, expandHome(args.cwd, ctx.home)) : ctx.cwd
    const command = typeof args.command === "string" ? args.command : ""
    const gitRepo = ctx.gitRepo ?? ((dir: string) => gitRepoAt(dir, ctx.workspace))
    const shell = await analyzeShell(command, { cwd, workspace: ctx.workspace, home: ctx.home, env: ctx.env, overrides: ctx.overrides, realpath: real, gitRepo })
    const paths: CallPath[] = shell.paths.map((p) => (p.glob ? { path: real(p.path), access: p.access, glob: true } : { path: real(p.path), access: p.access }))
    const raised = onDisk(shell.paths, paths, ctx.workspace, real)
    return { ...base, cwd, shell, paths, ...(raised.length ? { raised } : {}) }
  }
  let declared: DeclaredPath[]
  try {
    declared = declaredPaths(ctx.declaration ?? builtinDeclaration(tool), args)
  } catch {
    // a tool that cannot say what it touches is not trusted to touch nothing
    return { ...base, cwd: ctx.cwd, toolRisk: "critical", paths: [] }
  }
  const paths: CallPath[] = []
  const touched: TouchedPath[] = []
  const reads: DeclaredPath[] = ctx.reads?.map((path) => ({ path, access: "read" })) ?? []
  for (const p of reads.length ? [...declared, ...reads] : declared) {
    const path = real(resolve(ctx.cwd, expandHome(p.path, ctx.home)))
    // a host's tool may take a glob (Gemini's read_many_files): matched like a shell glob
    const glob = /[*?[]/.test(path)
    paths.push(p.dir ? { path, access: p.access, dir: true } : glob ? { path, access: p.access, glob: true } : { path, access: p.access })
    if (glob) touched.push({ path, access: p.access, glob: true })
    if (p.contents) for (const c of credentialsBelow(path, ctx.home)) paths.push({ path: c, access: "read" })
  }
  const raised = onDisk(touched, paths, ctx.workspace, real)
  return { ...base, cwd: ctx.cwd, paths, ...(raised.length ? { raised } : {}) }
}

// What the shell analysis cannot know without the disk: where a glob's matches and the links a
// link-following walk meets really lead. Adds those paths; returns what could not be looked up.
function onDisk(touched: TouchedPath[], paths: CallPath[], workspace: string, real: (p: string) => string): NonNullable<Call["raised"]> {
  const raised: NonNullable<Call["raised"]> = []
  for (const p of touched) {
    if (p.glob) {
      const found = globLinks(p.path, real)
      for (const link of found.links) paths.push({ path: link, access: p.access })
      if (!found.complete) raised.push({ risk: "medium", reason: `${p.path} matches too many entries to check where their links lead` })
    }
    if (p.follow) {
      const walk = walkLinks(real(p.path), workspace, real)
      for (const l of walk.links) {
        if (isInside(workspace, l.to)) continue
        paths.push({ path: l.to, access: "read" })
        if (l.dir) raised.push({ risk: "medium", reason: `a walk of ${p.path} that follows links reads the folder ${l.to} outside the workspace (through ${l.at})` })
      }
      if (!walk.complete) raised.push({ risk: "medium", reason: `a walk of ${p.path} that follows links: too many files to check where their links lead` })
    }
  }
  return raised
}

// Hook mode and `policy check` decide built-in calls without a registry: the built-ins' own declarations.
function builtinDeclaration(tool: string): Declaration | undefined {
  return Object.hasOwn(BUILTIN_DECLARATIONS, tool) ? BUILTIN_DECLARATIONS[tool] : undefined
}

let tmpCache: string[] | undefined

function defaultTmpDirs(real: (p: string) => string): string[] {
  tmpCache ??= [...new Set([tmpdir(), "/tmp", "/var/tmp"].map((d) => real(d)))]
  return tmpCache
}
