// The files of a git directory that git reads on every command and quotes when a line is bad (info/grafts:
// "bad graft data: LINE", objects/info/alternates: "object directory LINE does not exist") or prints whole
// (`git bisect log` prints BISECT_LOG): as a link to a credential file, a read-only `git log` prints the
// secret. An alternates file naming an object store outside the workspace lets git show another
// repository's objects. Either makes the repository not proven. Reads the fs (readdir, one small file).
import { readdirSync, statSync } from "node:fs"
import { join, resolve } from "node:path"
import { isInside, realpathExisting } from "./paths.ts"
import { readRegular } from "./readsafe.ts"

// the folders whose files git reads as state; hooks/ (judged elsewhere) and the config files (read for
// their keys, a credential in them judged by their content) are left to their own checks
const STATE_DIRS = ["", "info", "objects/info", "logs", "rebase-merge", "rebase-apply", "sequencer", "refs"]
const OWN_CHECKS = new Set(["config", "config.worktree", "hooks"])

// linked worktrees' folders: `git worktree list` prints each one's gitdir (and with --verbose its
// locked reason) as it reads them, git branch reads each one's HEAD
const MAX_WORKTREES = 200

/** Why the git directory's state is not proven (a link among its state files, alternates outside), or undefined. */
export function gitStateRisk(gitDir: string, workspace: string): string | undefined {
  const root = realpathExisting(workspace)
  let worktrees: string[] = []
  try {
    worktrees = readdirSync(join(gitDir, "worktrees"))
  } catch {
    // no linked worktrees
  }
  if (worktrees.length > MAX_WORKTREES) return `${join(gitDir, "worktrees")} (more linked worktrees than ccode reads)`
  for (const sub of [...STATE_DIRS, "worktrees", ...worktrees.map((w) => `worktrees/${w}`)]) {
    const dir = sub ? join(gitDir, sub) : gitDir
    let entries
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      continue
    }
    for (const e of entries) {
      if (!sub && OWN_CHECKS.has(e.name)) continue
      // a folder of the workspace (repo's layout links objects/ to a shared store in .repo/) is read
      // through like its own, and its state files are looked at above; a file or anything outside is not
      if (e.isSymbolicLink() && !folderInside(join(dir, e.name), root)) return `${join(dir, e.name)} is a link (git reads it and quotes its lines)`
    }
  }
  const alternates = join(gitDir, "objects", "info", "alternates")
  let text: string
  try {
    text = readRegular(alternates)
  } catch {
    return undefined
  }
  for (const line of text.split("\n")) {
    const path = line.trim()
    if (!path || path.startsWith("#")) continue
    if (!isInside(root, realpathExisting(resolve(gitDir, "objects", path)))) return `${alternates} names ${path.slice(0, 80)}, an object store outside the workspace`
  }
  return undefined
}

function folderInside(link: string, root: string): boolean {
  const real = realpathExisting(link)
  return isInside(root, real) && statSync(real, { throwIfNoEntry: false })?.isDirectory() === true
}
