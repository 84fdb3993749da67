// Finding the workspace root and the policy files that apply there. Reads the fs.
import { existsSync, lstatSync, readdirSync, statSync } from "node:fs"
import { dirname, join } from "node:path"
import { realpathOr } from "../base/paths.ts"

/** Nearest ancestor of `cwd` holding `.ccode/`, else the git root, else `cwd` itself (all after realpath). */
export function findWorkspaceRoot(cwd: string): string {
  const start = realpathOr(cwd)
  let gitRoot: string | undefined
  for (let dir = start; ; dir = dirname(dir)) {
    if (isDir(join(dir, ".ccode"))) return dir
    if (!gitRoot && existsSync(join(dir, ".git"))) gitRoot = dir
    if (dir === dirname(dir)) break
  }
  return gitRoot ?? start
}

/**
 * The most an untrusted task may take as its workspace: the nearest folder at or above `dir` (the task
 * file's folder) holding `.ccode/` or `.git`, whichever is nearer, so a `.ccode/` above the task's own
 * repository (the home's, /tmp's) never counts; else `dir`. A nearest marker owned by another user (a
 * `/tmp/.ccode/` anyone could make) is no root either: `dir` is then the limit.
 */
export function taskRootLimit(dir: string, uid = process.getuid?.() ?? -1): string {
  const start = realpathOr(dir)
  for (let at = start; ; at = dirname(at)) {
    const owner = markerOwner(at)
    if (owner !== undefined) return owner === uid || owner === 0 ? at : start
    if (at === dirname(at)) return start
  }
}

/** The owner of `.ccode/` (a folder) or `.git` in `dir`, when either is there (`.ccode/` first). */
function markerOwner(dir: string): number | undefined {
  for (const name of [".ccode", ".git"]) {
    try {
      const st = lstatSync(join(dir, name))
      if (name === ".ccode" && !isDir(join(dir, name))) continue
      return st.uid
    } catch {
      // not there
    }
  }
  return undefined
}

/**
 * Every folder holding `.ccode/` from the repository root down to `cwd`, outermost first. The
 * repository root is the outermost git root above `cwd` (a `.git` planted in a subfolder does not cut
 * the walk short); a repository without `.ccode/` uses the first one above it; outside git, every one
 * up to `/`. Loading a layer from each means a nested `.ccode/` (or an agent's `cd sub`) adds to the
 * repository's policy and never hides it.
 */
export function workspaceLayerRoots(cwd: string): string[] {
  const chain: string[] = []
  let outerGit = -1
  for (let dir = realpathOr(cwd); ; dir = dirname(dir)) {
    chain.push(dir)
    if (existsSync(join(dir, ".git"))) outerGit = chain.length - 1
    if (dir === dirname(dir)) break
  }
  const withCcode = chain.map((dir, i) => (isDir(join(dir, ".ccode")) ? i : -1)).filter((i) => i >= 0)
  if (outerGit < 0) return withCcode.map((i) => chain[i]!).reverse()
  const inside = withCcode.filter((i) => i <= outerGit)
  if (inside.length) return inside.map((i) => chain[i]!).reverse()
  const above = withCcode.find((i) => i > outerGit)
  return above === undefined ? [] : [chain[above]!]
}

/** `.ccode/policy.yaml` then `.ccode/policies/*.yaml` (sorted), those that exist. */
export function workspacePolicyFiles(root: string): string[] {
  const files: string[] = []
  const main = join(root, ".ccode", "policy.yaml")
  if (isFile(main)) files.push(main)
  return files.concat(listDir(join(root, ".ccode", "policies"), ".yaml"))
}

/** Files `ccode trust` records: the workspace policy files and the workspace plugins. */
export function trustableFiles(root: string): string[] {
  return workspacePolicyFiles(root).concat(listDir(join(root, ".ccode", "plugins"), ".ts"))
}

/** `$XDG_CONFIG_HOME/ccode/policy.yaml`, else `~/.config/ccode/policy.yaml`. */
export function userPolicyFile(env: Record<string, string | undefined>, home: string): string {
  const config = env.XDG_CONFIG_HOME || join(home, ".config")
  return join(config, "ccode", "policy.yaml")
}

export 
function listDir(dir: string, suffix: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith(suffix))
      .sort()
      .map((name) => join(dir, name))
      .filter(isFile)
  } catch {
    return []
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}
