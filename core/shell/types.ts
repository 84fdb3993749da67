// What shell analysis produces for the policy engine. Plain data.
import type { Risk } from "../base/risk.ts"

export type Access = "read" | "write"

export interface Redirect {
  op: string // ">", ">>", "<", "2>", "&>", "<<<", ...
  target: string
  access: Access | "append"
}

/** Where a simple command sits in the script. */
export type Construct =
  | "list" | "pipeline" | "background" | "substitution" | "process_substitution" | "subshell" | "group"
  | "condition" | "loop" | "case" | "function" | "heredoc" | "shell_c" | "eval" | "xargs" | "find_exec"
  | "sudo" | "ssh" | "watch" | "parallel" | "runner"

export interface SimpleCommand {
  /** the command's own source text */
  text: string
  /** normalised program: basename, wrappers removed (`/usr/bin/env FOO=1 timeout 5 git` -> `git`) */
  program: string
  /** the program as written when it had a directory (`./git`, `/usr/bin/git`): allow rules for `git`
   *  cover only system directories, so a workspace-supplied `./git` is not allowed by `allow: git status` */
  programPath?: string
  /** arguments after unquoting, without the program */
  args: string[]
  /** leading VAR=value words that were dropped */
  assignments: { name: string; value: string }[]
  redirects: Redirect[]
  /** constructs enclosing this command, outermost first */
  context: Construct[]
  /** transparent wrappers that were removed (timeout, nice, env, ...) */
  wrappers: string[]
  /** risk of this command alone (built-in table + policy), with why */
  risk: Risk
  reasons: string[]
  /** names of built-in classifier entries that matched (overridable by policy risk.overrides) */
  classes: string[]
  /** program or arguments cannot be known statically ($CMD args, eval "$x") */
  unresolved: boolean
  /** a loader/config variable (LD_PRELOAD, GIT_*, PATH, ...) is set: allow rules do not apply */
  loaderEnv: boolean
  /** indices of args whose words are known only at run time ($(..), $X, `{}`): a deny or ask rule
   *  they could meet makes the call ask */
  open?: number[]
  /** xargs (or parallel) appends words from its input: they could be any words */
  appended?: boolean
}

export interface TouchedPath {
  /** absolute, `.`/`..` resolved (symlinks resolved where the file exists) */
  path: string
  access: Access
  /** still a shell glob (bash left it as written or the analysis kept it): path patterns meet it when
   *  some real path could match both */
  glob?: true
  /** a tree the command walks following the symbolic links it meets (grep -R, rg -L, diff -r): where
   *  those links lead is looked up on disk before deciding */
  follow?: true
  /** a glob a recursive read walks (grep -r x *): a match that is a link is walked where it leads, so
   *  the credentials below each link's target are read too (looked up on disk before deciding) */
  recursive?: true
  /** a folder a recursive read opens every file below (grep -r, rg): the files there whose names a
   *  path rule names are looked up on disk before deciding; "visible" skips dot-files (rg, ag by default) */
  tree?: "all" | "visible"
  /** the walk prints binary files as text (grep -a, rg -a): an archive below it passes its members on,
   *  so each file is looked at on disk for one holding a credential member */
  archives?: true
  /** rg's "visible" walk (set for rg alone): dot-names it still searches, those its -g/--glob/--iglob
   *  globs match (any case) and those a `!` line of an ignore file on disk (.ignore, .rgignore,
   *  .gitignore, in the folder walked or above it) names */
  dotGlobs?: string[]
  /** a glob that is an argument of this program (`sort *`): a match named like an option (`-S1`,
   *  `--compress-program=sh`) is read as one, looked up on disk before deciding */
  operand?: string
  /** a git command started in this folder prints content its repository holds without naming the
   *  files (git show, log -p, diff, grep): the names the repository holds are looked up on disk */
  git?: GitContent
  /** an archive an extraction unpacks (tar -x -f, unzip) or a diff a patcher applies (patch, git
   *  apply): its member or file names are looked up on disk and judged as writes below this folder;
   *  `strip`: tar --strip-components, patch -pN (-1: any number); `later`: an earlier part of the
   *  command writes files, so one missing now may be made before it is read; `absolute`: tar -P, a
   *  member `/x` lands at /x */
  unpacks?: { into: string; strip: number; diff?: true; later?: true; absolute?: true }
}

/** What a git command prints of its repository: the history's files, the index's (all of them, or only
 *  those the work tree changed), the untracked ones; `within`: only below these paths (its pathspecs). */
export interface GitContent {
  history?: true
  /** only the commits the refs reach (`git log -p`, `git show` with no revision and no reflog walk);
   *  otherwise a reflog entry or a pseudo-ref (HEAD@{1}, ORIG_HEAD) can be named too */
  refsOnly?: true
  /** revisions named by an object id: a commit no ref or reflog reaches may be one of them */
  hashes?: string[]
  index?: "all" | "changed"
  untracked?: true
  within?: string[]
  /** git can list the very names it prints: `git show REVS --name-only` or `git diff [--cached] REVS --name-only` */
  ask?: { kind: "show" | "diff"; revs: string[]; cached?: true }
  /** words with a `/` judged as revisions (`feature/x`) that are pathspecs when the work tree has the
   *  path (`paths`, resolved; [] when a glob pathspec beside it narrows nothing): settled on disk before the lookup */
  maybe?: { rev: string; paths: string[] }[]
  /** object ids a command gives a new name (update-index --cacheinfo, notes add -C): the blobs' names
   *  in the repository are looked up; `renames` says how, `input`: ids not known (from stdin, not static) */
  blobs?: string[]
  renames?: string
  input?: true
  /** `--submodule=diff`, `git grep --recurse-submodules`: the submodules' files are printed too (the
   *  repository's diff.submodule / submodule.recurse is read on disk) */
  submodules?: true
  /** `-a`/`--text` (git grep, log -p, show, diff): binary files print as text, so an archive among the
   *  files passes its members on (looked at on disk) */
  text?: true
  /** git log/show/whatchanged print the notes of the commits they show: a note's blob is looked up */
  notes?: true
}

export interface ShellAnalysis {
  source: string
  commands: SimpleCommand[]
  /** max over commands and whole-string checks */
  risk: Risk
  reasons: string[]
  /** set when the parse had ERROR/MISSING nodes, was too long, or failed */
  parseError?: string
  /** anything that cannot be resolved statically: critical, no allow rule or mode approves it */
  unresolvable: boolean
  /** paths the command touches: redirect targets and path-like arguments, resolved from cwd (and `cd DIR`) */
  paths: TouchedPath[]
  /** a secret variable's value or the whole environment reaches the output: the OS sandbox does not contain
   *  that (it passes the environment through), so the sandboxed threshold does not apply */
  exposesSecrets?: true
}
