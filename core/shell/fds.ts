// What a command's /dev/fd/N, /dev/stdin|stdout|stderr and /proc/self/fd/N lead to: the file its own
// redirects (and its group's, and an earlier `exec`'s) opened on descriptor N, in order. On Linux,
// opening /dev/fd/0 opens that FILE anew (a write to it after `0<~/.bashrc` writes ~/.bashrc) and a path
// below it is a path below the folder opened there (`9</root` makes /dev/fd/9/.netrc /root/.netrc).
// Judged from the command alone, never from ccode's own descriptors. Pure.
import type { Finding, RawRedirect } from "./raw.ts"
import type { Word } from "./word.ts"

/** A descriptor: the word of the file opened on it, or what it is when that is not a file. */
export type Slot = { word: Word } | "harmless" | "stdin" | "unknown"

/** Descriptors the command opened (or an enclosing `exec` did); the rest are its caller's. */
export type FdTable = ReadonlyMap<number, Slot>

export interface Opened {
  /** the redirects, each target seen through the descriptors opened before it; copies and closes left out */
  redirects: RawRedirect[]
  words: Word[]
  table: FdTable
  findings: Finding[]
}

const EMPTY: FdTable = new Map()
// after `//` and `/./` are collapsed: a descriptor path, its number (or what stands for one) and the rest
const FD_PATH = /^\/(?:dev\/fd\/([^/]*)|dev\/(stdin|stdout|stderr)|proc\/(?:self|thread-self)(?:\/task\/[^/]*)?\/fd\/([^/]*))(\/.*)?$/
const STD: Record<string, number> = { stdin: 0, stdout: 1, stderr: 2 }

/** The command's redirects in order, its words seen through the descriptors they leave open. */
export function openFds(redirects: readonly RawRedirect[], words: readonly Word[], home: string, inherited: FdTable = EMPTY, piped = false): Opened | undefined {
  if (!redirects.length && inherited.size === 0 && !anyFdPath(words)) return undefined
  const table = new Map(inherited)
  const findings: Finding[] = []
  const out: RawRedirect[] = []
  const slot = (n: number): Slot => table.get(n) ?? (n === 1 || n === 2 ? "harmless" : n === 0 ? (piped ? "harmless" : "stdin") : "unknown")
  for (const r of redirects) {
    const fd = r.fd ?? (r.op.startsWith("<") ? 0 : 1)
    if (r.dup !== undefined) {
      if (r.dup === "-") table.set(fd, "harmless")
      else table.set(fd, slot(r.dup))
      continue
    }
    const target = through(r.target, slot, findings)
    out.push(target === r.target ? r : { ...r, target })
    const opened: Slot = target.procsub ? "harmless" : target.value === undefined || target.placeholder ? "unknown" : { word: homeExpanded(target, home) }
    if (r.fd === undefined && (r.op === "&>" || r.op === "&>>" || r.op === ">&")) {
      table.set(1, opened)
      table.set(2, opened)
    } else table.set(fd, opened)
  }
  const seen = words.map((w) => through(w, slot, findings))
  return { redirects: out, words: seen, table, findings }
}

// words.some(mayBeFdPath) as a plain loop: this runs for every part
function anyFdPath(words: readonly Word[]): boolean {
  for (let i = 0; i < words.length; i++) if (mayBeFdPath(words[i]!)) return true
  return false
}

function mayBeFdPath(w: Word): boolean {
  const v = w.value
  // most words hold no `/` at all: one search for it settles them
  return v !== undefined && v.includes("/") && (v.includes("/dev/") || v.includes("/proc/")) && !w.procsub
}

// the word as the path it names: the file opened on the descriptor, with what follows appended; an
// option's value too (`of=/dev/fd/0`, `--output=/dev/stdout`)
function through(w: Word, slot: (n: number) => Slot, findings: Finding[]): Word {
  if (!mayBeFdPath(w)) return w
  const v = w.value!
  if (v.charCodeAt(0) !== 47) {
    const eq = v.indexOf("=")
    if (eq < 0 || v.charCodeAt(eq + 1) !== 47) return w
    const inner = through({ ...w, value: v.slice(eq + 1), tilde: false }, slot, findings)
    return inner.value === v.slice(eq + 1) ? w : { ...w, value: v.slice(0, eq + 1) + inner.value, tilde: false }
  }
  const path = v.replace(/\/\.(?=\/|$)/g, "").replace(/\/{2,}/g, "/")
  const m = FD_PATH.exec(path)
  if (!m) return w
  const digits = m[2] !== undefined ? String(STD[m[2]]) : (m[1] ?? m[3])!
  const number = /^\d+$/.test(digits) ? Number(digits) : undefined
  const rest = m[4] ?? ""
  const s = number === undefined ? "unknown" : slot(number)
  if (typeof s === "object") {
    const base = s.word.value!
    return { ...s.word, text: w.text, value: rest ? base.replace(/\/+$/, "") + rest : base, glob: s.word.glob || w.glob }
  }
  if (s === "harmless" && !rest) return number === 1 || number === 2 ? { ...w, value: `/dev/fd/${number}` } : { ...w, value: "/dev/null" }
  if (s === "stdin" && !rest) return { ...w, value: "/dev/fd/0" }
  // below a pipe or a closed descriptor: nothing is there
  if (s === "harmless") return { ...w, value: "/dev/null" }
  const what = number === undefined ? `${w.text}, a descriptor named only at run time` : `${w.text}, through descriptor ${number}, which this command does not open`
  findings.push({ name: "fd-unknown", level: "medium", reason: `${rest ? "reads or writes below" : "reads or writes"} ${what}: it can lead to any file or folder the caller holds open` })
  return { ...w, value: path }
}

/** A path that still goes through a process's descriptors (not one this command opened): a write to it
 *  is a write to a file nobody can name before it runs. /dev/fd/1 and /dev/fd/2 are the caller's output. */
export function throughUnknownFd(path: string): boolean {
  if (path === "/dev/fd/1" || path === "/dev/fd/2") return false
  return FD_PATH.test(path.replace(/\/\.(?=\/|$)/g, "").replace(/\/{2,}/g, "/"))
}

// `~` and `~/x` as bash expanded them at the redirect: a path substituted into an option's value
// (`--output=/dev/fd/0`) must not read as a `~` bash would leave alone there
function homeExpanded(w: Word, home: string): Word {
  const v = w.value!
  if (!w.tilde || (v !== "~" && !v.startsWith("~/"))) return w
  return { ...w, value: home + v.slice(1), tilde: false }
}
