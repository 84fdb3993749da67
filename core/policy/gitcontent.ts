// The files a git command prints without naming them (git show, log -p, diff, grep; core/shell/
// gitcontent.ts marks them), looked up in what the repository holds: the index's paths, and the names
// in its history (`git log --all --reflog --name-only` and the pseudo-refs, run with the hardened argv and environment ccode's own
// git calls use: no configured program runs). The history's names are kept per repository while its
// refs stay the same. Side effects: reads the index and the refs' stat data, runs git once per change.
import { lstatSync, readdirSync, statSync, type Stats } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { isInside } from "../base/paths.ts"
import { gitfileTarget } from "../base/gitrepo.ts"
import { gitlinkPaths, indexEntries } from "../base/gitlinks.ts"
import { safeGitArgv, safeGitEnv } from "../git/safe-git.ts"
import type { GitContent } from "../shell/types.ts"
import { readRegular } from "../base/readsafe.ts"

/** How many names and how long the history's listing may take; past either it is not known. */
const MAX_NAMES = 200_000
const HISTORY_TIMEOUT_MS = 3_000
const MAX_REF_DIRS = 500

export interface RepoFiles {
  /** the files (absolute) the command could print */
  files: string[]
  /** why not every name could be looked at */
  unknown?: string
  /** a blob the command prints by its id that no commit, reflog entry or index entry names */
  blind?: string
}

/** The files below the repository found from `start` that the command could print: `judged` picks them. */
export function gitContentFiles(start: string, given: GitContent, judged: (path: string) => boolean, depth = 0): RepoFiles {
  const content = settled(given)
  const repo = findRepo(start)
  if (!repo) return { files: [] }
  const own = repoFiles(repo, content, judged)
  return depth < MAX_SUBMODULE_DEPTH ? withSubmodules(repo, content, judged, own, depth) : own
}

const MAX_SUBMODULE_DEPTH = 3

// `--submodule=diff` (or the repository's diff.submodule = diff) prints each submodule's own diff, and
// `git grep --recurse-submodules` (or submodule.recurse = true) searches its files: the checked-out
// submodules' repositories are looked at the same way
function withSubmodules(repo: Repo, content: GitContent, judged: (path: string) => boolean, own: RepoFiles, depth: number): RepoFiles {
  const links = gitlinkPaths(join(repo.gitDir, "index"))
  if ("why" in links || links.length === 0) return own
  if (!content.submodules && !configRecurses(repo.top)) return own
  const files = new Set(own.files)
  let unknown = own.unknown
  let blind = own.blind
  // the submodule's whole history and index (the revisions named are the superproject's)
  const inner: GitContent = { ...(content.history || content.hashes || content.blobs ? { history: true as const } : {}), ...(content.index ? { index: content.index } : {}), ...(content.untracked ? { untracked: true as const } : {}), ...(content.within ? { within: content.within } : {}) }
  for (const link of links) {
    const dir = `${repo.top}/${link}`
    if (lstatQuiet(join(dir, ".git")) === undefined) continue
    const sub = gitContentFiles(dir, inner, judged, depth + 1)
    for (const f of sub.files) files.add(f)
    unknown ??= sub.unknown
    blind ??= sub.blind
  }
  return { files: [...files], ...(unknown ? { unknown } : {}), ...(blind ? { blind } : {}) }
}

// diff.submodule = diff or submodule.recurse = true in the configs git reads for the repository
function configRecurses(top: string): boolean {
  const r = runGit(top, ["config", "--get-regexp", "^(diff\\.submodule|submodule\\.recurse)$"])
  if (typeof r === "string") return true
  return /^diff\.submodule diff$|^submodule\.recurse (?:true|yes|on|1)$/im.test(r.stdout.toString())
}

function repoFiles(repo: Repo, content: GitContent, judged: (path: string) => boolean): RepoFiles {
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
  let blind: string | undefined
  if (content.blobs?.length) {
    const found = blobNames(repo.top, content.blobs)
    for (const n of found.names) keep(n)
    if (found.blind) blind = found.blind
  }
  if (content.index) {
    const index = join(repo.gitDir, "index")
    const entries = indexEntries(index)
    // racy git: a file changed in the second the index was written has the same stat data
    const written = Math.floor((statQuiet(index)?.mtimeMs ?? Infinity) / 1000)
    if ("why" in entries) unknown = entries.why
    else for (const e of entries) if (content.index === "all" || e.mtime >= written || changed(repo.top, e)) keep(e.path)
  }
  if (content.history) {
    const names = historyNames(repo, content.refsOnly === true)
    if (typeof names === "string") unknown = names
    else for (const n of names) keep(n)
    const named = content.hashes?.length ? hashNames(repo.top, content.hashes) : []
    if (typeof named === "string") unknown = named
    else for (const n of named) keep(n)
    const blobs = content.hashes?.length ? blobNames(repo.top, content.hashes) : { names: [] }
    for (const n of blobs.names) keep(n)
    if (blobs.blind) blind = blobs.blind
  }
  return { files: [...files], ...(unknown ? { unknown } : {}), ...(blind ? { blind } : {}) }
}

// the words with a `/` git takes as revisions unless the work tree has that path: those that exist are
// pathspecs (`git log -p src/a.ts`), the others revisions (`git show feature/x`)
function settled(content: GitContent): GitContent {
  if (!content.maybe) return content
  const { maybe, ...rest } = content
  // with a glob pathspec beside them their paths are [] (they narrow nothing): judged as revisions
  const paths = maybe.filter((m) => m.paths.some((p) => lstatQuiet(p) !== undefined))
  if (!paths.length) return rest
  const drop = new Set(paths.map((m) => m.rev))
  const within = [...(rest.within ?? []), ...paths.flatMap((m) => m.paths)]
  const narrowed: GitContent = { ...rest, within }
  return rest.ask ? { ...narrowed, ask: { ...rest.ask, revs: rest.ask.revs.filter((r) => !drop.has(r)) } } : narrowed
}

// `git diff` prints a tracked file only when the work tree's differs from the index's (or is gone)
function changed(top: string, e: { path: string; size: number; mtime: number }): boolean {
  const st = lstatQuiet(join(top, e.path))
  return !st || st.size % 2 ** 32 !== e.size || Math.floor(st.mtimeMs / 1000) !== e.mtime
}

export interface Repo {
  top: string
  gitDir: string
  /** where the refs are (a linked worktree shares its main repository's) */
  common: string
}

export function findRepo(start: string): Repo | undefined {
  for (let d = start; ; d = dirname(d)) {
    const dotGit = join(d, ".git")
    const st = lstatQuiet(dotGit)
    if (st) {
      const gitDir = st.isDirectory() ? dotGit : (gitfileTarget(dotGit) ?? dotGit)
      let common = gitDir
      try {
        const c = readRegular(join(gitDir, "commondir")).trim()
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

// every name any commit reachable from a ref (branches, tags, the stash, HEAD), a reflog entry or a
// pseudo-ref (ORIG_HEAD, FETCH_HEAD) touched
function historyNames(repo: Repo, refsOnly: boolean): string[] | string {
  const key = refsState(repo)
  const at = `${refsOnly ? "refs" : "all"}:${repo.gitDir}`
  const kept = histories.get(at)
  if (kept && key !== undefined && kept.key === key) return kept.names
  const names = listHistory(repo, refsOnly)
  if (key !== undefined) histories.set(at, { key, names })
  return names
}

// the pseudo-refs and state files git names commits in (`git log -p ORIG_HEAD`, `FETCH_HEAD`, a rebase's
// orig-head): `--all` does not walk them, `--reflog` walks every reflog entry (HEAD@{1}, stash@{3})
const STATE_FILES = ["ORIG_HEAD", "FETCH_HEAD", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "BISECT_HEAD", "REBASE_HEAD", "AUTO_MERGE"]
const STATE_DIRS = ["rebase-merge", "rebase-apply", "sequencer"]
const MAX_STATE_IDS = 2_000

function listHistory(repo: Repo, refsOnly: boolean): string[] | string {
  const top = repo.top
  const ids = refsOnly ? [] : stateIds(repo.gitDir)
  if (ids === undefined) return `${repo.gitDir} names more commits in its state files than ccode lists`
  const r = runGit(top, ["log", "--all", ...(refsOnly ? [] : ["--reflog", "--ignore-missing"]), "--name-only", "--format=", "-z", "--no-renames", ...ids])
  if (typeof r === "string") return `${r} listing the files of the history of ${top}`
  // an empty repository lists nothing with success; a failure (a repository git refuses or cannot read)
  // says nothing about what the command would print
  if (r.exitCode !== 0) return `git could not list the files of the history of ${top}`
  return names(r.stdout) ?? `the history of ${top} holds more than ${MAX_NAMES} file names`
}

// the names of the commits a command names by their hash (and their history), which may be ones no ref
// or reflog reaches (after `git reflog expire`); a name git does not know is skipped, as git fails on it
function hashNames(top: string, hashes: readonly string[]): string[] | string {
  const r = runGit(top, ["log", "--ignore-missing", "--name-only", "--format=", "-z", "--no-renames", "--end-of-options", ...hashes])
  if (typeof r === "string") return `${r} listing the files of ${hashes.join(" ")}`
  if (r.exitCode !== 0) return `git could not list the files of ${hashes.join(" ").slice(0, 80)}`
  return names(r.stdout) ?? `the history of ${hashes.join(" ").slice(0, 80)} holds more than ${MAX_NAMES} file names`
}

const MAX_BLOB_LOOKUPS = 8

/**
 * The names of the blobs a command prints by their id (`git cat-file -p ID`, `git show ID`): where the
 * history (every ref and reflog entry) or the index holds that blob. A blob none names (staged, then
 * unstaged: `git add .env && git reset .env` leaves it in .git/objects until a gc) has no name to judge.
 */
function blobNames(top: string, hashes: readonly string[]): { names: string[]; blind?: string } {
  const out: string[] = []
  if (hashes.length > MAX_BLOB_LOOKUPS) return { names: out, blind: `it names more than ${MAX_BLOB_LOOKUPS} objects by their ids` }
  for (const h of hashes) {
    const r = runGit(top, ["rev-parse", "-q", "--verify", "--end-of-options", h.includes(":") ? h : `${h}^{blob}`])
    if (typeof r === "string") return { names: out, blind: `${r} looking up ${h}` }
    if (r.exitCode !== 0) continue
    const oid = r.stdout.toString().trim()
    const found = new Set<string>()
    const index = runGit(top, ["ls-files", "-s", "-z"])
    if (typeof index !== "string" && index.exitCode === 0) {
      for (const e of index.stdout.toString("utf8").split("\0")) if (e.includes(` ${oid} `)) found.add(e.slice(e.indexOf("\t") + 1))
    }
    const log = runGit(top, ["log", "--all", "--reflog", `--find-object=${oid}`, "--raw", "--no-abbrev", "--no-renames", "--format=", "-z"])
    if (typeof log !== "string" && log.exitCode === 0) {
      const parts = log.stdout.toString("utf8").split("\0")
      for (let i = 0; i + 1 < parts.length; i++) if (parts[i]!.startsWith(":") && parts[i]!.includes(oid)) found.add(parts[++i]!)
    }
    // `REV:path` names its file already (judged by that name): only the names it had before count here
    if (!found.size && h.includes(":")) continue
    if (!found.size) return { names: out, blind: `${h} is a blob no commit, reflog entry or index entry names (staged once, then unstaged): its file is not known` }
    out.push(...found)
  }
  return { names: out }
}

// the object ids in the pseudo-refs and state files (FETCH_HEAD and MERGE_HEAD can hold many); a
// symbolic one (`ref: refs/heads/x`) names a ref `--all` walks already
function stateIds(gitDir: string): string[] | undefined {
  const files = STATE_FILES.map((f) => join(gitDir, f))
  for (const d of STATE_DIRS) {
    try {
      for (const e of readdirSync(join(gitDir, d), { withFileTypes: true })) if (e.isFile()) files.push(join(gitDir, d, e.name))
    } catch {
      // no such state
    }
  }
  const ids = new Set<string>()
  for (const f of files) {
    let text: string
    try {
      text = readRegular(f, 1 << 20)
    } catch {
      continue
    }
    for (const m of text.matchAll(/\b[0-9a-f]{40}(?:[0-9a-f]{24})?\b/g)) ids.add(m[0])
    if (ids.size > MAX_STATE_IDS) return undefined
  }
  return [...ids]
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

export function runGit(top: string, args: string[]): { exitCode: number; stdout: Buffer } | string {
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
export function refsState(repo: Repo): string | undefined {
  const parts: string[] = []
  for (const dir of new Set([repo.gitDir, repo.common])) {
    // the reflogs (a reset or an amend appends to logs/HEAD) and the pseudo-refs are walked too
    for (const f of ["HEAD", "packed-refs", "reftable", "logs/HEAD", "logs/refs/stash", ...STATE_FILES, ...STATE_DIRS]) parts.push(`${f}:${statQuiet(join(dir, f))?.mtimeMs}`)
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
