// Credential files named by configuration rather than by their own name: git's `credential.helper =
// store --file=F` (the passwords in clear), `http.cookieFile` (an auth cookie), `http.sslKey`/`sslCert`
// (a TLS client key), a file a config includes that holds a credential itself, and ssh's `IdentityFile`
// in ~/.ssh/config. A read of the file such a setting names is
// a read of a credential, whatever the file is called. The user's git configs (~/.gitconfig, the XDG one,
// the files they include) and the workspace's .git/config are read, and ~/.ssh/config. Side effects: stat, read.
import { statSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { parseConfig } from "../base/gitconfig.ts"
import { gitConfigCredential } from "../base/gitcreds.ts"
import { readRegular } from "../base/readsafe.ts"
import { realpathKnown } from "../base/paths.ts"
import { globSource } from "./glob.ts"
import type { CallPath } from "./types.ts"
import type { Raised } from "./ondisk.ts"

const MAX_BYTES = 256 * 1024
const MAX_DEPTH = 10
const FILE_KEY = /^http\.(?:.*\.)?(cookiefile|sslkey|sslcert)$/i
const HELPER_KEY = /^credential\.(?:.*\.)?helper$/i

/** Raise each read of a file a git or ssh setting names as a credential. */
export function configuredCredentials(paths: readonly CallPath[], home: string, workspace: string, gitDirs: readonly string[], env: Record<string, string | undefined> | undefined, raised: Raised): void {
  const reads = paths.filter((p) => p.access === "read")
  if (!reads.length || !home) return
  const named = new Map<string, string>()
  const xdg = env?.XDG_CONFIG_HOME ? `${env.XDG_CONFIG_HOME}/git/config` : `${home}/.config/git/config`
  for (const f of [`${home}/.gitconfig`, xdg, `${workspace}/.git/config`, ...gitDirs.map((d) => `${d}/config`)]) gitNamed(f, home, named, 0, new Set())
  sshNamed(`${home}/.ssh/config`, home, named)
  if (!named.size) return
  // the files as the disk has them (a read's path is a real path: links followed)
  for (const [p, why] of [...named]) {
    const real = realpathKnown(p).path
    if (real !== p) named.set(real, why)
  }
  for (const p of reads) {
    // a glob (`cat ~/myc*`) reads every file it matches: each named file it could match is read
    const match = p.glob ? new RegExp(`^${globSource(p.path, "stop")}$`) : undefined
    const hit = match ? [...named.keys()].find((n) => match.test(n)) : named.has(p.path) ? p.path : undefined
    if (hit) {
      raised.push({ risk: "high", reason: `${hit} is ${named.get(hit)}: a credential file (a read sends it to the model)` })
      return
    }
  }
}

function text(file: string): string | undefined {
  try {
    if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return undefined
    return readRegular(file, MAX_BYTES)
  } catch {
    return undefined
  }
}

// a pathname value as git expands it: `~/` from the home, a relative one from the including file's folder
function place(value: string, home: string, from: string): string | undefined {
  const v = value.trim().replace(/^["']|["']$/g, "")
  if (!v) return undefined
  if (v.startsWith("~/")) return `${home}${v.slice(1)}`
  if (v.startsWith("~")) return undefined
  return resolve(from, v)
}

function gitNamed(file: string, home: string, named: Map<string, string>, depth: number, seen: Set<string>): void {
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
      gitNamed(inc, home, named, depth + 1, seen)
      continue
    }
    const m = FILE_KEY.exec(e.key)
    if (m) {
      const p = place(e.value, home, home)
      if (p) named.set(p, `the file ${e.key} names in ${file}`)
      continue
    }
    if (HELPER_KEY.test(e.key)) {
      // `store --file=F`, `store --file F` (git-credential-store); `cache` keeps its secrets in memory
      const s = /(?:^|\s)(?:git-credential-)?store\b.*?--file(?:=|\s+)(\S+)/.exec(e.value)
      const p = s ? place(s[1]!, home, home) : undefined
      if (p) named.set(p, `git credential-store's file (${e.key} in ${file})`)
    }
  }
}

function sshNamed(file: string, home: string, named: Map<string, string>): void {
  const src = text(file)
  if (src === undefined) return
  for (const line of src.split("\n")) {
    const m = /^\s*(IdentityFile|CertificateFile)\s*(?:=\s*|\s+)("[^"]*"|\S+)/i.exec(line)
    if (!m) continue
    const value = m[2]!.replace(/^"|"$/g, "").replace(/%d/g, home)
    if (value.includes("%")) continue
    const p = place(value, home, home)
    if (p) {
      named.set(p, `the IdentityFile ${file} names`)
      named.set(`${p}.pub`, `the public half of the IdentityFile ${file} names`)
    }
  }
}
