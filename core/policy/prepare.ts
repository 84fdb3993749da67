// Turning a proposed tool call into a Call for decide(): the I/O edge of the policy engine (shell
// analysis, path resolution with symlinks). decide() itself never touches the fs.
import { tmpdir } from "node:os"
import { hooksDirs } from "../base/hookspath.ts"
import { ccodeOwnPaths } from "./owndirs.ts"
import { includedConfigFiles } from "../base/gitincludes.ts"
import { analyzeShell, braceWords, MAX_BRACE_WORDS } from "../shell/index.ts"
import { declaredPaths, type Declaration } from "../tools/declare.ts"
import { absoluteFrom, isInside, realpathKnown } from "../base/paths.ts"
import { deviceName } from "../base/devnode.ts"
import { statSync } from "node:fs"
import { posix } from "node:path"
import { gitRepoAt, workspaceGitDirs } from "../base/gitrepo.ts"
import { projectAbove as buildProjectAbove } from "../base/buildroot.ts"
import { netConfigs } from "./netconfig.ts"
import { gitEnvConfigs } from "./gitenvconfig.ts"
import { configuredCredentials, namedFiles, namedJudge } from "./namedcreds.ts"
import { gitTreeWrites } from "./gittrees.ts"
import { relocatedStore } from "../shell/relocated.ts"
import { onDisk, type DiskPath, type Raised } from "./ondisk.ts"
import { skillBlocks } from "./skillfiles.ts"
import { agentDefinition } from "./agentfiles.ts"
import { pathJudge } from "./compile.ts"
import { BUILTIN_DECLARATIONS } from "../tools/builtin/declarations.ts"
import type { DeclaredPath } from "../tools/types.ts"
import type { Risk } from "../base/risk.ts"
import type { Call, CallPath, Policy } from "./types.ts"

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
  /** the project file above the workspace a build runner would use; default: core/base/buildroot.ts on the real fs */
  projectAbove?: (program: string, dir: string, loose: boolean) => string | undefined
  /** the policy deciding the call: its risk.paths pick the files looked up on disk below a recursive
   *  read and among a glob's matches; default: the built-in credential locations only */
  policy?: Policy
  /** what a hook host does with the payload beyond the tool's arguments (core/hosts/adjust.ts) */
  host?: { raised?: Raised; skill?: string; agent?: string; mustExist?: readonly string[] }
}

export async function prepareCall(tool: string, args: Record<string, unknown>, ctx: PrepareContext): Promise<Call> {
  const call = withHost(await prepareBare(tool, args, ctx), ctx)
  if (!ctx.loaderEnv?.length) return call
  // as for a `PATH=./bin cmd` prefix: at least high, and no allow rule covers a shell command
  const raised = [...(call.raised ?? []), { risk: "high" as const, reason: `the task's env sets ${ctx.loaderEnv.join(", ")}, which change what programs load` }]
  if (!call.shell) return { ...call, raised }
  return { ...call, shell: { ...call.shell, commands: call.shell.commands.map((c) => ({ ...c, loaderEnv: true })) }, raised }
}

// the host's own findings, and a Claude skill's command blocks (they run without the hook)
function withHost(call: Call, ctx: PrepareContext): Call {
  const raised: Raised = [...(ctx.host?.raised ?? [])]
  if (ctx.host?.skill !== undefined) skillBlocks(ctx.host.skill, ctx.cwd, ctx.home, ctx.env ?? {}, raised)
  if (ctx.host?.agent !== undefined) agentDefinition(ctx.host.agent, ctx.cwd, ctx.home, ctx.env ?? {}, raised)
  const missing = ctx.host?.mustExist?.length && !ctx.host.mustExist.some((p) => statSync(absoluteFrom(ctx.cwd, p, ctx.home), { throwIfNoEntry: false }))
  if (missing) {
    raised.push({ risk: "high", reason: `${ctx.host!.mustExist![0]} does not exist: Gemini CLI's replace then edits a file of that name it finds elsewhere in the workspace (any folder, .gemini and .git included)` })
  }
  return raised.length ? { ...call, raised: [...(call.raised ?? []), ...raised] } : call
}

async function prepareBare(tool: string, args: Record<string, unknown>, ctx: PrepareContext): Promise<Call> {
  // paths whose place the disk would not give (ENAMETOOLONG past PATH_MAX, ELOOP, EACCES): not known
  const unplaced = new Map<string, string>()
  const real = ctx.realpath ?? ((p: string) => {
    const r = realpathKnown(p)
    if (r.unknown) unplaced.set(p, r.unknown)
    // a block or memory device by what it is, whatever its name (devnode.ts)
    return deviceName(r.path)
  })
  const base = {
    tool, args, workspace: ctx.workspace, home: ctx.home, toolRisk: ctx.toolRisk,
    tmpDirs: ctx.tmpDirs ?? defaultTmpDirs(real),
    ...gitDirsOf(ctx.workspace),
  }
  const hooks = hooksDirs(ctx.workspace, ctx.home, base.gitDirs, ctx.env)
  if (hooks.length) Object.assign(base, { hooksDirs: hooks })
  Object.assign(base, { ownPaths: ccodeOwnPaths(ctx.env ?? process.env, ctx.home) })
  const unreadable: string[] = []
  const includes = includedConfigFiles(ctx.workspace, ctx.home, base.gitDirs, ctx.env ?? {}, unreadable)
  if (includes.length) Object.assign(base, { gitIncludes: includes })
  if (tool === "shell") {
    const cwd = typeof args.cwd === "string" && args.cwd ? real(absoluteFrom(ctx.cwd, args.cwd, ctx.home)) : ctx.cwd
    const command = typeof args.command === "string" ? args.command : ""
    const gitRepo = ctx.gitRepo ?? ((dir: string) => gitRepoAt(dir, ctx.workspace))
    const projectAbove = ctx.projectAbove ?? ((program: string, dir: string, loose: boolean) => buildProjectAbove(program, dir, ctx.workspace, ctx.home, loose))
    const shell = await analyzeShell(command, { cwd, workspace: ctx.workspace, home: ctx.home, env: ctx.env, overrides: ctx.overrides, realpath: real, gitRepo, projectAbove })
    const paths: CallPath[] = []
    // what a walk or glob meets is judged by the path rules and by the settings' and variables' named files
    const names = namedFiles(ctx.home, ctx.workspace, base.gitDirs ?? [], ctx.env)
    const met: Raised = []
    const judged = namedJudge(pathJudge(ctx.policy, ctx.workspace, ctx.home), names, ctx.env, met)
    const raised = onDisk(shell.paths, paths, { workspace: ctx.workspace, home: ctx.home, realpath: real, judged, dotglob: MAY_DOTGLOB.test(command), gitDirs: base.gitDirs, env: ctx.env, named: () => names().named.keys() })
    raised.push(...met)
    netConfigs(shell, ctx.env, ctx.home, raised)
    gitEnvConfigs(shell, ctx.env, ctx.home, cwd, raised)
    configuredCredentials(paths, ctx.home, ctx.workspace, base.gitDirs ?? [], ctx.env, raised, names)
    gitTreeWrites(shell, statSync(posix.join(ctx.workspace, ".git"), { throwIfNoEntry: false }) ? ctx.workspace : undefined, paths, raised)
    notResolved(unplaced, raised)
    configUnknown(unreadable, paths, ctx.workspace, raised)
    return { ...base, cwd, shell, paths, ...(raised.length ? { raised } : {}) }
  }
  let declared: DeclaredPath[]
  try {
    declared = declaredPaths(ctx.declaration ?? builtinDeclaration(tool), args)
  } catch {
    // a tool that cannot say what it touches is not trusted to touch nothing
    return { ...base, cwd: ctx.cwd, toolRisk: "critical", paths: [] }
  }
  const touched: DiskPath[] = []
  const raised: Raised = []
  // read_many_files expands a folder it is given to FOLDER/** (gemini-cli's read-many-files): its files are read
  const reads: DeclaredPath[] = ctx.reads?.flatMap((path) => folderReads(path, ctx, real)) ?? []
  for (const p of reads.length ? [...declared, ...reads] : declared) {
    // most host tools open the path as written (Claude's Read, Gemini's read_file: `d{x,y}` may be a real
    // name), some take a glob with braces (Glob, read_many_files): both readings are checked
    const full = absoluteFrom(ctx.cwd, p.path, ctx.home)
    const expanded = braceWords(full)
    if (!expanded) raised.push({ risk: "medium", reason: `${p.path} has a brace expansion ccode does not follow (more than ${MAX_BRACE_WORDS} paths, or a letter range across the cases)` })
    let words = [...new Set([full, ...(expanded ?? [])])]
    // read_many_files' glob has nocase: `KEYS/*` reads keys/server.pem, so the literal names of its pattern match any case
    if (reads.length && /[*?[]/.test(p.path) && reads.includes(p)) words = words.map((w) => anyCase(w, p.path.startsWith("/") ? 0 : ctx.cwd.length))
    for (const one of bothDots(words)) {
      const d: DiskPath = { path: one, access: p.access }
      if (/[*?[]/.test(one)) d.glob = true
      if (p.dir) d.dir = true
      if (p.contents) d.contents = true
      touched.push(d)
    }
    if (/[@!+*?]\(/.test(p.path)) raised.push({ risk: "medium", reason: `${p.path} is an extended glob pattern ccode does not read` })
  }
  const paths: CallPath[] = []
  const names = namedFiles(ctx.home, ctx.workspace, base.gitDirs ?? [], ctx.env)
  const judged = namedJudge(pathJudge(ctx.policy, ctx.workspace, ctx.home), names, ctx.env, raised)
  raised.push(...onDisk(touched, paths, { workspace: ctx.workspace, home: ctx.home, realpath: real, judged, gitDirs: base.gitDirs, named: () => names().named.keys() }))
  configuredCredentials(paths, ctx.home, ctx.workspace, base.gitDirs ?? [], ctx.env, raised, names)
  // a store XDG_CONFIG_HOME/XDG_DATA_HOME/CARGO_HOME moved (the shell analysis judges its own reads)
  for (const p of paths) {
    const moved = p.access === "read" && !p.glob ? relocatedStore(tool, p.path, [p.path], ctx.env) : undefined
    if (moved) {
      raised.push({ risk: "high", reason: moved })
      break
    }
  }
  notResolved(unplaced, raised)
  configUnknown(unreadable, paths, ctx.workspace, raised)
  return { ...base, cwd: ctx.cwd, paths, ...(raised.length ? { raised } : {}) }
}

// a git config that cannot be read whole may include any workspace file or move the hooks folder into
// the workspace: a write there is not proven harmless
function configUnknown(unreadable: readonly string[], paths: readonly CallPath[], workspace: string, raised: Raised): void {
  if (!unreadable.length) return
  const w = paths.find((p) => p.access !== "read" && isInside(workspace, p.path))
  if (w) raised.push({ risk: "high", reason: `writes ${w.path} while ${unreadable[0]}: the files it includes and the hooks folder it names are not known` })
}

// Hook mode and `policy check` decide built-in calls without a registry: the built-ins' own declarations.
function builtinDeclaration(tool: string): Declaration | undefined {
  return Object.hasOwn(BUILTIN_DECLARATIONS, tool) ? BUILTIN_DECLARATIONS[tool] : undefined
}

// what can turn dotglob on before a glob is expanded (shopt -s dotglob, bash -O dotglob, a GLOBIGNORE
// assignment, a BASHOPTS environment, a shopt whose option is named at run time): then `*` matches .env
const MAY_DOTGLOB = /dotglob|GLOBIGNORE|BASHOPTS|\bshopt\b[^;&|\n]*\$/

// a workspace whose .git is a file pointing to `gitdata` (or a link): writes there are writes to .git
function gitDirsOf(workspace: string): { gitDirs?: string[] } {
  const dirs = workspaceGitDirs(workspace)
  return dirs.length ? { gitDirs: dirs } : {}
}

// the segments without a glob character after `from` (the host's pattern, not its working directory),
// their letters as classes of both cases: the disk lookup then finds `keys/` for `KEYS/*`
function anyCase(path: string, from: number): string {
  const start = Math.max(0, path.lastIndexOf("/", Math.max(0, from)))
  const tail = path.slice(start).split("/").map((seg) => (/[*?[\\]/.test(seg) ? seg : seg.replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`)))
  return path.slice(0, start) + tail.join("/")
}

let tmpCache: string[] | undefined

function defaultTmpDirs(real: (p: string) => string): string[] {
  tmpCache ??= [...new Set([tmpdir(), "/tmp", "/var/tmp"].map((d) => real(d)))]
  return tmpCache
}

// a path the disk would not resolve is judged lexically: a `link/..` in it may be elsewhere (medium)
function notResolved(unplaced: ReadonlyMap<string, string>, raised: Raised): void {
  for (const [path, code] of unplaced) {
    const shown = path.length > 120 ? `${path.slice(0, 60)}…${path.slice(-60)}` : path
    raised.push({ risk: "medium", reason: `${shown} cannot be resolved on disk (${code}): where its links lead is not known` })
  }
}

// a host's tool may resolve `..` lexically (Gemini's path.resolve: `x/..` is where x is), where the kernel
// goes to the parent of what x leads to: both places are judged
function bothDots(paths: string[]): string[] {
  const out: string[] = []
  for (const p of paths) {
    out.push(p)
    if (/\/\.\.(\/|$)/.test(p)) {
      const lexical = posix.normalize(p)
      if (lexical !== p) out.push(lexical)
    }
  }
  return out
}

// a read_many_files path: itself, and FOLDER/** when it names a folder on disk (the tool reads what it holds)
function folderReads(path: string, ctx: PrepareContext, real: (p: string) => string): DeclaredPath[] {
  const one: DeclaredPath = { path, access: "read" }
  if (/[*?[{]/.test(path)) return [one]
  const full = real(absoluteFrom(ctx.cwd, path, ctx.home))
  const folder = statSync(full, { throwIfNoEntry: false })?.isDirectory() === true
  return folder ? [one, { path: `${path.replace(/\/+$/, "") || "/"}/**`, access: "read" }] : [one]
}
