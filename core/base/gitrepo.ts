// Which git repository git uses when started in a folder of the workspace: the workspace's own, none,
// or another one embedded in it. A bare repository's files (HEAD, config, objects/) can be committed
// to a repository or unpacked from an archive like any other files; git started inside them (`git -C
// fixtures/evil.git log`, `cd vendor/x && git log`) obeys THAT config, which can run programs
// (`gpg.program` with `log.showSignature`, `core.fsmonitor`, `core.pager`). Reads the fs, never writes.
import { lstatSync, readdirSync, type Dirent } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { isInside, realpathExisting } from "./paths.ts"
import { configRuns, parseConfig, type ConfigEntry, type ConfigRun } from "./gitconfig.ts"
import { gitlinkPaths } from "./gitlinks.ts"
import { readRegular } from "./readsafe.ts"
import { gitStateRisk } from "./gitstate.ts"
import { lazyFetchLayer } from "./gitpromisor.ts"

/** "own": the workspace root's `.git`; `own:WHY`: the same, but its config makes every git command run
 *  a program or read outside the workspace (`own:core.fsmonitor = ...`, core/base/gitconfig.ts);
 *  `own:[help,blame] WHY`: only those git commands do (man.viewer, blame.ignoreRevsFile); `own:!WHY`: its
 *  git directory's state makes every git command print a file outside it (a link, alternates); "none": no
 *  repository from `dir` up to the workspace root (git looks further up, outside the workspace, where
 *  the user's own repository is); otherwise the folder of the other repository git would find first.
 *  Any of these can follow `lazy:…` lines (core/base/gitpromisor.ts): the repository, or a submodule,
 *  is a partial clone, and the commands named there fetch from its remote. */
export type RepoAt = "own" | `own:${string}` | "none" | string

/** Like git's discovery, but fail closed: any `.git` entry, or a `HEAD` entry (a bare repository has
 *  HEAD, objects/ and refs/ — HEAD alone is enough to stop calling it proven), on the way up counts. */
export function gitRepoAt(dir: string, workspace: string): RepoAt {
  const root = realpathExisting(workspace)
  let d = realpathExisting(dir)
  if (!isInside(root, d)) return "none"
  for (;;) {
    // git checks DIR/.git before DIR itself as a git directory
    const dotGit = join(d, ".git")
    if (exists(dotGit)) {
      if (d !== root) return embeddedAt(d, gitfileTarget(dotGit) ?? dotGit)
      // a `.git` FILE at the root (worktrees, submodules) names the git directory elsewhere: one that
      // lies in the workspace outside .git/ is ordinary files there (an unpacked archive can bring both)
      const target = gitfileTarget(dotGit)
      if (target !== undefined && isInside(root, target) && !isInside(dotGit, target)) return embeddedAt(target, target)
      return ownConfig(target ?? dotGit, root)
    }
    if (exists(join(d, "HEAD"))) return embeddedAt(d, d)
    if (d === root) return above(root)
    const up = dirname(d)
    if (up === d) return "none"
    d = up
  }
}

// Above the workspace git goes on looking: a workspace that is a folder of a repository (a `.ccode/` in
// a monorepo's package) uses that repository, whose .git/config and hooks are judged as the workspace's
// own would be; "none" when git finds no repository at all, or one that runs nothing.
function above(root: string): RepoAt {
  for (let d = dirname(root); ; d = dirname(d)) {
    const dotGit = join(d, ".git")
    if (exists(dotGit)) {
      const found = ownConfig(gitfileTarget(dotGit) ?? dotGit, d)
      return found === "own" ? "none" : found
    }
    if (exists(join(d, "HEAD")) && exists(join(d, "objects")) && exists(join(d, "refs"))) return d
    if (d === dirname(d)) return "none"
  }
}

// another repository in the workspace is medium for every command; one that is a partial clone whose
// fetch runs a program is more for the commands that read objects
function embeddedAt(folder: string, gitDir: string): RepoAt {
  const layer = lazyFetchLayer(configsOf([gitDir]), folder)
  return layer?.startsWith("lazy:high:") ? `${layer}\n${folder}` : folder
}

// the repository's own config (and a worktree's, and the common directory's it shares), then its
// submodules' (git status and git diff run git status in each submodule, under that one's config)
function ownConfig(gitDir: string, workspace: string): RepoAt {
  const dirs = [gitDir]
  try {
    const common = readRegular(join(gitDir, "commondir")).trim()
    if (common) dirs.push(resolve(gitDir, common))
  } catch {
    // no commondir: not a worktree
  }
  const subDirs: string[] = []
  const rest = ownRest(gitDir, dirs, workspace, subDirs)
  const layers = [lazyFetchLayer(configsOf(dirs), "the workspace's repository"), ...subDirs.map((d) => lazyFetchLayer(configsOf([d]), `submodule ${d}`, true))]
  return [...layers.filter((l) => l !== undefined), rest].join("\n")
}

// the entries of a git directory's config files, all together
function configsOf(dirs: readonly string[]): ConfigEntry[] {
  return dirs.flatMap((d) => [...configEntries(join(d, "config")), ...configEntries(join(d, "config.worktree"))])
}

function ownRest(gitDir: string, dirs: readonly string[], workspace: string, subDirs: string[]): RepoAt {
  const scoped: ConfigRun[] = []
  for (const d of dirs) {
    for (const f of ["config", "config.worktree"]) {
      const run = configRuns(join(d, f), { gitDir: d, workspace })
      if (run && !run.commands) return `own:${run.why}`
      if (run) scoped.push(run)
    }
  }
  const hook = indexHook(dirs, workspace)
  if (hook) return `own:${hook}`
  for (const d of dirs) {
    const state = gitStateRisk(d, workspace)
    if (state) return `own:!${state}`
  }
  for (const d of dirs) {
    const sub = submoduleRuns(join(d, "modules"), workspace, subDirs)
    if (sub) return `own:${sub}`
  }
  const linked = checkedOutSubmodules(join(gitDir, "index"), workspace, subDirs)
  if (linked) return `own:${linked}`
  if (!scoped.length) return "own"
  return `own:[${[...new Set(scoped.flatMap((r) => r.commands!))].join(",")}] ${scoped.map((r) => r.why).join("; ")}`
}

/** git status and git diff write the index when they refresh it, and then run the post-index-change
 *  hook: from core.hooksPath (read from the work tree's root) when the config sets it, else from the
 *  git directory's hooks/ (an archive unpacked over the workspace can bring one, a repository can
 *  commit a hooks folder core.hooksPath names). Any such file counts, executable or not yet. */
export function indexHook(gitDirs: readonly string[], workTree: string): string | undefined {
  let hooksPath: string | undefined
  for (const d of gitDirs) {
    for (const f of ["config", "config.worktree"]) {
      const entries = configEntries(join(d, f))
      for (const e of entries) if (e.key === "core.hookspath" && e.value) hooksPath = e.value
    }
  }
  const dirs = hooksPath !== undefined ? [resolve(workTree, hooksPath)] : gitDirs.map((d) => join(d, "hooks"))
  for (const dir of dirs) {
    const hook = join(dir, "post-index-change")
    if (exists(hook)) return `${hook} (a post-index-change hook: git status and git diff run it when they refresh the index)`
  }
  return undefined
}

function configEntries(file: string): ConfigEntry[] {
  let text: string
  try {
    text = readRegular(file)
  } catch {
    return []
  }
  const parsed = parseConfig(text)
  return typeof parsed === "string" ? [] : parsed
}

// submodule git directories: .git/modules/NAME (a name can hold slashes; a submodule's own submodules
// are in its modules/): each one's config, as far as MAX_MODULE_DIRS folders and MAX_MODULE_DEPTH levels;
// past that, not proven. Only what every command runs counts (git help in the superproject does not use
// a submodule's man.viewer)
const MAX_MODULE_DIRS = 200
const MAX_MODULE_DEPTH = 8

// the submodules the index records that are checked out with a git directory of their own (`sub/.git`
// a folder, or a file or link naming one): each one's config
const MAX_GITLINKS = 200

function checkedOutSubmodules(index: string, workspace: string, subDirs: string[]): string | undefined {
  const paths = gitlinkPaths(index)
  if (!Array.isArray(paths)) return paths.why
  if (paths.length > MAX_GITLINKS) return `${index} (more submodules than ccode reads)`
  for (const p of paths) {
    const dotGit = join(workspace, p, ".git")
    if (!exists(dotGit)) continue
    const dir = gitfileTarget(dotGit) ?? dotGit
    subDirs.push(dir)
    for (const f of ["config", "config.worktree"]) {
      const run = configRuns(join(dir, f), { gitDir: dir, workspace })
      if (run && !run.commands) return `submodule ${p}: ${run.why}`
    }
    const hook = indexHook([dir], join(workspace, p))
    if (hook) return `submodule ${p}: ${hook}`
    // git status runs in it and quotes its packed-refs' bad lines as it does the superproject's
    const state = gitStateRisk(dir, workspace)
    if (state) return `!submodule ${p}: ${state}`
  }
  return undefined
}

function submoduleRuns(modules: string, workspace: string, subDirs: string[]): string | undefined {
  const todo: [string, number][] = [[modules, 0]]
  let seen = 0
  while (todo.length) {
    const [dir, depth] = todo.pop()!
    let entries: Dirent[]
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      continue
    }
    if (++seen > MAX_MODULE_DIRS || depth > MAX_MODULE_DEPTH) return `${modules} (more submodule folders than ccode reads)`
    // a submodule's git directory (it has a config or a HEAD): its configs, then only its own modules/;
    // any other folder is part of a submodule's name (libs/ in libs/foo)
    const gitDir = entries.some((e) => e.name === "config" || e.name === "HEAD")
    if (gitDir) subDirs.push(dir)
    // its work tree is not known from here: a core.hooksPath of its own is not followed, so it counts
    if (gitDir && (configEntries(join(dir, "config")).some((e) => e.key === "core.hookspath") || exists(join(dir, "hooks", "post-index-change")))) {
      return `submodule ${dir}: its hooks (a post-index-change hook, or a core.hooksPath ccode does not follow)`
    }
    for (const e of entries) {
      if (gitDir && (e.name === "config" || e.name === "config.worktree")) {
        const run = configRuns(join(dir, e.name), { gitDir: dir, workspace })
        if (run && !run.commands) return `submodule ${join(dir, e.name)}: ${run.why}`
      } else if (e.isSymbolicLink() && (!gitDir || e.name === "modules")) return `${join(dir, e.name)} (a link among the submodule folders)`
      else if (e.isDirectory() && (!gitDir || e.name === "modules")) todo.push([join(dir, e.name), depth + 1])
    }
  }
  return undefined
}

/**
 * The workspace's git directories when its `.git` is a file or link (`git init --separate-git-dir`, a
 * linked worktree, a submodule's work tree): where it points, and that directory's `commondir` (the
 * shared one, holding hooks/ and config). Writes there are writes to .git; empty when .git is a folder.
 */
export function workspaceGitDirs(workspace: string): string[] {
  const dir = gitfileTarget(join(workspace, ".git"))
  if (dir === undefined) return []
  const out = [dir]
  try {
    const common = readRegular(join(dir, "commondir")).trim()
    if (common) out.push(realpathExisting(resolve(dir, common)))
  } catch {
    // no commondir: the git directory is its own
  }
  return out
}

/** Where a `.git` file (`gitdir: PATH`, relative to its folder) or link points, really; undefined for a folder. */
export function gitfileTarget(dotGit: string): string | undefined {
  const st = lstatSync(dotGit, { throwIfNoEntry: false })
  if (st?.isSymbolicLink()) return realpathExisting(dotGit)
  if (!st?.isFile()) return undefined
  let text: string
  try {
    text = readRegular(dotGit)
  } catch {
    // unreadable: git cannot use it either, but it is not proven to be the workspace's
    return dotGit
  }
  const m = /^gitdir: ?(.*?)\r?\n?$/m.exec(text)
  return m ? realpathExisting(resolve(dirname(dotGit), m[1]!)) : dotGit
}

function exists(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined
}
