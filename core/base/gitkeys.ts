// The repository config keys that make git run a program or read a file, and the git commands in which
// it does: a reading command (git status, git log, git help) is safe only while none of the keys it
// uses is set. Pure but for resolving a path against the file system's links.
import { resolve } from "node:path"
import { isInside, realpathExisting } from "./paths.ts"

/** Why the key matters, and the commands it matters to (undefined: every git command). */
export interface KeyRisk {
  why: string
  commands?: readonly string[]
}

const BOOLEAN = /^(true|false|yes|no|on|off|1|0|)$/i
const LFS_FILTER = /^git-lfs (clean -- %f|smudge( --skip)? -- %f|filter-process( --skip)?)$/
// the commands that open an editor, and the ones that reach a remote: more than reads already (never
// safe), named here so the reason says which key they run; listings that share a name (git tag, git
// remote -v, git config --get) are left out, they run neither
const EDITORS = ["commit", "merge", "rebase", "am", "cherry-pick", "revert", "pull"]
const NETWORK = ["fetch", "pull", "push", "clone", "ls-remote"]
const VERIFIERS = ["log", "show", "whatchanged", "verify-commit", "verify-tag", "tag", "merge", "pull"]
const LOG_LIKE = ["log", "shortlog", "show", "blame", "annotate", "whatchanged", "check-mailmap"]

/** The risk of one `key = value` of a repository's config; undefined when the key runs and reads nothing. */
export function configKeyRisk(key: string, value: string | null, place?: { gitDir: string; workspace: string }): KeyRisk | undefined {
  const lower = key.toLowerCase()
  const dot = lower.indexOf(".")
  const sec = dot < 0 ? lower : lower.slice(0, dot)
  const name = lower.slice(lower.lastIndexOf(".") + 1)
  const v = value ?? ""
  const why = `${key} = ${v.slice(0, 60)}`
  const all = { why }
  const only = (commands: readonly string[]) => ({ why, commands })
  // every command: programs git status, diff, log run, and files every command reads
  if (lower === "core.fsmonitor") return BOOLEAN.test(v) ? undefined : all
  if (lower === "core.pager" || lower === "diff.external") return all
  if (sec === "pager") return BOOLEAN.test(v) ? undefined : all
  if (sec === "diff" && (name === "textconv" || name === "command")) return all
  // `git lfs install --local` writes git-lfs's own filter into a repository's config: that one is expected
  if (sec === "filter") return (name === "clean" || name === "smudge" || name === "process") && !LFS_FILTER.test(v) ? all : undefined
  if (sec === "gpg" && (name === "program" || name === "defaultkeycommand")) return all
  // ssh-keygen reads these files when a signature is checked, and its errors quote them
  if (sec === "gpg" && (name === "allowedsignersfile" || name === "revocationfile")) return only(VERIFIERS)
  // config-based hooks (hook.<name>.command) run on the events git status raises too (post-index-change)
  if (sec === "hook") return all
  // a work tree or a hooks directory elsewhere: git reads the files there, runs the hooks there
  if (lower === "core.worktree") return outside(v, place, place?.gitDir) ? all : undefined
  if (lower === "core.hookspath") return outside(v, place, place?.workspace) ? all : undefined
  // an included file's keys are not seen here
  if (sec === "include" || sec === "includeif") return all
  // a command's own: git help (and `git X --help`) runs the man viewer or the browser
  if (sec === "man" && (lower === "man.viewer" || name === "cmd" || name === "path")) return only(["help"])
  if (lower === "help.browser" || lower === "web.browser" || (sec === "browser" && (name === "cmd" || name === "path"))) return only(["help"])
  // files read whole, whose first bad line git prints in its error (git blame: "invalid object name: <line>")
  if (lower === "blame.ignorerevsfile") return only(["blame", "annotate"])
  if (lower === "fsck.skiplist") return only(["fsck"])
  // check-ignore -v prints the pattern that matched, check-attr the attributes a line sets: a line of any file
  if (lower === "core.excludesfile") return only(["check-ignore"])
  if (lower === "core.attributesfile") return only(["check-attr"])
  if (lower === "mailmap.file" || lower === "mailmap.blob") return only(LOG_LIKE)
  if (lower === "core.editor" || lower === "sequence.editor") return only(EDITORS)
  if (lower === "core.askpass" || lower === "core.sshcommand" || lower === "core.gitproxy" || lower === "core.alternaterefscommand") return only(NETWORK)
  if (sec === "credential" && name === "helper") return only(NETWORK)
  if ((sec === "http" || sec === "https") && name === "proxy") return only(NETWORK)
  if (sec === "protocol" && name === "allow") return only(NETWORK)
  if (sec === "remote" && (name === "uploadpack" || name === "receivepack" || name === "proxy" || name === "vcs")) return only(NETWORK)
  return undefined
}

// a path the config names that leaves the workspace (or cannot be placed): core.worktree is read from the
// git directory, core.hooksPath from the work tree
function outside(v: string, place: { gitDir: string; workspace: string } | undefined, base: string | undefined): boolean {
  if (!place || base === undefined) return true
  if (v.startsWith("~")) return true
  const p = resolve(base, v)
  return !isInside(realpathExisting(place.workspace), realpathExisting(p))
}
