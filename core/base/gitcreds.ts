// Whether a git config file holds a credential: actions/checkout's `http.<url>.extraheader =
// AUTHORIZATION: basic ...` in .git/config, a remote or insteadOf URL with `user:token@`, a password key.
// A read of such a file (cat .git/config, git config -l) sends the credential to the model; the same read
// of an ordinary config is harmless, so the file is looked at. Reads one small file; never writes.
import { lstatSync, readFileSync, statSync } from "node:fs"
import { homedir } from "node:os"
import { dirname, resolve } from "node:path"
import { parseConfig } from "./gitconfig.ts"
import { gitfileTarget } from "./gitrepo.ts"

const MAX_BYTES = 256 * 1024
// a URL with a password (or a token as the user name's password): scheme://user:secret@host
const URL_SECRET = /[a-z][a-z0-9+.-]*:\/\/[^/@\s:]*:[^/@\s]+@/i
// a token given as the user part of an http(s) URL (`https://ghp_…@github.com/o/r`, GitHub's and GitLab's
// documented form; CI systems write `https://<token>@host/…`); a plain user name (`https://org@dev.azure.com`)
// is no secret, so the user part must look like a token: a token prefix, or long with a digit in it
const URL_USER = /\bhttps?:\/\/([^/@\s:]+)@/gi
const TOKEN_PREFIX = /^(?:gh[pousr]_|github_pat_|glpat-|gldt-|glptt-|glcbt-|glrt-|x-access-token|x-token-auth|oauth2|gitlab-ci-token|ATBB|xox[a-z]-)/i
// the last word of a key (after `.`, `-` or `_`: `github.oauth-token`, `hub.oauthtoken`, `foo.api_key`)
const SECRET_KEY = /(^|[._-])(extraheader|password|passwd|pass|smtppass|token|accesstoken|oauth-?token|access-?token|auth-?token|api-?key|apikey|secret|client-?secret|passphrase)$/i
// keys whose value is a program git runs for a password or a connection: arguments after the program are
// not needed, so a value with a space (`echo ghp_…`, `sshpass -p PW ssh`) or a token in it carries the secret
const PROGRAM_KEY = /^core\.(askpass|sshcommand)$/i
// a user name that is a token (GitHub and GitLab take a token as the user name of an https login)
const USER_KEY = /^credential\.(.*\.)?username$/i

/** The file names git reads its configuration from: a repository's (and its worktrees' and modules'),
 *  the user's and the system's, and the files users include by name (`~/.gitconfig.local`, `~/.gitconfig-work`). */
export function isGitConfigFile(path: string): boolean {
  return /\/\.git\/(?:.*\/)?config(?:\.worktree)?$|\/\.gitconfig(?:[.-][^/]*)?$|\/git\/config$|^\/etc\/gitconfig$/.test(path)
}

/**
 * The file git really reads for `DIR/.git/config` (or `config.worktree`): when `DIR/.git` is a file or a
 * link (a linked worktree, a submodule's work tree, `--separate-git-dir`), the one in the git directory
 * it names, and for `config` the shared one of its common directory (a linked worktree's remotes are
 * there); otherwise the path itself.
 */
export function gitConfigSources(path: string): string[] {
  const m = /^(.*\/\.git)\/(config(?:\.worktree)?)$/.exec(path)
  if (!m) return [path]
  const dotGit = m[1]!
  let st
  try {
    st = lstatSync(dotGit, { throwIfNoEntry: false })
  } catch {
    // ENAMETOOLONG, ENOTDIR: judged as the path itself (a read of it fails the same way)
    return [path]
  }
  if (!st || st.isDirectory()) return [path]
  const dir = gitfileTarget(dotGit)
  if (!dir || dir === dotGit) return []
  const out = [`${dir}/${m[2]}`]
  if (m[2] === "config.worktree") return out
  try {
    const common = readFileSync(`${dir}/commondir`, "utf8").trim()
    if (common) out.push(`${resolve(dir, common)}/config`)
  } catch {
    // no commondir: a submodule's or a separate git directory, not a linked worktree
  }
  return out
}

/** The key that holds a credential (never its value), or undefined when none does or the file is not there.
 *  The files it includes (`include.path`, `includeIf.<cond>.path`, whatever the condition) are looked at
 *  too: `git config -l` prints their entries as its own. */
export function gitConfigCredential(file: string, seen: Set<string> = new Set()): string | undefined {
  if (seen.has(file) || seen.size >= MAX_INCLUDES) return undefined
  seen.add(file)
  let st
  try {
    st = statSync(file, { throwIfNoEntry: false })
  } catch {
    // ENOTDIR, ELOOP, EACCES: no file git could read there either
    return undefined
  }
  if (!st?.isFile()) return undefined
  let text: string
  try {
    text = readFileSync(file, "utf8").slice(0, MAX_BYTES)
  } catch {
    return undefined
  }
  const entries = parseConfig(text)
  // a file git would refuse is read as text: a URL with a password in it is one all the same
  if (typeof entries === "string") return URL_SECRET.test(text) || tokenUser(text) || /extraheader/i.test(text) || HELPER_SECRET.test(text) || /askpass\s*=\s*\S+\s+\S/i.test(text) ? "a line with a credential" : undefined
  for (const e of entries) {
    if (SECRET_KEY.test(e.key) && e.value) return masked(e.key)
    // `credential.helper = "!f() { echo password=…; }; f"`: the helper carries the secret itself
    if (/^credential\..*helper$|^credential\.helper$/i.test(e.key) && e.value !== null && HELPER_SECRET.test(e.value)) return `${masked(e.key)} (a helper that holds its password)`
    if (PROGRAM_KEY.test(e.key) && e.value !== null && programSecret(e.key, e.value)) return `${masked(e.key)} (a program line that holds a secret)`
    if (USER_KEY.test(e.key) && e.value !== null && tokenLike(e.value)) return `${masked(e.key)} (a token as the user name)`
    if (URL_SECRET.test(e.key) || (e.value !== null && URL_SECRET.test(e.value))) return `${masked(e.key)} (a URL with a password)`
    if (tokenUser(e.key) || (e.value !== null && tokenUser(e.value))) return `${masked(e.key)} (a URL with a token as its user)`
  }
  for (const e of entries) {
    if (e.value === null || !/^include(if\..*)?\.path$/i.test(e.key)) continue
    const home = process.env.HOME ?? homedir()
    const target = e.value.startsWith("~/") ? home + e.value.slice(1) : resolve(dirname(file), e.value)
    const found = gitConfigCredential(target, seen)
    if (found) return `${found} in ${e.value}, which ${masked(e.key)} includes`
  }
  return undefined
}

// git follows at most 10 nested includes; a few more files are looked at before giving up quietly
const MAX_INCLUDES = 16

const HELPER_SECRET = /(password|passwd|token|secret)\s*=/i

// a token by its prefix, an old 40-hex GitHub token, or a long run of letters and digits
function tokenLike(value: string): boolean {
  const v = value.trim()
  return TOKEN_PREFIX.test(v) || /^[0-9a-f]{40}$/i.test(v) || (v.length >= 32 && /^[\w-]+$/.test(v) && /[a-z]/i.test(v) && (v.match(/\d/g)?.length ?? 0) >= 4)
}

// core.askPass with arguments, or any word of it a token; core.sshCommand with a password option or a token
function programSecret(key: string, value: string): boolean {
  const words = value.trim().split(/\s+/)
  if (words.some(tokenLike) || HELPER_SECRET.test(value)) return true
  if (/askpass$/i.test(key)) return words.length > 1
  return /\bsshpass\b/.test(value)
}

function tokenUser(text: string): boolean {
  for (const m of text.matchAll(URL_USER)) {
    let user = m[1]!
    try {
      user = decodeURIComponent(user)
    } catch {
      // kept as written
    }
    if (TOKEN_PREFIX.test(user) || (user.length >= 12 && /\d/.test(user)) || user.length >= 20) return true
  }
  return false
}

// a key's subsection can hold the URL with its password (`url.https://bob:tok@host/.insteadof`)
function masked(key: string): string {
  return key.replace(/(\/\/)[^/@\s]*@/, "$1…@")
}
