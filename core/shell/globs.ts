// A glob in a path is matched conservatively: if it could match a sensitive name (a shell rc file, a
// secret location, a protected directory, a system directory), the concrete paths it could be are
// judged too, so `cat ~/.ss*/id_ed25519` is what `cat ~/.ssh/id_ed25519` is. `*` matches dot-files
// here (shopt -s dotglob could be on). Pure.
import { BUILD_CREDENTIAL_PATHS, CREDENTIAL_PATHS } from "../base/secrets.ts"

// names that matter to rc-file checks, risk.paths secrets, workspace.protected and system paths; every
// name on the way to a credential location (core/base/secrets.ts) is one
// (built on first use: most commands have no glob in a path)
let sensitive: string[] | undefined
const SENSITIVE = (): string[] =>
  (sensitive ??= [...new Set([
    ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".bash_aliases", ".profile", ".zshrc", ".zprofile", ".zshenv", ".zlogin",
    ".zlogout", ".kshrc", ".cshrc", ".tcshrc", ".inputrc", ".config", "fish", "config.fish",
    ".ssh", "id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", "id_rsa.pub", "authorized_keys", "known_hosts", "config", ".aws", "credentials",
    ".gnupg", ".netrc", ".npmrc", ".pypirc", ".git-credentials", ".kube", ".docker", "config.json", ".env", ".env.local", "key.pem",
    ".git", ".ccode", ".claude", ".gemini", "settings.json", "settings.local.json", "hooks", "policy.yaml", "hosts.yml",
    "etc", "boot", "usr", "bin", "sbin", "lib", "var", "passwd", "shadow", "sudoers", "hosts", "motd", "crontab",
    ...[...CREDENTIAL_PATHS, ...BUILD_CREDENTIAL_PATHS].flatMap((p) => p.split("/").filter((n) => n && n !== "~")),
  ])])
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
  for (const n of SENSITIVE()) if (n.startsWith(head) && n.endsWith(tail) && segmentRegex(seg).test(n)) out.push(n)
  return out
}

/** A glob segment as a regex over a file name (case ignored). Over-approximates bash in any locale:
 *  `?` and a class match one character as bash counts it, a code point (UTF-8) or a byte (LANG=C), so a
 *  non-ASCII character may take one to four of them; POSIX classes, equivalence classes and collating
 *  symbols (`[[:alpha:]]`, `[[=a=]]`, `[[.a.]]`) are taken as any one character. */
export function segmentRegex(seg: string): RegExp {
  let re = cache.get(seg)
  if (re) return re
  let src = ""
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!
    if (c === "*") src += "[^]*"
    else if (c === "?") src += ONE
    else if (c === "[") {
      const b = readBracket(seg, i)
      if (!b) src += "\\["
      else {
        src += b.any ? ONE : b.wide ? `(?:[${b.body}]|${WIDE})` : `[${b.body}]`
        i = b.end
      }
    } else if (c === "\\" && i + 1 < seg.length) src += seg[++i]!.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")
    else src += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")
  }
  try {
    re = new RegExp(`^${src}$`, "i")
  } catch {
    re = /[^]*/ // a class we cannot read could match anything
  }
  if (cache.size > 1024) cache.clear()
  cache.set(seg, re)
  return re
}

// one character as bash counts it: an ASCII one, or a run of non-ASCII UTF-16 units (a code point, or
// part of one when bash counts bytes: an empty run right after a non-ASCII unit)
const WIDE = "[\\u0080-\\uffff]+|(?<=[\\u0080-\\uffff])"
const ONE = `(?:[\\x00-\\x7f]|${WIDE})`

export interface Bracket {
  /** index of the closing `]` */
  end: number
  /** the body of a JS character class (`^` first when negated) */
  body: string
  /** holds a POSIX class, equivalence class or collating symbol: taken as any one character */
  any: boolean
  /** negated or holding non-ASCII: may match a non-ASCII character, counted as bash does */
  wide: boolean
}

/** The bracket expression opening at `seg[i]` as bash reads it (`]` first is a member, `[:alpha:]`
 *  inside is one unit, `\\` quotes the next character); undefined when it does not close (a literal `[`). */
export function readBracket(seg: string, i: number): Bracket | undefined {
  let j = i + 1
  const negated = seg[j] === "!" || seg[j] === "^"
  if (negated) j++
  let body = negated ? "^" : ""
  let any = false
  for (let first = true; j < seg.length; first = false, j++) {
    const c = seg[j]!
    if (c === "]" && !first) return { end: j, body, any, wide: negated || /[^\x00-\x7f]/.test(body) }
    if (c === "[" && (seg[j + 1] === ":" || seg[j + 1] === "=" || seg[j + 1] === ".")) {
      const close = seg.indexOf(seg[j + 1]! + "]", j + 2)
      if (close >= 0) {
        any = true
        j = close + 1
        continue
      }
    }
    if (c === "\\" && j + 1 < seg.length) {
      const n = seg[++j]!
      body += /[A-Za-z0-9]/.test(n) ? n : "\\" + n
    } else body += c === "]" || c === "[" || c === "^" || c === "\\" ? "\\" + c : c
  }
  return undefined
}
