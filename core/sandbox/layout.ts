// The sandbox of one call, resolved against the file system as it is now: the policy's paths
// expanded (~, workspace-relative), followed through symlinks, and kept only when they exist.
import { lstatSync } from "node:fs"
import { dirname, isAbsolute, join, relative } from "node:path"
import { expandHome, isInside } from "../base/paths.ts"
import type { SandboxPolicy } from "../policy/types.ts"
import { existingPaths, existingPathsOf, lookPaths } from "./present.ts"
import { HIDDEN_PATHS, HIDDEN_SOCKETS, otherHomesHidden, READ_ONLY_PATHS, socketsFromEnv } from "./defaults.ts"
import type { SandboxLayout, SandboxProxy } from "./types.ts"
import { linksOnTheWay } from "./links.ts"
import { grantedWritable, pinWritable, type WritablePin } from "./writable.ts"

export interface LayoutInput {
  bwrap: string
  policy: SandboxPolicy
  /** the policy's workspace.protected globs: the plain ones (`dir/**`, `a/b`) are read-only inside */
  protectedGlobs: readonly string[]
  workspace: string
  /** the run's own temp dir (TMPDIR inside) */
  tmpDir: string
  cwd: string
  home: string
  /** the environment the command gets: agent sockets it names are hidden */
  env?: Record<string, string | undefined>
  /** ccode's own environment (process.env when absent): agent sockets it names are hidden whatever `env` says */
  hostEnv?: Record<string, string | undefined>
  /** the folder of the runs' proxy sockets: hidden from every sandbox (one run's allowlist is not another's) */
  netDir?: string
  /** set when this call reaches the network through the host allowlist's proxy */
  proxy?: SandboxProxy
  /** the policy's writable paths as pinned when the run's sandbox was set up (pinWritable); pinned now when absent */
  writablePins?: readonly WritablePin[]
  /**
   * ccode's own folders and files (its data folder, database, configuration, sockets): hidden from every
   * sandbox whatever the workspace is; the writable roots inside one (the run's temp dir, a preview's
   * scratch copy) are bound back. The one list of what ccode keeps from the commands it runs.
   */
  own?: readonly string[]
  /** a preview's scratch copy: the workspace it copies, whose hidden and read-only paths it maps into the copy */
  origin?: string
  /** the seccomp filter's file (setid-filter.ts) */
  seccomp?: string
  /** where later host commands pick up code (hostcode.ts): read-only where they exist */
  hostCode?: readonly string[]
}

export function sandboxLayout(input: LayoutInput): SandboxLayout {
  const expand = (p: string) => expandPath(p, input.home, input.workspace)
  const granted = grantedWritable(input.writablePins ?? pinWritable(input.policy.writable.map(expand)), [input.workspace, input.tmpDir])
  const writable = unique([input.workspace, input.tmpDir, ...granted])
  // a protected path the policy explicitly made writable (writable: [.git]) is the user's choice
  const protectedNames = input.protectedGlobs.flatMap((g) => plainPath(g) ?? []).map(expand).filter((p) => !granted.some((w) => isInside(w, p)))
  const protectedPaths = existingPaths(protectedNames).filter((p) => !granted.some((w) => isInside(w, p)))
  const fixed = fixedPaths(input.home, input.workspace)
  const policyReadOnly = input.policy.read_only.map(expand)
  // the sockets ccode's own environment names as well as the step's: a task's `env:` that points
  // SSH_AUTH_SOCK or XDG_RUNTIME_DIR elsewhere must not un-hide the real ones
  const policyHidden = [...HIDDEN_SOCKETS, ...socketsFromEnv(input.hostEnv ?? process.env), ...socketsFromEnv(input.env ?? {}), ...input.policy.hidden, ...(input.netDir ? [input.netDir] : [])].map(expand)
  const copied = copiedPaths(input.origin, input.workspace)
  const readOnly = unique([
    ...existingPathsOf(fixed.readOnly), ...existingPaths(policyReadOnly), ...protectedPaths, ...gitFile(input.workspace), ...existingPathsOf(input.hostCode ?? NONE),
    ...existingPaths(copied([...fixed.readOnly, ...policyReadOnly])),
  ])
    .filter((p) => writable.some((w) => isInside(w, p)))
  // a read-only path reached through links in a writable folder: every link of the chain is watched
  // (links.ts); so is one on the way to a hidden path below a writable root (~/.kube -> dotfiles/kube in
  // a home that is the workspace: what the step put at ~/.kube, host tools would read as their config)
  // (a built-in one with nothing at its name has no link to watch; one that appears is caught as made: unmade.ts)
  const below = (paths: readonly string[]) => paths.filter((p) => writable.some((w) => w !== p && isInside(w, p)))
  const fixedBelow = below(fixed.hidden)
  const fixedThere = lookPaths(fixedBelow)
  const hiddenBelow = [...fixedBelow.filter((_, i) => fixedThere[i] !== undefined), ...below(policyHidden)]
  const links = linksOnTheWay([...fixed.readOnly, ...policyReadOnly, ...protectedNames, ...hiddenBelow], writable)
  // a folder of ccode's own that is a writable root itself (CCODE_HOME as the workspace) has nothing left to hide
  const own = existingPaths(input.own ?? []).filter((p) => !writable.includes(p))
  // (the built-in lists and the other homes' locations are the same arrays at every call: existingPathsOf)
  const hidden = unique([
    ...own,
    ...unique([
      ...existingPathsOf(fixed.hidden),
      ...existingPathsOf(otherHomesHidden(input.home)),
      ...existingPaths(policyHidden),
      // a preview's copy of a hidden path (~/.netrc of a workspace that is the home) is as hidden as the original
      ...existingPaths(copied([...fixed.hidden, ...otherHomesHidden(input.home), ...policyHidden])),
    ])
      // the workspace and the temp dir stay what they are, even when a socket path names them
      .filter((p) => !writable.some((w) => isInside(p, w))),
  ])
    .map((path) => (own.includes(path) ? { path, dir: isDir(path), own: true as const } : { path, dir: isDir(path) }))
  // a path inside a hidden folder is hidden with it (and could not be mounted in its read-only tmpfs),
  // unless a writable root between them shows through that folder (a preview's scratch copy inside ccode's
  // data folder): there it is hidden on its own, as bwrapArgv mounts it
  const outermost = hidden.filter((h) => !hidden.some((o) => o.dir && o.path !== h.path && isInside(o.path, h.path) &&
    !writable.some((w) => w !== o.path && isInside(o.path, w) && isInside(w, h.path))))
  const network = input.policy.network === "allow" ? "allow" : input.proxy ? "proxy" : "none"
  const layout: SandboxLayout = {
    bwrap: input.bwrap, cwd: input.cwd, writable, readOnly, pinned: pinnedFolders([...readOnly, ...outermost.map((h) => h.path), ...links.map((l) => l.path)], writable), hidden: outermost, network,
    ...(input.seccomp ? { seccomp: input.seccomp } : {}),
  }
  if (links.length) layout.links = links
  return input.proxy && network === "proxy" ? { ...layout, proxy: input.proxy } : layout
}

const NONE: readonly string[] = []

// the built-in lists expanded once per home and workspace: a run asks with the same ones at every call
let fixed: { home: string; workspace: string; readOnly: string[]; hidden: string[] } | undefined
function fixedPaths(home: string, workspace: string): { readOnly: string[]; hidden: string[] } {
  if (fixed?.home !== home || fixed.workspace !== workspace) {
    const expand = (p: string) => expandPath(p, home, workspace)
    fixed = { home, workspace, readOnly: READ_ONLY_PATHS.map(expand), hidden: HIDDEN_PATHS.map(expand) }
  }
  return fixed
}

// the paths inside `origin` that a copy of it at `copy` holds too (nothing without a copy)
function copiedPaths(origin: string | undefined, copy: string): (paths: readonly string[]) => string[] {
  if (!origin) return () => []
  return (paths) => paths.filter((p) => isInside(origin, p)).map((p) => join(copy, relative(origin, p)))
}

export function expandPath(path: string, home: string, workspace: string): string {
  const expanded = expandHome(path, home)
  return isAbsolute(expanded) ? expanded : join(workspace, expanded)
}

// `dir/**` and `a/b` name one path; a pattern with wildcards elsewhere, or a bare name (which
// matches at any depth), cannot be mounted without walking the tree, so the policy's risk rules cover it alone
function plainPath(glob: string): string | undefined {
  const path = glob.replace(/\/\*\*$/, "")
  if (/[*?[\]{}]/.test(path) || (!path.includes("/") && !glob.endsWith("/**"))) return undefined
  return path
}

// every folder strictly between the innermost writable root holding a read-only or hidden path and that
// path: a mount point cannot be renamed, so `mv conf conf2` cannot carry a hidden conf/prod/key.txt out
// from under its mount for the next call
function pinnedFolders(mounted: string[], writable: string[]): string[] {
  const out = new Set<string>()
  for (const path of mounted) {
    const root = writable.filter((w) => isInside(w, path) && w !== path).sort((a, b) => b.length - a.length)[0]
    if (!root) continue
    for (let dir = dirname(path); dir !== root && isInside(root, dir); dir = dirname(dir)) out.add(dir)
  }
  // outer folders first: a mount over an inner folder must come after the one over its parent
  return [...out].filter((d) => !writable.includes(d) && !mounted.includes(d)).sort((a, b) => a.length - b.length)
}

// a worktree's or submodule's `.git` is a file naming the repository: rewritten to `gitdir: evil`, the
// user's next git command there would read evil/config (core.fsmonitor runs a program), so it is kept
// as it is; its .git/hooks and .git/config do not exist to be protected
function gitFile(workspace: string): string[] {
  const path = join(workspace, ".git")
  try {
    return lstatSync(path).isFile() ? [path] : []
  } catch {
    return []
  }
}

function isDir(path: string): boolean {
  try {
    return lstatSync(path).isDirectory()
  } catch {
    return false
  }
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)]
}
