// A glob in a path is matched conservatively: if it could match a sensitive name (a shell rc file, a
// secret location, a protected directory, a system directory), the concrete paths it could be are
// judged too, so `cat ~/.ss*/id_ed25519` is what `cat ~/.ssh/id_ed25519` is. `*` matches dot-files
// here (shopt -s dotglob could be on). Pure.

// names that matter to rc-file checks, risk.paths secrets, workspace.protected and system paths
const SENSITIVE = [
  ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".bash_aliases", ".profile", ".zshrc", ".zprofile", ".zshenv", ".zlogin",
  ".zlogout", ".kshrc", ".cshrc", ".tcshrc", ".inputrc", ".config", "fish", "config.fish",
  ".ssh", "id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", "id_rsa.pub", "authorized_keys", "known_hosts", "config", ".aws", "credentials",
  ".gnupg", ".netrc", ".npmrc", ".pypirc", ".git-credentials", ".kube", ".docker", "config.json", ".env", ".env.local", "key.pem",
  ".git", ".ccode", ".claude", ".gemini", "settings.json", "settings.local.json", "hooks", "policy.yaml",
  "etc", "boot", "usr", "bin", "sbin", "lib", "var", "passwd", "shadow", "sudoers", "hosts", "motd", "crontab",
]
const MAX = 32
const cache = new Map<string, RegExp>()

const results = new Map<string, string[]>()
const NONE: string[] = []

/**
 * The sensitive concrete paths an absolute glob path could match (not including the glob itself).
 * `broad: false` leaves out a last segment that is only wildcards (`dir/*`, `~/.*`): every name matches
 * it, and the glob-free directory already says where the command reaches (`~/.ssh/*` is under ~/.ssh).
 */
export function globCandidates(abs: string, broad = true): string[] {
  if (!/[*?[]/.test(abs)) return NONE
  if (!broad && /\/[.*?]*[*?][.*?]*$/.test(abs) && !/[*?[]/.test(abs.slice(0, abs.lastIndexOf("/")))) return NONE
  let found = results.get(abs)
  if (!found) {
    found = candidates(abs)
    if (results.size > 1024) results.clear()
    results.set(abs, found)
  }
  return found
}

function candidates(abs: string): string[] {
  let paths = [""]
  for (const seg of abs.split("/").slice(1)) {
    const names = /[*?[]/.test(seg) ? matching(seg) : [seg]
    if (!names.length) return NONE // this segment can match nothing sensitive: neither can the path
    const next: string[] = []
    for (const p of paths) for (const n of names) if (next.length < MAX) next.push(`${p}/${n}`)
    paths = next
  }
  return paths
}

// the literal text before the first and after the last glob character narrows the names cheaply
// (case ignored: a case-insensitive file system matches ~/.SS*/ against ~/.ssh)
function matching(seg: string): string[] {
  const first = seg.search(/[*?[]/)
  const last = Math.max(seg.lastIndexOf("*"), seg.lastIndexOf("?"), seg.lastIndexOf("]"))
  const head = seg.slice(0, first).toLowerCase()
  const tail = seg.slice(last + 1).toLowerCase()
  const out: string[] = []
  for (const n of SENSITIVE) if (n.startsWith(head) && n.endsWith(tail) && segmentRegex(seg).test(n)) out.push(n)
  return out
}

export function segmentRegex(seg: string): RegExp {
  let re = cache.get(seg)
  if (re) return re
  let src = ""
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!
    if (c === "*") src += ".*"
    else if (c === "?") src += "."
    else if (c === "[") {
      const end = seg.indexOf("]", i + 2)
      if (end < 0) src += "\\["
      else {
        const body = seg.slice(i + 1, end).replace(/^[!^]/, "^").replace(/\\/g, "\\\\")
        src += `[${body}]`
        i = end
      }
    } else src += c.replace(/[.+^${}()|\\]/g, "\\$&")
  }
  try {
    re = new RegExp(`^${src}$`, "si")
  } catch {
    re = /[^]*/ // a class we cannot read could match anything
  }
  if (cache.size > 1024) cache.clear()
  cache.set(seg, re)
  return re
}
