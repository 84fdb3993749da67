// Path resolution and the directories a script may be in after `cd`. No fs of its own: `..` after a
// name is resolved through the caller's realpath when one is given (withPhysical), else lexically;
// paths resolve against the cwd candidates the walk carries.
import { posix } from "node:path"
import { expandHome, isInside } from "../base/paths.ts"
import type { Cwd } from "./scope.ts"
import type { Word } from "./word.ts"

const MAX_CANDIDATES = 8

export function joinCwd(a: Cwd, b: Cwd): Cwd {
  if (a === null || b === null) return null
  if (a === b) return a
  const out = [...a]
  for (const d of b) if (!out.includes(d)) out.push(d)
  return out.length > MAX_CANDIDATES ? null : out
}

/** `cd DIR` with a literal DIR moves relative paths; anything else (`cd -`, `cd $X`) makes them unknown. */
export function changeDir(cwd: Cwd, args: Word[], home: string): Cwd {
  const target = args.find((a) => !(a.value !== undefined && /^-[LPe@]+$/.test(a.value)) && a.value !== "--")
  if (!target) return [home]
  if (target.value === undefined || target.value === "-" || target.glob) return null
  // bash's cd is logical (`cd docs/..` is where it started) unless -P or `set -P`, then physical like any
  // other path: both may hold
  const paths = resolveWord(target, cwd, home)
  if (paths === null || !physical || !target.value.includes("..")) return paths
  return joinCwd(paths, withPhysical(undefined, () => resolveWord(target, cwd, home)))
}

/**
 * What a leading `~` stands for, as bash expands it: `~` and `~/x` the home directory, `~+` the
 * current directory (one per cwd candidate), `~-` the previous one and `~N`, `~+N`, `~-N` the directory
 * stack (unknown here: the caller must not drop such a path), `~NAME` that user's
 * home (the current user's home when NAME is its last segment, else a sibling of it; /root for root).
 * Returns the candidate bases and the rest of the path; null when the base cannot be known.
 */
function tildeBase(v: string, cwd: Cwd, home: string): { bases: string[]; rest: string } | null {
  const slash = v.indexOf("/")
  const prefix = slash < 0 ? v.slice(1) : v.slice(1, slash)
  const rest = slash < 0 ? "" : v.slice(slash)
  if (prefix === "") return { bases: [home], rest }
  if (prefix === "+" || prefix === "0" || prefix === "+0") return cwd === null ? null : { bases: cwd, rest }
  // the previous directory and the directory stack (`~-`, `~1`, `~+2`, `~-1`): not known here
  if (/^[+-]?\d*$/.test(prefix)) return null
  if (!/^[A-Za-z0-9._-]+$/.test(prefix)) return { bases: [], rest: v } // not a tilde prefix bash expands
  if (prefix === home.slice(home.lastIndexOf("/") + 1)) return { bases: [home], rest }
  if (prefix === "root") return { bases: ["/root"], rest }
  // getpwnam's answer is not known here: beside the caller's home, and where accounts' homes usually are
  const sibling = posix.join(posix.dirname(home), prefix)
  const usual = `/home/${prefix}`
  return { bases: sibling === usual ? [sibling] : [sibling, usual], rest }
}

/**
 * `~+` and `~-` are $PWD and $OLDPWD as the script set them (an assignment, or a `cd` before): the word
 * with that value, or an unknown word when the script set it to something not known. `value` gives a
 * script variable's value, "unset" when the script never set it (then `~+` is the cwd candidates and
 * `~-` is not known: resolveWord). `dirs`: the known stack entries, `~1` first.
 */
export function dirTilde(w: Word, value: (name: string) => string | undefined, dirs: readonly string[] = []): Word {
  if (!w.tilde || w.value === undefined) return w
  // `~N`/`~+N`: the directory stack's entries the script made known (`pushd -n DIR`)
  const n = /^~\+?([1-9]\d*)(?=\/|$)/.exec(w.value)
  const entry = n ? dirs[Number(n[1]) - 1] : undefined
  if (entry !== undefined) return { ...w, value: entry + w.value.slice(n![0].length), tilde: false }
  const m = /^~([+-]0?|0)(?=\/|$)/.exec(w.value)
  if (!m || m[1] === "-0") return w
  const base = value(m[1]!.startsWith("-") ? "OLDPWD" : "PWD")
  if (base === "unset") return w
  if (base === undefined || !base.startsWith("/")) return { ...w, value: undefined, expanded: true, hollow: true, tilde: false }
  return { ...w, value: base + w.value.slice(m[0].length), tilde: false }
}

/** The word as a path: `~` and `~/x` are the home directory; other tilde forms stay as written. */
export function expandTilde(word: Word, home: string): string {
  const v = word.value ?? ""
  return word.tilde ? expandHome(v, home) : v
}

/** Absolute forms of a path word, one per cwd candidate; null when the cwd is unknown and the path is relative. */
export function resolveWord(word: Word, cwd: Cwd, home: string): string[] | null {
  const v = word.value ?? ""
  if (word.tilde && v.startsWith("~") && v !== "~" && !v.startsWith("~/")) {
    const t = tildeBase(v, cwd, home)
    if (t === null) return null
    if (t.bases.length) return t.bases.map((b) => normalise(b + t.rest))
  }
  const p = expandTilde(word, home)
  if (p.startsWith("/proc/")) return procPath(p, cwd)
  if (/^\/dev\/fd\/+\.\.(?:\/|$)/.test(p)) return devFdParent(p, cwd)
  if (p.startsWith("/")) return [normalise(p)]
  if (cwd === null) return null
  // most operands are plain relative names: join without the general resolver
  const out: string[] = []
  if (p && !p.startsWith(".") && !p.includes("/.") && !p.includes("//") && !p.endsWith("/")) for (const d of cwd) out.push((d === "/" ? "/" : d + "/") + p)
  else for (const d of cwd) out.push(normalise(d === "/" ? "/" + p : `${d}/${p}`))
  return out
}

// /proc/self/root is the process's root directory and /proc/self/cwd its current one (magic links the
// kernel follows): /proc/self/root/home/dev/.bashrc is ~/.bashrc. Another process's root is taken to be
// "/" too; its cwd is not known. The process part may be any name, a glob among them
// (/proc/[0-9]*/root/home/dev/.aws/credentials matches the shell's own pid and was judged a /proc read).
const PROC_LINK = /^\/proc\/(self|thread-self|[^/]+)(?:\/task\/[^/]+)?\/(root|cwd)(?=\/|$)/

/** A path through another process's directory (/proc/PID/cwd, /proc/PID/root, a glob as PID): what is
 *  below it is not known before the command runs (another root may be a container's). */
export function otherProcess(p: string): boolean {
  const m = PROC_LINK.exec(p)
  return m !== null && m[1] !== "self" && m[1] !== "thread-self"
}

/**
 * A /proc path whose process is named only at run time (`/proc/$PPID/environ`, `/proc/$(pgrep x)/cwd/f`):
 * it can be any process's, so it is judged as the pattern over all of them (`/proc/ANY/environ`, with a
 * `*` as ANY), which the path rules match and a root or cwd below it places as another process's.
 * undefined when more than the process part is unknown.
 */
export function procPattern(word: Word): string | undefined {
  if (word.value !== undefined && !word.hollow) return undefined
  const m = /^\/proc\/([^/]+)(\/.*)?$/.exec(word.text)
  if (!m) return undefined
  const pid = m[1]!
  const rest = m[2] ?? ""
  // the process part is expansions (balanced: no `/` hidden inside a substitution), the rest is static
  if (!/[$`]/.test(pid) || /[$`]/.test(rest) || count(pid, "(") !== count(pid, ")") || count(pid, "`") % 2) return undefined
  return `/proc/*${rest}`
}

function count(s: string, c: string): number {
  return s.split(c).length - 1
}

function procPath(p: string, cwd: Cwd): string[] | null {
  const m = PROC_LINK.exec(p)
  if (!m) return [normalise(p)]
  const rest = p.slice(m[0].length)
  if (m[2] === "root") return resolveWord({ text: rest || "/", value: rest || "/", expanded: false, hollow: false, glob: false, tilde: false }, cwd, "/")
  if ((m[1] === "self" || m[1] === "thread-self") && cwd !== null) return cwd.map((d) => normalise(`${d}/.${rest}`))
  return null
}

// /dev/fd is a link to /proc/self/fd, so /dev/fd/../task/1/environ is /proc/self/task/1/environ as the
// kernel walks it. Both that and the lexical reading are judged (the higher counts).
function devFdParent(p: string, cwd: Cwd): string[] | null {
  const viaProc = procPath(p.replace(/^\/dev\/fd\/+\.\./, "/proc/self"), cwd)
  return viaProc === null ? null : [normalise(p), ...viaProc]
}

/** A path as a case-insensitive, normalisation-insensitive file system (macOS) may store it: NFC, and
 *  without the code points HFS+ ignores in names (`.g\u200cit` is `.git` there). undefined: the same. */
export function unicodeFold(p: string): string | undefined {
  if (!/[^\x00-\x7f]/.test(p)) return undefined
  const out = p.normalize("NFC").replace(/[\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g, "")
  return out === p ? undefined : out
}

function normalise(p: string): string {
  if (!p.includes("/.") && !p.includes("//")) return p.length > 1 && p.endsWith("/") ? p.slice(0, -1) : p
  const r = physical && p.includes("/..") ? physicalDots(p, physical) : posix.normalize(p)
  return r.length > 1 && r.endsWith("/") ? r.slice(0, -1) : r
}

// Where the walk's paths really lead (the caller's realpath), for the length of one analysis: the kernel
// resolves `x/..` from where x leads, so with `docs -> ~/.aws`, `docs/../.aws/credentials` is
// ~/.aws/credentials, not the workspace's. Set by withPhysical around a synchronous analysis only.
let physical: ((path: string) => string) | undefined

/** Run `fn` with `..` resolved physically through `realpath` (undefined: lexically). */
export function withPhysical<T>(realpath: ((path: string) => string) | undefined, fn: () => T): T {
  const before = physical
  physical = realpath
  try {
    return fn()
  } finally {
    physical = before
  }
}

// `..` after a name: the real place of the path so far, then its parent (as the kernel walks it)
function physicalDots(p: string, realpath: (path: string) => string): string {
  let at = ""
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue
    if (seg === "..") {
      const real = at ? posix.normalize(realpath(at)) : "/"
      at = real === "/" ? "" : real.slice(0, real.lastIndexOf("/"))
    } else at += "/" + seg
  }
  return at || "/"
}

/** isInside (parent first), ignoring case: a case-insensitive file system (macOS's default) takes ~/.SSH
 *  for ~/.ssh, so a check that something is dangerous compares this way (a check that something is safe
 *  never does). */
export function isInsideFold(parent: string, child: string): boolean {
  const n = parent.length
  // the root and a parent with a trailing slash go through isInside; for every other parent the
  // comparison below accepts all that isInside would (and runs for every path against every system
  // directory without building a string)
  if ((n <= 1 || parent.charCodeAt(n - 1) === 47) && isInside(parent, child)) return true
  if (child.length < n || n <= 1) return false
  if (child.length > n && child.charCodeAt(n) !== 47) return false
  // ASCII letters compared without building lower-case copies (this runs for every path judged)
  for (let i = 0; i < n; i++) {
    let a = child.charCodeAt(i)
    let b = parent.charCodeAt(i)
    if (a === b) continue
    if (a > 127 || b > 127) return isInside(parent.toLowerCase(), child.toLowerCase())
    if (a >= 65 && a <= 90) a += 32
    if (b >= 65 && b <= 90) b += 32
    if (a !== b) return false
  }
  return true
}
