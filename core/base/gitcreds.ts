// Whether a git config file holds a credential: actions/checkout's `http.<url>.extraheader =
// AUTHORIZATION: basic ...` in .git/config, a remote or insteadOf URL with `user:token@`, a password key.
// A read of such a file (cat .git/config, git config -l) sends the credential to the model; the same read
// of an ordinary config is harmless, so the file is looked at. Reads one small file; never writes.
import { lstatSync, statSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { parseConfig } from "./gitconfig.ts"
import { includeTarget } from "./gitincludes.ts"
import { gitfileTarget } from "./gitrepo.ts"
import { readRegular } from "./readsafe.ts"

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
 *  the user's and the system's, and the files users include by name (`~/.gitconfig.local`, `~/.gitconfig-work`);
 *  and git's other sources of remote URLs, which git remote and a read print as they are: the old remote
 *  files $GIT_DIR/remotes/NAME (`URL: …` lines) and $GIT_DIR/branches/NAME (a URL), and a work tree's
 *  .gitmodules (submodule URLs, a config's format). */
export function isGitConfigFile(path: string): boolean {
  return /\/\.git\/(?:.*\/)?(?:config(?:\.worktree)?|(?:remotes|branches)\/[^/]+)$|\/\.gitconfig(?:[.-][^/]*)?$|\/git\/config$|^\/etc\/gitconfig$|\/\.gitmodules$/.test(path)
}

/**
 * The file git really reads for `DIR/.git/config` (or `config.worktree`): when `DIR/.git` is a file or a
 * link (a linked worktree, a submodule's work tree, `--separate-git-dir`), the one in the git directory
 * it names, and for `config` the shared one of its common directory (a linked worktree's remotes are
 * there); otherwise the path itself.
 */
export function gitConfigSources(path: string): string[] {
  const m = /^(.*\/\.git)\/(config(?:\.worktree)?|(?:remotes|branches)\/[^/]+)$/.exec(path)
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
    const common = readRegular(`${dir}/commondir`).trim()
    if (common) out.push(`${resolve(dir, common)}/${m[2]}`)
  } catch {
    // no commondir: a submodule's or a separate git directory, not a linked worktree
  }
  return out
}

/** The key that holds a credential (never its value), or undefined when none does or the file is not there.
 *  The files it includes (include.path, includeIf.*.path, whatever the condition: it can hold) are read
 *  as git reads them: relative to the including file, `~/` from `home`. */
export function gitConfigCredential(file: string, home?: string, depth = 0, chain: ReadonlySet<string> = new Set()): string | undefined {
  // a file that includes itself (directly or through others): git refuses the config, printing no more
  if (chain.has(file)) return undefined
  return ownCredential(file, home, depth, new Set([...chain, file]))
}

// git stops at 10 levels of includes
const MAX_INCLUDE_DEPTH = 10

function includedCredential(file: string, path: string, home: string | undefined, depth: number, chain: ReadonlySet<string>): string | undefined {
  if (depth >= MAX_INCLUDE_DEPTH) return `an include ${MAX_INCLUDE_DEPTH} levels deep, not followed`
  const target = includeTarget(file, path, home)
  if (target === undefined) return `an include of ${path.slice(0, 60)}, which ccode does not place`
  const key = gitConfigCredential(target, home, depth + 1, chain)
  return key === undefined ? undefined : `${key} in ${target}, which ${file} includes`
}

function ownCredential(file: string, home: string | undefined, depth: number, chain: ReadonlySet<string>): string | undefined {
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
    text = readRegular(file, MAX_BYTES)
  } catch {
    return undefined
  }
  const entries = parseConfig(text)
  // a file git would refuse is read as text: a URL with a password in it is one all the same
  if (typeof entries === "string") return URL_SECRET.test(text) || tokenUser(text) || /extraheader/i.test(text) || HELPER_SECRET.test(text) || /askpass\s*=\s*\S+\s+\S/i.test(text) ? "a line with a credential" : undefined
  for (const e of entries) {
    if (/^include(?:if\..*)?\.path$/i.test(e.key) && e.value) {
      const inc = includedCredential(file, e.value, home, depth, chain)
      if (inc) return inc
      continue
    }
    if (SECRET_KEY.test(e.key) && e.value) return masked(e.key)
    // `credential.helper = "!f() { echo password=…; }; f"`: the helper carries the secret itself
    if (/^credential\..*helper$|^credential\.helper$/i.test(e.key) && e.value !== null && HELPER_SECRET.test(e.value)) return `${masked(e.key)} (a helper that holds its password)`
    if (PROGRAM_KEY.test(e.key) && e.value !== null && programSecret(e.key, e.value)) return `${masked(e.key)} (a program line that holds a secret)`
    if (USER_KEY.test(e.key) && e.value !== null && tokenLike(e.value)) return `${masked(e.key)} (a token as the user name)`
    if (URL_SECRET.test(e.key) || (e.value !== null && URL_SECRET.test(e.value))) return `${masked(e.key)} (a URL with a password)`
    if (tokenUser(e.key) || (e.value !== null && tokenUser(e.value))) return `${masked(e.key)} (a URL with a token as its user)`
  }
  return undefined
}


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

/** A credential in the config git is given through the environment: GIT_CONFIG_COUNT's
 *  GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n pairs, GIT_CONFIG_PARAMETERS (`git -c` of a parent git). */
export function envConfigCredential(env: Record<string, string | undefined>): string | undefined {
  const count = Number(env.GIT_CONFIG_COUNT ?? 0)
  for (let i = 0; Number.isInteger(count) && i < Math.min(count, 1000); i++) {
    const key = env[`GIT_CONFIG_KEY_${i}`] ?? ""
    const value = env[`GIT_CONFIG_VALUE_${i}`] ?? ""
    if ((SECRET_KEY.test(key) && value) || URL_SECRET.test(key) || URL_SECRET.test(value) || tokenUser(key) || tokenUser(value) || HELPER_SECRET.test(value)) return `GIT_CONFIG_KEY_${i} ${masked(key)}`
  }
  const params = env.GIT_CONFIG_PARAMETERS
  if (params && (URL_SECRET.test(params) || tokenUser(params) || /extraheader|password|token/i.test(params))) return "GIT_CONFIG_PARAMETERS (a line with a credential)"
  return undefined
}
