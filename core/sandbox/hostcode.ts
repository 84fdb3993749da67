// Where the user's later host commands pick up code, beyond the fixed read-only list: every folder on
// ccode's own PATH (~/.cargo/bin is searched before /usr/bin: a `git` planted there runs at the next
// `git status`), the programs' start-up files the shell analysis knows (shell/startup.ts: python's
// usercustomize and .pth files, ~/.codex/config.toml, ...), the hooks folder core.hooksPath names
// (husky's .husky/_) and the files the repository's git config includes. Kept read-only when they lie in
// a writable root (a home that is the workspace); one missing is kept from being made (unmade.ts).
// I/O per call: the git configs (a few small files) and one readdir per start-up place with a `*`.
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { isInside } from "../base/paths.ts"
import { workspaceGitDirs } from "../base/gitrepo.ts"
import { hooksDirs } from "../base/hookspath.ts"
import { includedConfigFiles } from "../base/gitincludes.ts"
import { placeSource, STARTUP_PLACES } from "../shell/startup.ts"

/** A folder whose entries matching `re` are start-up places (~/.local/lib's python3.X): the names there before the call. */
export interface Watched {
  dir: string
  re: RegExp
  names: string[]
}

/** The paths (absolute, there or not) inside the writable `roots` that later host commands run code from,
 *  for this workspace and home; `watched` gets the folders where a new entry would be one too (a python3.13
 *  made in ~/.local/lib). The home's start-up places are looked up only when a root holds some of them. */
export function hostCodePaths(workspace: string, home: string, env: Record<string, string | undefined>, roots: readonly string[], watched: Watched[] = []): string[] {
  const path = (env.PATH ?? "").split(":").filter((d) => d.startsWith("/"))
  // a .git file (a linked worktree, a submodule, --separate-git-dir): the config where it points
  const dirs = workspaceGitDirs(workspace)
  const gitDirs = dirs.length ? dirs : undefined
  const git = [...hooksDirs(workspace, home, gitDirs, env), ...includedConfigFiles(workspace, home, gitDirs, env).map((f) => f.file)]
  const startup = roots.some((r) => isInside(r, home) || isInside(home, r)) ? startupPaths(home, watched) : []
  // a PATH folder holding the workspace (the workspace itself on PATH) is not kept from the command
  return [...new Set([...path, ...startup, ...git])].filter((p) => !isInside(p, workspace) && roots.some((r) => isInside(r, p)))
}

// each start-up place under `home`; one with a `*` is looked up below its last fixed folder (a file
// pattern, `*.pth`, stands for its whole folder), and that folder itself when it is missing (made later, it
// could hold anything)
// (the places without a `*` are joined once per home; those with one are looked up at every call)
function startupPaths(home: string, watched: Watched[]): string[] {
  if (!home || home === "/") return []
  if (plain?.home !== home) plain = { home, paths: PLAIN.map((parts) => join(home, ...parts)) }
  return [...plain.paths, ...WILD.flatMap((parts) => expand(home, parts, watched))]
}

const PLACES = STARTUP_PLACES.map((p) => p.rel.split("/"))
const PLAIN = PLACES.filter((parts) => !parts.some((n) => n.includes("*")))
const WILD = PLACES.filter((parts) => parts.some((n) => n.includes("*")))
let plain: { home: string; paths: string[] } | undefined
const patterns = new Map<string, RegExp>()
// one name with `*` as a case-blind pattern, made once
function patternOf(name: string): RegExp {
  let re = patterns.get(name)
  if (!re) patterns.set(name, (re = new RegExp(`^${placeSource(name)}$`, "i")))
  return re
}

/** Entries of the watched folders that match and were not there before the call: made start-up places. */
export function appearedSince(watched: readonly Watched[]): string[] {
  return watched.flatMap((w) => namesIn(w.dir).filter((n) => w.re.test(n) && !w.names.includes(n)).map((n) => join(w.dir, n)))
}

function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

function expand(dir: string, parts: readonly string[], watched: Watched[]): string[] {
  const at = parts.findIndex((p) => p.includes("*"))
  if (at < 0) return [join(dir, ...parts)]
  const fixed = join(dir, ...parts.slice(0, at))
  if (at === parts.length - 1) return [fixed]
  let names: string[]
  try {
    names = readdirSync(fixed)
  } catch {
    return [fixed]
  }
  const re = patternOf(parts[at]!)
  const matching = names.filter((n) => re.test(n))
  watched.push({ dir: fixed, re, names: matching })
  return matching.flatMap((n) => expand(join(fixed, n), parts.slice(at + 1), watched))
}
