// The files a git command prints without naming them (git show, log -p, diff, grep; core/shell/
// gitcontent.ts marks them), looked up in what the repository holds: the index's paths, and the names
// in its history (`git log --all --name-only`, run with the hardened argv and environment ccode's own
// git calls use: no configured program runs). The history's names are kept per repository while its
// refs stay the same. Side effects: reads the index and the refs' stat data, runs git once per change.
import { lstatSync, readdirSync, readFileSync, statSync, type Stats } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { isInside } from "../base/paths.ts"
import { gitfileTarget } from "../base/gitrepo.ts"
import { indexEntries } from "../base/gitlinks.ts"
import { safeGitArgv, safeGitEnv } from "../git/safe-git.ts"
import type { GitContent } from "../shell/types.ts"
import { placeObjects } from "./gitobjects.ts"

/** How many names and how long the history's listing may take; past either it is not known. */
const MAX_NAMES = 200_000
const HISTORY_TIMEOUT_MS = 3_000
const MAX_REF_DIRS = 500

export interface RepoFiles {
  /** the files (absolute) the command could print */
  files: string[]
  /** why not every name could be looked at */
  unknown?: string
  /** a blob named by id that no commit or index entry holds (placeObjects) */
  unplaced?: string
}

/** The files below the repository found from `start` that the command could print: `judged` picks them. */
export function gitContentFiles(start: string, content: GitContent, judged: (path: string) => boolean): RepoFiles {
  const repo = findRepo(start)
  if (!repo) return { files: [] }
  const files = new Set<string>()
  const keep = (name: string) => {
    const abs = `${repo.top === "/" ? "" : repo.top}/${name}`
    if (content.within && !content.within.some((w) => isInside(w, abs))) return
    if (judged(abs)) files.add(abs)
  }
  // what git itself lists for `git show REVS` / `git diff REVS`: exactly the files printed
  const listed = content.ask ? askGit(repo.top, content.ask, content.within) : undefined
  if (listed) {
    for (const n of listed) keep(n)
    return { files: [...files] }
  }
  let unknown: string | undefined
  if (content.index) {
    const index = join(repo.gitDir, "index")
    const entries = indexEntries(index)
    // racy git: a file changed in the second the index was written has the same stat data
    const written = Math.floor((statQuiet(index)?.mtimeMs ?? Infinity) / 1000)
    if ("why" in entries) unknown = entries.why
    else for (const e of entries) if (content.index === "all" || e.mtime >= written || changed(repo.top, e)) keep(e.path)
  }
  if (content.history) {
    const names = historyNames(repo)
    if (typeof names === "string") unknown = names
    else for (const n of names) keep(n)
  }
  const placed = content.objects ? placeObjects(repo.top, content.objects) : undefined
  for (const n of placed?.paths ?? []) keep(n)
  return { files: [...files], ...(unknown ? { unknown } : {}), ...(placed?.unplaced ? { unplaced: placed.unplaced } : {}) }
}

// `git diff` prints a tracked file only when the work tree's differs from the index's (or is gone)
function changed(top: string, e: { path: string; size: number; mtime: number }): boolean {
  const st = lstatQuiet(join(top, e.path))
  return !st || st.size % 2 ** 32 !== e.size || Math.floor(st.mtimeMs / 1000) !== e.mtime
}

interface Repo {
  top: string
  gitDir: string
  /** where the refs are (a linked worktree shares its main repository's) */
  common: string
}

function findRepo(start: string): Repo | undefined {
  for (let d = start; ; d = dirname(d)) {
    const dotGit = join(d, ".git")
    const st = lstatQuiet(dotGit)
    if (st) {
      const gitDir = st.isDirectory() ? dotGit : (gitfileTarget(dotGit) ?? dotGit)
      let common = gitDir
      try {
        const c = readFileSync(join(gitDir, "commondir"), "utf8").trim()
        if (c) common = resolve(gitDir, c)
      } catch {
        // not a linked worktree
      }
      return { top: d, gitDir, common }
    }
    if (d === dirname(d)) return undefined
  }
}

// a path git cannot use either (ENAMETOOLONG, ENOTDIR, EACCES) is taken as not there
function lstatQuiet(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false })
  } catch {
    return undefined
  }
}

function statQuiet(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false })
  } catch {
    return undefined
  }
}

const histories = new Map<string, { key: string; names: string[] | string }>()

// every name any commit reachable from a ref (branches, tags, the stash, HEAD) touched
function historyNames(repo: Repo): string[] | string {
  const key = refsState(repo)
  const kept = histories.get(repo.gitDir)
  if (kept && key !== undefined && kept.key === key) return kept.names
  const names = listHistory(repo.top)
  if (key !== undefined) histories.set(repo.gitDir, { key, names })
  return names
}

function listHistory(top: string): string[] | string {
  const r = runGit(top, ["log", "--all", "--name-only", "--format=", "-z", "--no-renames"])
  if (typeof r === "string") return `${r} listing the files of the history of ${top}`
  // an empty repository lists nothing with success; a failure (a repository git refuses or cannot read)
  // says nothing about what the command would print
  if (r.exitCode !== 0) return `git could not list the files of the history of ${top}`
  return names(r.stdout) ?? `the history of ${top} holds more than ${MAX_NAMES} file names`
}

/**
 * The names `git show REVS` or `git diff [--cached] REVS` prints, as git lists them; undefined when git
 * cannot say (then the whole history is judged). Every revision is proven a commit first: a blob named
 * by a tag or a hash would print its content, not names.
 */
function askGit(top: string, ask: NonNullable<GitContent["ask"]>, within: string[] | undefined): string[] | undefined {
  const ends = ask.revs.flatMap((r) => r.split(/\.{2,3}/)).filter((r) => r !== "")
  if (ends.length) {
    const verify = runGit(top, ["rev-parse", "-q", "--end-of-options", ...ends.map((r) => `${r}^{commit}`)])
    if (typeof verify === "string" || verify.exitCode !== 0) return undefined
  }
  const inside = within?.length && within.every((w) => w !== top && isInside(top, w))
  const paths = inside ? ["--", ...within!.map((w) => `:(top,literal)${w.slice(top.length + 1)}`)] : []
  const args = ask.kind === "show"
    ? ["log", "--no-walk=unsorted", "-m", "--name-only", "--format=", "-z", "--no-renames", "--end-of-options", ...ask.revs, ...paths]
    : ["diff", "--name-only", "-z", "--no-renames", ...(ask.cached ? ["--cached"] : []), "--end-of-options", ...ask.revs, ...paths]
  const r = runGit(top, args)
  if (typeof r === "string" || r.exitCode !== 0) return undefined
  return names(r.stdout)
}

function runGit(top: string, args: string[]): { exitCode: number; stdout: Buffer } | string {
  try {
    // a repository another account owns (a container's mounted checkout) is listed too: the hardened
    // argv runs none of its configured programs, and the user's own git may trust it in /etc/gitconfig
    const r = Bun.spawnSync(["git", "-c", "safe.directory=*", ...safeGitArgv(args, [])], { cwd: top, env: safeGitEnv(process.env, {}), stdin: "ignore", stdout: "pipe", stderr: "ignore", timeout: HISTORY_TIMEOUT_MS })
    if (r.exitedDueToTimeout) return `git took longer than ${HISTORY_TIMEOUT_MS / 1000}s`
    return { exitCode: r.exitCode ?? 1, stdout: r.stdout }
  } catch {
    return "git could not be run"
  }
}

function names(out: Buffer): string[] | undefined {
  const found = new Set<string>()
  for (const n of out.toString("utf8").split(/[\0\n]/)) {
    if (n) found.add(n)
    if (found.size > MAX_NAMES) return undefined
  }
  return [...found]
}

// the refs' stat data: a commit, a fetch, a stash or a checkout rewrites a ref file (by rename, which
// changes its folder's mtime), packed-refs or HEAD
function refsState(repo: Repo): string | undefined {
  const parts: string[] = []
  for (const dir of new Set([repo.gitDir, repo.common])) {
    for (const f of ["HEAD", "packed-refs", "reftable"]) parts.push(`${f}:${statQuiet(join(dir, f))?.mtimeMs}`)
    const todo = [join(dir, "refs")]
    for (let i = 0; i < todo.length; i++) {
      if (i > MAX_REF_DIRS) return undefined
      parts.push(`${todo[i]}:${statQuiet(todo[i]!)?.mtimeMs}`)
      try {
        for (const e of readdirSync(todo[i]!, { withFileTypes: true })) if (e.isDirectory()) todo.push(join(todo[i]!, e.name))
      } catch {
        // no refs folder
      }
    }
  }
  return parts.join("|")
}
