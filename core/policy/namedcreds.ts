// Credential files named by configuration rather than by their own name: git's `credential.helper =
// store --file=F` (the passwords in clear), `http.cookieFile` (an auth cookie), `http.sslKey`/`sslCert`
// (a TLS client key), a file a config includes that holds a credential itself, and ssh's `IdentityFile`
// in ~/.ssh/config. A read of the file such a setting names is
// a read of a credential, whatever the file is called. The user's git configs (~/.gitconfig, the XDG one,
// the files they include), the system's (GIT_CONFIG_SYSTEM), GIT_CONFIG_GLOBAL, the GIT_CONFIG_KEY_n settings
// and the workspace's .git/config are read, and ~/.ssh/config and /etc/ssh/ssh_config with the files
// their Include lines name. Side effects: stat, read, list a folder an Include globs.
import { dirname } from "node:path"
import { parseConfig } from "../base/gitconfig.ts"
import { configFiles } from "../base/gitincludes.ts"
import { gitConfigCredential } from "../base/gitcreds.ts"
import { realpathKnown } from "../base/paths.ts"
import { globSource } from "./glob.ts"
import { toolNamed } from "./toolnamed.ts"
import { place, sshCommandNamed, sshConfigNamed, sshIncluded, text, type SshNamed } from "./sshnamed.ts"
import type { CallPath } from "./types.ts"
import { movesStores, namedByVariable } from "../shell/relocated.ts"
import type { Raised } from "./ondisk.ts"

const MAX_DEPTH = 10
const FILE_KEY = /^http\.(?:.*\.)?(cookiefile|sslkey|sslcert|proxysslkey|proxysslcert)$/i
const HELPER_KEY = /^credential\.(?:.*\.)?helper$/i

/** The files the settings name, read once when first asked (a walk asks for each file it meets). */
export function namedFiles(home: string, workspace: string, gitDirs: readonly string[], env: Record<string, string | undefined> | undefined): () => SshNamed {
  let found: SshNamed | undefined
  return () => (found ??= readNamed(home, workspace, gitDirs, env))
}

/** The judge of what the disk lookups meet (a walk's files, a glob's matches), widened to the files the
 *  settings name and those a credential variable of `env` names (raised here: the analysis judged only the
 *  paths the command names): `grep -r x ~/keys` with `IdentityFile ~/keys/k` reads the key. */
export function namedJudge(judged: (path: string) => boolean, names: () => SshNamed, env: Record<string, string | undefined> | undefined, raised: Raised): (path: string) => boolean {
  const byVariable = env !== undefined && movesStores(env)
  return (path) => {
    if (judged(path)) return true
    const n = names()
    if (n.named.has(path) || n.patterns.some((x) => x.match.test(path))) return true
    const why = byVariable ? namedByVariable("a recursive read", [path], env!) : undefined
    if (!why) return false
    if (!raised.some((r) => r.reason === why)) raised.push({ risk: "high", reason: why })
    return true
  }
}

function readNamed(home: string, workspace: string, gitDirs: readonly string[], env: Record<string, string | undefined> | undefined): SshNamed {
  const named = new Map<string, string>()
  const ssh: SshNamed = { named, patterns: [], env }
  if (!home) return ssh
  const xdg = env?.XDG_CONFIG_HOME ? `${env.XDG_CONFIG_HOME}/git/config` : `${home}/.config/git/config`
  // the system's config (GIT_CONFIG_SYSTEM), GIT_CONFIG_GLOBAL beside ~/.gitconfig, the repository's
  const files = [`${home}/.gitconfig`, xdg, `${workspace}/.git/config`, ...gitDirs.map((d) => `${d}/config`), ...configFiles(workspace, home, gitDirs, env ?? {})]
  for (const f of new Set(files)) gitNamed(f, home, ssh, 0, new Set())
  envNamed(env, home, ssh)
  const seen = new Set<string>()
  sshConfigNamed(`${home}/.ssh/config`, home, `${home}/.ssh`, ssh, seen)
  sshConfigNamed("/etc/ssh/ssh_config", home, "/etc/ssh", ssh, seen)
  gcloudNamed(env?.CLOUDSDK_CONFIG || `${home}/.config/gcloud`, home, named)
  toolNamed(home, env, named)
  // the files as the disk has them (a read's path is a real path: links followed)
  for (const [p, why] of [...named]) {
    const real = realpathKnown(p).path
    if (real !== p) named.set(real, why)
  }
  return ssh
}

/** Raise each read of a file a git or ssh setting names as a credential. */
export function configuredCredentials(paths: readonly CallPath[], home: string, workspace: string, gitDirs: readonly string[], env: Record<string, string | undefined> | undefined, raised: Raised, names = namedFiles(home, workspace, gitDirs, env)): void {
  const reads = paths.filter((p) => p.access === "read")
  if (!reads.length || !home) return
  const ssh = names()
  const named = ssh.named
  if (!named.size && !ssh.patterns.length) return
  for (const p of reads) {
    // a glob (`cat ~/myc*`) reads every file it matches: each named file it could match is read
    const match = p.glob ? new RegExp(`^${globSource(p.path, "stop")}$`) : undefined
    const hit = match ? [...named.keys()].find((n) => match.test(n)) : named.has(p.path) ? p.path : undefined
    if (hit) {
      raised.push({ risk: "high", reason: `${hit} is ${named.get(hit)}: a credential file (a read sends it to the model)` })
      return
    }
    // a key named with ssh's tokens (`~/keys/id-%h`): any file the name can stand for
    const pattern = match ? undefined : ssh.patterns.find((x) => x.match.test(p.path))
    if (pattern) {
      raised.push({ risk: "high", reason: `${p.path} can be ${pattern.why}: a credential file (a read sends it to the model)` })
      return
    }
  }
}

function gitNamed(file: string, home: string, ssh: SshNamed, depth: number, seen: Set<string>): void {
  const named = ssh.named
  if (depth > MAX_DEPTH || seen.has(file)) return
  seen.add(file)
  const src = text(file)
  if (src === undefined) return
  const entries = parseConfig(src)
  if (typeof entries === "string") return
  for (const e of entries) {
    if (e.value === null) continue
    if (/^include(?:if\..*)?\.path$/i.test(e.key)) {
      const inc = place(e.value, home, dirname(file))
      if (!inc) continue
      // an included file that holds a credential itself (actions/checkout's includeIf'd file with the
      // token's extraheader): reading it by any name is reading the credential
      const key = seen.has(inc) ? undefined : gitConfigCredential(inc, home)
      if (key) named.set(inc, `a git config file ${file} includes, holding a credential (${key})`)
      gitNamed(inc, home, ssh, depth + 1, seen)
      continue
    }
    setting(e.key, e.value, home, file, ssh)
  }
}

// one setting that names a credential file: http.sslKey and the like, credential-store's --file
function setting(key: string, value: string, home: string, file: string, ssh: SshNamed): void {
  const named = ssh.named
  if (FILE_KEY.test(key)) {
    const p = place(value, home, home)
    if (p) named.set(p, `the file ${key} names in ${file}`)
    return
  }
  // core.sshCommand = ssh -i KEY (-o IdentityFile=KEY, -F CONFIG): the key git's ssh uses
  if (/^core\.sshcommand$/i.test(key)) {
    sshCommandNamed(value, home, `${key} names in ${file}`, ssh)
    return
  }
  // user.signingKey with ssh signing: the path of a private key (a `key::` literal is the key itself)
  if (/^user\.signingkey$/i.test(key) && /^(?:~\/|\/|\.\.?\/)/.test(value.trim())) {
    const p = place(value, home, home)
    if (p) named.set(p, `the signing key ${key} names in ${file}`)
    return
  }
  if (!HELPER_KEY.test(key)) return
  // git-credential-netrc's `-f F`/`--file F`, and the files a shell helper (`!f() { cat ~/tok; }; f`) names
  const netrc = /(?:^|[\s/!])(?:git[- ])?(?:credential-)?netrc\b.*?(?:-f|--file)(?:=|\s+)(\S+)/.exec(value)
  const netrcFile = netrc ? place(netrc[1]!, home, home) : undefined
  if (netrcFile) named.set(netrcFile, `git-credential-netrc's file (${key} in ${file})`)
  if (value.trim().startsWith("!")) {
    for (const m of value.matchAll(/(?:^|[\s<'"=])((?:~\/|\/)[^\s;|&'"<>()]+)/g)) {
      const p = place(m[1]!, home, home)
      if (p && !/^\/(?:usr|bin|sbin|etc|dev|proc)\//.test(p)) named.set(p, `a file the credential helper ${key} in ${file} reads`)
    }
  }
  // `store --file=F`, `store --file F`, `!git credential-store --file=F`, `/usr/lib/git-core/git-credential-store
  // --file F` (git-credential-store); `cache` keeps its secrets in memory
  const s = /(?:^|[\s/!])(?:git[- ])?(?:credential-)?store\b.*?--file(?:=|\s+)(\S+)/.exec(value)
  const p = s ? place(s[1]!, home, home) : undefined
  if (p) named.set(p, `git credential-store's file (${key} in ${file})`)
}

// GIT_CONFIG_COUNT/GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n: settings git takes from the environment
function envNamed(env: Record<string, string | undefined> | undefined, home: string, ssh: SshNamed): void {
  // GIT_SSH_COMMAND: the ssh command line git runs, as core.sshCommand
  if (env?.GIT_SSH_COMMAND) sshCommandNamed(env.GIT_SSH_COMMAND, home, "GIT_SSH_COMMAND names", ssh)
  const count = Math.min(Number(env?.GIT_CONFIG_COUNT ?? 0) || 0, 100)
  for (let i = 0; i < count; i++) {
    const key = env?.[`GIT_CONFIG_KEY_${i}`]
    const value = env?.[`GIT_CONFIG_VALUE_${i}`]
    if (key && value) setting(key, value, home, "the environment (GIT_CONFIG_KEY_n)", ssh)
  }
}

// gcloud's `credential_file_override = PATH` in a configuration (configurations/config_NAME)
function gcloudNamed(dir: string, home: string, named: Map<string, string>): void {
  for (const f of sshIncluded("config_*", home, `${dir}/configurations`)) {
    const src = text(f)
    const m = src === undefined ? null : /^\s*credential_file_override\s*=\s*(\S+)/m.exec(src)
    const p = m ? place(m[1]!, home, home) : undefined
    if (p) named.set(p, `the credential file ${f} names (credential_file_override)`)
  }
}
