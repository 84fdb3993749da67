// The key files ssh settings name: `IdentityFile`/`CertificateFile` in ~/.ssh/config, /etc/ssh/ssh_config and
// the files their Include lines name, and the `-i K`, `-o IdentityFile=K` and `-F CONFIG` of an ssh command line
// (git's core.sshCommand, GIT_SSH_COMMAND). ssh expands `%` tokens and `${VAR}` in a key's name: `%d` is the
// home, a `${VAR}` the environment gives is its value, and every other token (`%u`, `%h`, `%r`, `%i`...) can be
// any name, so the file names such a value can stand for are a pattern: the files on disk it matches are named,
// and a read is tested against it. Side effects: stat, read a config, list a folder.
import { readdirSync, statSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { readRegular } from "../base/readsafe.ts"
import { globSource } from "./glob.ts"

const MAX_BYTES = 256 * 1024
const MAX_DEPTH = 10

/** The named files (path -> why) and the patterns (a `%h` in a name: any host). */
export interface SshNamed {
  named: Map<string, string>
  patterns: { match: RegExp; why: string }[]
  env?: Record<string, string | undefined>
}

/** Read an ssh config (and what it includes) for the key files it names. */
export function sshConfigNamed(file: string, home: string, base: string, out: SshNamed, seen: Set<string>, depth = 0): void {
  if (depth > MAX_DEPTH || seen.has(file)) return
  seen.add(file)
  const src = text(file)
  if (src === undefined) return
  for (const line of src.split("\n")) {
    // `Include a b*`: more config files (a glob; relative ones from ~/.ssh, or /etc/ssh for the system's)
    const inc = /^\s*Include\s*(?:=\s*|\s+)(.+)$/i.exec(line)
    if (inc) {
      for (const one of inc[1]!.trim().split(/\s+/)) for (const f of sshIncluded(one.replace(/^"|"$/g, ""), home, base)) sshConfigNamed(f, home, base, out, seen, depth + 1)
      continue
    }
    const m = /^\s*(IdentityFile|CertificateFile)\s*(?:=\s*|\s+)("[^"]*"|\S+)/i.exec(line)
    if (m) keyNamed(m[2]!.replace(/^"|"$/g, ""), home, `the ${m[1]} ${file} names`, out)
    // a ProxyCommand/LocalCommand/KnownHostsCommand that runs ssh with its own key (`ssh -i ~/k/jump -W %h:%p`)
    const run = /^\s*(ProxyCommand|LocalCommand|KnownHostsCommand)\s*(?:=\s*|\s+)(.+)$/i.exec(line)
    if (run) sshCommandNamed(run[2]!, home, `${run[1]} names in ${file}`, out, seen, depth)
  }
}

/** The keys an ssh command line names (`ssh -i K`, `-iK`, `-o IdentityFile=K`, `-oCertificateFile K`), and the
 *  config file its `-F` gives, read for its own. */
export function sshCommandNamed(command: string, home: string, why: string, out: SshNamed, seen = new Set<string>(), depth = 0): void {
  const words = command.trim().split(/\s+/).map((w) => w.replace(/^["']|["']$/g, ""))
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!
    const flag = /^-([iFo])(.*)$/.exec(w)
    if (!flag) continue
    const value = flag[2] || words[++i]
    if (!value) continue
    if (flag[1] === "i") keyNamed(value, home, `the key ${why}`, out)
    else if (flag[1] === "F") sshConfigNamed(place(value, home, home) ?? value, home, `${home}/.ssh`, out, seen, depth + 1)
    else {
      // -o takes `Name=value` or `Name value` in one word (or the name, then the value in the next)
      const o = /^(IdentityFile|CertificateFile)(?:\s*=\s*|\s+)?(.*)$/i.exec(value)
      const v = o ? o[2] || (value.includes("=") ? "" : words[++i]) : undefined
      if (o && v) keyNamed(v, home, `the ${o[1]} ${why}`, out)
    }
  }
}

// one key's name as ssh expands it: a plain name is named with its `.pub`; one holding a token is a pattern
function keyNamed(raw: string, home: string, why: string, out: SshNamed): void {
  let wild = false
  const value = raw.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|%(.)/g, (all, name: string | undefined, token: string | undefined) => {
    if (name !== undefined) {
      const v = out.env?.[name]
      if (v !== undefined) return v
    } else if (token === "d") return home
    else if (token === "%") return "%"
    wild = true
    return "\0"
  })
  const p = place(value, home, home)
  if (!p) return
  if (!wild) {
    out.named.set(p, why)
    out.named.set(`${p}.pub`, `the public half of ${why}`)
    return
  }
  const source = p.split("\0").map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[^/]*")
  const match = new RegExp(`^${source}(?:\\.pub)?$`)
  out.patterns.push({ match, why: `a name ${why} (${raw}: ssh fills in the % tokens and variables)` })
  // the files on disk the pattern matches, when its folder is static
  const dir = dirname(p)
  if (dir.includes("\0")) return
  try {
    for (const n of readdirSync(dir).slice(0, 2000)) if (match.test(`${dir}/${n}`)) out.named.set(`${dir}/${n}`, `a file ${why} (${raw})`)
  } catch {
    // no such folder: the pattern alone
  }
}

// a pathname value: `~/` from the home, a relative one from `from`
export function place(value: string, home: string, from: string): string | undefined {
  const v = value.trim().replace(/^["']|["']$/g, "")
  if (!v) return undefined
  if (v.startsWith("~/")) return `${home}${v.slice(1)}`
  // `~user/x`: that account's home (ssh and git expand it)
  const user = /^~([^/]+)(\/.*)?$/.exec(v)
  if (user) {
    const dir = accountHome(user[1]!)
    return dir ? `${dir}${user[2] ?? ""}` : undefined
  }
  return resolve(from, v)
}

let accounts: Map<string, string> | undefined
function accountHome(name: string): string | undefined {
  if (!accounts) {
    accounts = new Map()
    for (const line of (text("/etc/passwd") ?? "").split("\n")) {
      const f = line.split(":")
      if (f[0] && f[5]?.startsWith("/")) accounts.set(f[0], f[5])
    }
  }
  return accounts.get(name)
}

// the files an ssh Include names: a glob in its last part is matched against the folder's names
export function sshIncluded(value: string, home: string, base: string): string[] {
  const path = value.startsWith("~/") ? `${home}${value.slice(1)}` : value.startsWith("/") ? value : `${base}/${value}`
  if (!/[*?[]/.test(path)) return [path]
  const dir = dirname(path)
  if (/[*?[]/.test(dir)) return []
  const match = new RegExp(`^${globSource(path.slice(dir.length + 1), "stop")}$`)
  try {
    return readdirSync(dir).filter((n) => match.test(n)).sort().slice(0, 200).map((n) => `${dir}/${n}`)
  } catch {
    return []
  }
}

export function text(file: string): string | undefined {
  try {
    if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return undefined
    return readRegular(file, MAX_BYTES)
  } catch {
    return undefined
  }
}
