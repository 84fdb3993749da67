// Which git repository git uses when started in a folder of the workspace: the workspace's own, none,
// or another one embedded in it. A bare repository's files (HEAD, config, objects/) can be committed
// to a repository or unpacked from an archive like any other files; git started inside them (`git -C
// fixtures/evil.git log`, `cd vendor/x && git log`) obeys THAT config, which can run programs
// (`gpg.program` with `log.showSignature`, `core.fsmonitor`, `core.pager`). Reads the fs, never writes.
import { lstatSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { isInside, realpathExisting } from "./paths.ts"
import { configRuns } from "./gitconfig.ts"

/** "own": the workspace root's `.git`; `own:WHY`: the same, but its config makes git run a program
 *  (`own:core.fsmonitor = ...`, core/base/gitconfig.ts); "none": no repository from `dir` up to the
 *  workspace root (git looks further up, outside the workspace, where the user's own repository is);
 *  otherwise the folder of the other repository git would find first. */
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
      if (d !== root) return d
      // a `.git` FILE at the root (worktrees, submodules) names the git directory elsewhere: one that
      // lies in the workspace outside .git/ is ordinary files there (an unpacked archive can bring both)
      const target = gitfileTarget(dotGit)
      if (target !== undefined && isInside(root, target) && !isInside(dotGit, target)) return target
      return ownConfig(target ?? dotGit)
    }
    if (exists(join(d, "HEAD"))) return d
    if (d === root) return "none"
    const up = dirname(d)
    if (up === d) return "none"
    d = up
  }
}

// the repository's own config (and a worktree's, and the common directory's it shares)
function ownConfig(gitDir: string): RepoAt {
  const dirs = [gitDir]
  try {
    const common = readFileSync(join(gitDir, "commondir"), "utf8").trim()
    if (common) dirs.push(resolve(gitDir, common))
  } catch {
    // no commondir: not a worktree
  }
  for (const d of dirs) {
    for (const f of ["config", "config.worktree"]) {
      const why = configRuns(join(d, f))
      if (why) return `own:${why}`
    }
  }
  return "own"
}

/** Where a `.git` file (`gitdir: PATH`, relative to its folder) or link points, really; undefined for a folder. */
function gitfileTarget(dotGit: string): string | undefined {
  const st = lstatSync(dotGit, { throwIfNoEntry: false })
  if (st?.isSymbolicLink()) return realpathExisting(dotGit)
  if (!st?.isFile()) return undefined
  let text: string
  try {
    text = readFileSync(dotGit, "utf8")
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
