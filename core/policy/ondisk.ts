// The paths of a call as the disk has them: a shell analysis's paths (and a tool's declared paths)
// are resolved through symlinks, and what the analysis cannot know without the disk is looked up
// (core/policy/globdisk.ts): where a glob's matches lead, the links a link-following walk meets, a
// link into /proc. Adds the paths found; returns the risks of what could not be looked up.
import { isInside, ownProcessPath } from "../base/paths.ts"
import { gitConfigCredential, gitConfigSources, isGitConfigFile } from "../base/gitcreds.ts"
import { posix } from "node:path"
import { credentialsBelow, homeSecrets } from "../shell/index.ts"
import { userHomes } from "../base/homes.ts"
import { lstatSync, statSync, type Stats } from "node:fs"
import type { TouchedPath } from "../shell/types.ts"
import { globFree, globLinks, optionNames, throughMagicLink, walkLinks } from "./globdisk.ts"
import { treeFiles } from "./treedisk.ts"
import { rgSources } from "./rgsources.ts"
import { archiveMembers, diffTargets } from "./archives.ts"
import { archiveRead } from "./archiveread.ts"
import { homeLikeCredential } from "./homelike.ts"
import { hardLinkedCredential, type InodeTable } from "./hardlinks.ts"
import { gitContentFiles } from "./gitcontent.ts"
import { rehomedCredential } from "./gitrehomed.ts"
import type { Call, CallPath } from "./types.ts"

export type Raised = NonNullable<Call["raised"]>

/** A path as the analysis or a tool's declaration gives it: `dir` a folder the tool reads below,
 *  `contents` the tool reads every file below it (a search). */
export type DiskPath = TouchedPath & { dir?: true; contents?: true }

export interface DiskContext {
  workspace: string
  home: string
  realpath: (path: string) => string
  /** whether a path rule (risk.paths, the built-in credential locations) names this real path: the
   *  files found on disk that it picks are judged as paths of the call; undefined: none are looked for */
  judged?: (path: string) => boolean
  /** the command may turn dotglob on: a glob's `*` matches names starting with a dot */
  dotglob?: boolean
  /** the git directories the workspace's `.git` file points to: their config files are git configs */
  gitDirs?: readonly string[]
  /** ccode's environment (rg's config file, git's config folder) */
  env?: Record<string, string | undefined>
  /** the credential files settings name (~/.ssh/config's IdentityFile...): a hard link to one is one */
  named?: () => Iterable<string>
}

/** Resolves every touched path into `paths` and looks up what lies behind globs, walks and links. */
export function onDisk(touched: readonly DiskPath[], paths: CallPath[], ctx: DiskContext): Raised {
  const raised: Raised = []
  const { workspace, realpath } = ctx
  for (const p of touched) {
    if (ownProcessPath(p.path)) ownProcess(p, paths, raised, realpath)
    const real = realpath(p.path)
    if (p.git) {
      repoContent(real, p.git, paths, raised, ctx)
      continue
    }
    if (p.unpacks) unpacked(real, p.unpacks, paths, raised, ctx)
    if (p.tree) {
      for (const root of treeRoots(p.path, realpath, raised, ctx)) {
        accountsBelow(root, paths)
        tree(root, p.tree === "all", paths, raised, ctx, p.dotGlobs, p.archives)
      }
      continue
    }
    if (p.dir) paths.push({ path: real, access: p.access, dir: true })
    else if (!p.follow) paths.push(p.glob ? { path: real, access: p.access, glob: true } : { path: real, access: p.access })
    if (p.contents) {
      for (const c of credentialsBelow(real, ctx.home)) paths.push({ path: c, access: "read" })
      accountsBelow(real, paths)
      tree(real, true, paths, raised, ctx)
    }
    if (p.access === "read" && !p.glob) homeLike(real, raised, ctx)
    if (p.access === "read" && !p.glob && !p.tree) hardLink(real, paths, raised, ctx)
    // an archive's bytes are its members' (an extraction's archive is judged by its members' writes)
    if (p.access === "read" && !p.glob && !p.unpacks && ctx.judged) archiveRead(real, ctx.judged, raised)
    // (~/.gitconfig can be a link into a dotfiles folder: named by where it is, read where it leads)
    if (p.access === "read" && (isGitConfigFile(real) || isGitConfigFile(p.path) || inGitDir(real, ctx.gitDirs))) for (const f of gitConfigSources(real)) gitCredential(f, raised, ctx.home)
    if (real !== p.path) magicLink(p.path, p.access, raised)
    if (p.glob) {
      const found = globLinks(p.path, realpath, undefined, ctx.dotglob ?? true)
      for (const to of found.links) reached(to, p.access, paths, ctx)
      if (ctx.judged) for (const name of found.names) if (ctx.judged(name)) paths.push({ path: name, access: p.access })
      // each file the glob matches is read as if named (`strings *`, `grep -a x *`): an archive's members too
      if (ctx.judged && p.access === "read" && !p.unpacks) {
        for (const name of [...found.names, ...found.links]) {
          const st = statQuiet(name)
          if (!st?.isFile()) continue
          archiveRead(name, ctx.judged, raised, st)
          hardLink(name, paths, raised, ctx, st)
        }
      }
      // `cat .git/*` prints the config as `cat .git/config` does; `.git/remotes/*` through a `.git` file
      // is the git directory's (git remote lists them)
      if (p.access === "read") {
        for (const src of gitConfigSources(p.path)) {
          const matched = src === p.path ? found : globLinks(src, realpath, undefined, true)
          for (const name of [...matched.names, ...(matched.tails ?? [])]) if (isGitConfigFile(name) || inGitDir(name, ctx.gitDirs)) gitCredential(name, raised, ctx.home)
        }
      }
      if (!found.complete) raised.push({ risk: "medium", reason: `${p.path} matches too many entries to check where their links lead` })
    }
    if (p.operand && p.glob) optionLike(p.path, p.operand, raised)
    if (p.follow) {
      paths.push({ path: realpath(globFree(p.path)), access: "read" })
      const walk = walkLinks(p.path, workspace, realpath)
      for (const l of walk.links) {
        if (isInside(workspace, l.to)) continue
        reached(l.to, "read", paths, ctx)
        if (l.dir) raised.push({ risk: "medium", reason: `a walk of ${p.path} that follows links reads the folder ${l.to} outside the workspace (through ${l.at})` })
      }
      if (!walk.complete) raised.push({ risk: "medium", reason: `a walk of ${p.path} that follows links: too many files to check where their links lead` })
    }
  }
  return raised
}

// an extraction or a patch: each member or file the diff names is a write below the folder it lands in
// (after --strip-components, -pN);
// members not listed (a format not read, too large, not there yet) land where a .git/hooks or startup
// file could be among them: high where that matters (the workspace, the home)
function unpacked(archive: string, u: NonNullable<DiskPath["unpacks"]>, paths: CallPath[], raised: Raised, ctx: DiskContext): void {
  const into = ctx.realpath(u.into)
  const listed = u.diff ? diffTargets(archive) : archiveMembers(archive)
  if ("unknown" in listed) {
    // a file that is not there fails the command, unless an earlier part makes it (`curl -o x.tgz … && tar xf x.tgz`)
    if (listed.missing && !u.later) return
    if (isInside(ctx.workspace, into) || isInside(ctx.home, into)) raised.push({ risk: "high", reason: `${u.diff ? "applies" : "extracts"} ${archive} into ${into}: its ${u.diff ? "file" : "member"} names cannot be listed (${listed.unknown}), so a .git/hooks, .claude or startup file among them is not ruled out` })
    return
  }
  const seen = new Set<string>()
  for (const name of listed.names) {
    const parts = name.split("/").filter((s) => s && s !== ".")
    // patch without -p: any number of leading folders may be dropped
    // GNU patch may take an Index: name as it stands
    const whole = listed.whole?.includes(name) && u.strip > 0 ? [0] : []
    for (const strip of u.strip < 0 ? parts.map((_, i) => i) : [u.strip, ...whole]) {
      const rest = parts.slice(strip)
      if (!rest.length) continue
      // GNU tar, unzip and patch drop a leading / of a name (not tar -P)
      const lexical = posix.normalize(u.absolute && name.startsWith("/") && strip === 0 ? name : `${into}/${rest.join("/")}`)
      // a folder of the name that is a link on disk (a repository's `lnk -> .git/hooks`): the member lands where it leads
      const path = `${ctx.realpath(posix.dirname(lexical))}/${posix.basename(lexical)}`.replace(/^\/\//, "/")
      for (const p of new Set([path, lexical])) {
        if (seen.has(p)) continue
        seen.add(p)
        paths.push({ path: p, access: "write" })
      }
    }
  }
}

// the folders a recursive read walks: a glob's matches on disk (as bash expands it), else the path
function treeRoots(path: string, realpath: (p: string) => string, raised: Raised, ctx: DiskContext): string[] {
  if (!/[*?[]/.test(path)) return [realpath(path)]
  const found = globLinks(path, realpath, undefined, ctx.dotglob ?? true)
  if (!found.complete) raised.push({ risk: "medium", reason: `${path} matches too many entries to check the files below them` })
  return [...found.names, ...found.links]
}

// the files a recursive read opens below a folder that a path rule names (the workspace's own .env)
function tree(root: string, hidden: boolean, paths: CallPath[], raised: Raised, ctx: DiskContext, dotGlobs?: readonly string[], archives?: true): void {
  // below a descriptor: ccode's own say nothing about the command's (the analysis judged it)
  if (!ctx.judged || ownProcessPath(root)) return
  const judged = ctx.judged
  // a git config is a credential by its content (a token in a remote URL, an extraheader), not its name
  // rg: the ignore files and config it reads besides the folders' own
  const rg = dotGlobs && !hidden ? rgSources(root, ctx.home, ctx.env) : undefined
  if (rg?.unknown) raised.push({ risk: "high", reason: rg.unknown })
  const opts = rg ? { hidden: rg.hidden, dotGlobs: [...dotGlobs!, ...rg.globs], ignoreFiles: rg.ignoreFiles } : dotGlobs ? { hidden, dotGlobs } : { hidden }
  // a walk that prints binary files as text (grep -a, rg -a): every file is looked at for an archive's members
  const pick = picker(judged, archives, raised)
  // a file met that is a hard link to a credential file is read as it
  const found = treeFiles(root, (path) => pick(path) || (hardLink(path, paths, raised, ctx), false), opts)
  for (const path of found.files) {
    if (judged(path)) paths.push({ path, access: "read" })
    else gitCredential(path, raised, ctx.home)
  }
  if (!found.complete) raised.push({ risk: "medium", reason: `a recursive read of ${root}: too many files below it to check none is a credential file` })
}

// the files a walk picks: those a path rule names and git configs; with `archives` (the command prints
// binary files as text) each file met is also looked at for an archive holding a credential member
function picker(judged: (path: string) => boolean, archives: boolean | undefined, raised: Raised): (path: string) => boolean {
  if (!archives) return (path) => judged(path) || isGitConfigFile(path)
  return (path) => {
    if (judged(path) || isGitConfigFile(path)) return true
    archiveRead(path, judged, raised)
    return false
  }
}

const inodeTables = new WeakMap<DiskContext, InodeTable>()

// a file with more links than one whose inode is a credential file's (core/policy/hardlinks.ts): read as it
function hardLink(path: string, paths: CallPath[], raised: Raised, ctx: DiskContext, known?: Stats): void {
  const st = known ?? statQuiet(path)
  if (!st || st.nlink < 2 || !st.isFile()) return
  let table = inodeTables.get(ctx)
  if (!table) inodeTables.set(ctx, (table = {}))
  const r = hardLinkedCredential(st, { home: ctx.home, named: ctx.named ?? (() => []), workspace: ctx.workspace, judged: ctx.judged }, table)
  if (!r) return
  if ("unsure" in r) {
    raised.push({ risk: "medium", reason: `reads ${path}, a file with ${st.nlink} names (hard links), and ${r.unsure}: it could be a credential file under another name` })
    return
  }
  if (r.found === path) return
  paths.push({ path: r.found, access: "read" })
  raised.push({ risk: "high", reason: `reads ${path}, a hard link to ${r.found} (the same file under another name), which is where credentials are kept` })
}

function statQuiet(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? undefined
  } catch {
    return undefined
  }
}

// a path reached through a link: judged itself, and when it is a folder outside the workspace, a
// command that reads it recursively reads the credential locations below it
function reached(to: string, access: TouchedPath["access"], paths: CallPath[], ctx: DiskContext): void {
  paths.push({ path: to, access })
  if (access === "read" && !isInside(ctx.workspace, to)) for (const c of credentialsBelow(to, ctx.home)) paths.push({ path: c, access: "read" })
}

function optionLike(glob: string, program: string, raised: Raised): void {
  const found = optionNames(glob)
  if (found.names.length) raised.push({ risk: "medium", reason: `the glob ${glob} matches ${found.names[0]}, which ${program} reads as an option` })
  else if (!found.complete) raised.push({ risk: "medium", reason: `${glob} matches too many entries to check whether one is named like an option of ${program}` })
}

function magicLink(path: string, access: TouchedPath["access"], raised: Raised): void {
  const link = throughMagicLink(path)
  if (!link) return
  const what = `${path} goes through ${link}, a link into /proc or /dev/fd: where it leads depends on the process that opens it`
  raised.push(access === "read" ? { risk: "medium", reason: `reads ${what}` } : { risk: "high", reason: `writes ${what}` })
}

// /proc/self/root/X is /X for every process on the host; what is below a descriptor, the cwd or a mapped
// file depends on the process that opens it (a host's tool runs in its own process, a shell command's
// descriptors were judged by the analysis): never resolved in ccode's process, judged as not known
const LEADS_AWAY = /^\/(?:proc\/(?:self|thread-self)(?:\/task\/[^/]+)?\/(?:fd|cwd|root|map_files|exe)|dev\/fd|dev\/std(?:in|out|err))\/./
const ROOT = /^\/proc\/(?:self|thread-self)(?:\/task\/[^/]+)?\/root(?=\/|$)/

function ownProcess(p: DiskPath, paths: CallPath[], raised: Raised, realpath: (path: string) => string): void {
  const path = posix.normalize(p.path)
  const root = ROOT.exec(path)
  if (root) {
    paths.push({ path: realpath(path.slice(root[0].length) || "/"), access: p.access })
    return
  }
  if (!LEADS_AWAY.test(path) || /^\/dev\/fd\/[012]$/.test(path)) return
  const what = `${p.path} goes through a process's own descriptors or /proc entry: where it leads depends on the process that opens it`
  raised.push(p.access === "read" ? { risk: "medium", reason: `reads ${what}` } : { risk: "high", reason: `writes ${what}` })
}

// the files a git command prints from the history, the index or the work tree without naming them
function repoContent(start: string, content: NonNullable<DiskPath["git"]>, paths: CallPath[], raised: Raised, ctx: DiskContext): void {
  if (!ctx.judged) return
  const judged = ctx.judged
  // a committed .gitmodules is a git config by its content: its work-tree copy is looked at
  // `-a`/`--text`: an archive among the files prints its members (its work-tree copy is looked at)
  const found = gitContentFiles(start, content, picker(judged, content.text, raised))
  for (const path of found.files) {
    if (judged(path)) paths.push({ path, access: "read" })
    else gitCredential(path, raised, ctx.home)
  }
  if (found.unknown) raised.push({ risk: "medium", reason: `git prints files its repository holds without naming them, and ${found.unknown}: one could be a credential file` })
  const how = content.renames ? `git ${content.renames} gives an object a new name (a later read prints it as that name)` : "git prints a file's content by its object id"
  if (found.blind) raised.push({ risk: "high", reason: `${how}, and ${found.blind}` })
  if (content.input) raised.push({ risk: "high", reason: `${how}, and the ids come from its input or are not static: a committed credential file's blob is not ruled out` })
  if (content.untracked) tree(start, true, paths, raised, ctx)
  // a credential's blob under another name: a note the log prints, an index entry the index's readers print
  if (content.notes || content.index) {
    const rehomed = rehomedCredential(start, judged, { notes: content.notes, index: content.index !== undefined })
    if (rehomed) raised.push({ risk: rehomed.risk, reason: `git ${rehomed.reason}` })
  }
}

// `.bash_history` in a folder that is a home by its contents but no account's (core/policy/homelike.ts)
function homeLike(path: string, raised: Raised, ctx: DiskContext): void {
  const found = homeLikeCredential(path, [ctx.home, ...userHomes()])
  if (found) raised.push({ risk: "high", reason: `reads ${path}: ${found.base} holds ${found.mark}, so it is a home folder and ~/${found.rest} in it is where credentials are kept` })
}

// a git config holding a token (actions/checkout's extraheader, a URL with a password) is a credential file
// the config of the git directory the workspace's .git file points to (`cat gitdata/config`)
function inGitDir(path: string, gitDirs: readonly string[] | undefined): boolean {
  return gitDirs !== undefined && gitDirs.some((d) => path === `${d}/config` || path === `${d}/config.worktree` || /^\/(?:remotes|branches)\/[^/]+$/.test(path.slice(d.length)) && path.startsWith(d))
}

function gitCredential(file: string, raised: Raised, home?: string): void {
  const key = gitConfigCredential(file, home)
  if (key) raised.push({ risk: "high", reason: `reads ${file}, which holds a credential (${key}): a read sends it to the model` })
}

// the accounts' homes below a walked folder (`grep -r x /var/lib` reaches /var/lib/postgresql/.ssh): their
// credential locations that are there (system accounts' homes are mostly /usr/sbin, /var/spool/...); the
// ones under /home, /Users and /root the analysis already names
function accountsBelow(dir: string, paths: CallPath[]): void {
  for (const h of userHomes()) {
    if (h.length <= dir.length || !isInside(dir, h)) continue
    for (const c of homeSecrets(h)) if (lstatSync(c, { throwIfNoEntry: false })) paths.push({ path: c, access: "read" })
  }
}
