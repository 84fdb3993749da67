// Runs git for ccode's own bookkeeping (workspace watch, snapshots, undo) so that nothing the
// repository (or a hostile config) names as a program is ever executed. Never inherits GIT_* env.

/** Config that closes the doors git opens to configured programs during status/diff/add/commit/checkout/read-tree. */
export const SAFE_CONFIG: readonly string[] = [
  "core.fsmonitor=false",
  "core.useBuiltinFSMonitor=false",
  "core.hooksPath=/dev/null",
  "core.pager=cat",
  "core.untrackedCache=false",
  "core.editor=:",
  "sequence.editor=:",
  "core.sshCommand=false",
  "credential.helper=",
  "protocol.allow=never",
  "commit.gpgSign=false",
  "tag.gpgSign=false",
  "log.showSignature=false",
  "gc.auto=0",
  "maintenance.auto=false",
  "submodule.recurse=false",
  "status.submoduleSummary=false",
  "diff.ignoreSubmodules=all",
  "color.ui=never",
]

/** Subcommands that can run external diff programs or textconv filters unless told not to. */
const DIFF_FAMILY = new Set(["diff", "log", "show", "format-patch", "whatchanged"])

export interface SafeGitOptions {
  cwd: string
  /** a separate repository (snapshots): exported as GIT_DIR */
  gitDir?: string
  /** the work tree to use with gitDir: exported as GIT_WORK_TREE */
  workTree?: string
  /** added after the inherited GIT_* variables were dropped; explicit GIT_* here are kept (ccode's own choice) */
  env?: Record<string, string | undefined>
  /** written to git's stdin */
  input?: string | Uint8Array
  /** names of filter drivers to neutralise; default: asked from git's config first (one extra spawn) */
  filters?: readonly string[]
  /** kill git after this long (default 60s) */
  timeoutMs?: number
  /** throw a GitError on a non-zero exit */
  check?: boolean
}

export interface GitResult {
  exitCode: number
  stdout: string
  stderr: string
  /** stdout as bytes, for blobs and -z output with non-UTF-8 names */
  stdoutBytes: Uint8Array
}

export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly result: GitResult,
  ) {
    super(`git ${args.join(" ")} failed (exit ${result.exitCode}): ${result.stderr.trim() || result.stdout.trim()}`)
  }
}

export async function safeGit(args: readonly string[], opts: SafeGitOptions): Promise<GitResult> {
  const filters = opts.filters ?? (await configuredFilters(opts))
  const argv = safeGitArgv(args, filters)
  const result = await spawnGit(argv, opts)
  if (opts.check && result.exitCode !== 0) throw new GitError(args, result)
  return result
}

/**
 * Filter drivers named anywhere in git's config (repository, included files, global). Their
 * clean/smudge/process programs run whenever git reads or writes file content, and no fixed
 * `-c` can switch off a driver whose name we do not know — so we ask for the names first.
 */
export async function configuredFilters(opts: SafeGitOptions): Promise<string[]> {
  const argv = safeGitArgv(["config", "-z", "--name-only", "--get-regexp", "^filter\\."], [])
  const result = await spawnGit(argv, { ...opts, input: undefined })
  // exit 1: no filter configured; anything else unexpected is not fatal here, the main call reports it
  const names = new Set<string>()
  for (const key of result.stdout.split("\0")) {
    const match = /^filter\.(.+)\.[^.]+$/s.exec(key)
    if (match) names.add(match[1]!)
  }
  return [...names]
}

/** The full argument vector: hardening options first, then the caller's subcommand. Pure. */
export function safeGitArgv(args: readonly string[], filters: readonly string[]): string[] {
  const argv = ["--no-pager", "--no-optional-locks"]
  for (const entry of SAFE_CONFIG) argv.push("-c", entry)
  for (const name of filters) {
    // an empty program means "no filter"; required=false keeps git from failing on the missing one
    argv.push("-c", `filter.${name}.clean=`, "-c", `filter.${name}.smudge=`, "-c", `filter.${name}.process=`)
    argv.push("-c", `filter.${name}.required=false`)
  }
  const [subcommand, ...rest] = args
  if (subcommand === undefined) return argv
  argv.push(subcommand)
  if (DIFF_FAMILY.has(subcommand)) argv.push("--no-ext-diff", "--no-textconv")
  // a submodule is another repository with its own config (and its own filter names): never enter it
  if (subcommand === "status" && !rest.some((arg) => arg.startsWith("--ignore-submodules"))) argv.push("--ignore-submodules=all")
  argv.push(...rest)
  return argv
}

/** The environment git runs with: the caller's minus every GIT_* variable, plus our own. Pure. */
export function safeGitEnv(
  base: Record<string, string | undefined>,
  opts: Pick<SafeGitOptions, "gitDir" | "workTree" | "env">,
): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || name.startsWith("GIT_")) continue
    // programs git would start for paging or editing; ours never need them
    if (name === "PAGER" || name === "EDITOR" || name === "VISUAL" || name === "SSH_ASKPASS") continue
    env[name] = value
  }
  env.GIT_CONFIG_NOSYSTEM = "1"
  env.GIT_TERMINAL_PROMPT = "0"
  // no transport at all, whatever the repository's config says: a `protocol.<name>.allow` there beats
  // protocol.allow=never, and a partial clone fetches missing objects (running the remote's ext::
  // command, uploadpack or ssh) when ccode lists names; an empty list allows none (git >= 2.44 also
  // stops lazy fetching)
  env.GIT_ALLOW_PROTOCOL = ""
  env.GIT_NO_LAZY_FETCH = "1"
  if (opts.gitDir) env.GIT_DIR = opts.gitDir
  if (opts.workTree) env.GIT_WORK_TREE = opts.workTree
  for (const [name, value] of Object.entries(opts.env ?? {})) {
    if (value === undefined) delete env[name]
    else env[name] = value
  }
  return env
}

async function spawnGit(argv: string[], opts: SafeGitOptions): Promise<GitResult> {
  const input = typeof opts.input === "string" ? new TextEncoder().encode(opts.input) : opts.input
  const child = Bun.spawn(["git", ...argv], {
    cwd: opts.cwd,
    env: safeGitEnv(process.env, opts),
    stdin: input ?? "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: opts.timeoutMs ?? 60_000,
    killSignal: "SIGKILL",
  })
  const [stdoutBytes, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).bytes(),
    new Response(child.stderr).text(),
    child.exited,
  ])
  return { exitCode, stdout: new TextDecoder().decode(stdoutBytes), stderr, stdoutBytes }
}
