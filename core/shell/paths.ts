// Which paths a command deletes or writes, and how bad that is: the root, home, the workspace and their
// ancestors are critical; system files and shell rc files too. Lexical only: no fs. Pure.
import { riskRank as rank, type Risk } from "../base/risk.ts"
import type { Cwd } from "./scope.ts"
import type { Word } from "./word.ts"
import { isInside } from "../base/paths.ts"
import { isInsideFold, resolveWord, unicodeFold } from "./cwd.ts"
import { globCandidates } from "./globs.ts"
import type { Through } from "./links.ts"
import { throughUnknownFd } from "./fds.ts"
import { startupFile } from "./startup.ts"

export interface PlaceContext {
  workspace: string
  home: string
  /** temp directories writes may go to without leaving the workspace's blast radius */
  tmp: string[]
  /** where a path really leads (symlinks followed), from the caller: the analysis itself never touches the fs */
  realpath?: ((path: string) => string) | undefined
  /** where a path leads through links the command itself makes before it is used (links.ts) */
  through?: ((path: string) => Through | undefined) | undefined
  /** which repository git started in this folder uses (core/base/gitrepo.ts), from the caller (fs) */
  gitRepo?: ((dir: string) => string) | undefined
  /** the first project file above the workspace a build runner started in `dir` would use (its upward
   *  search: package.json, pytest.ini, conftest.py, Cargo.toml...), from the caller (fs, core/base/buildroot.ts);
   *  `loose`: an earlier part of the command writes files, so markers inside the workspace do not count */
  projectAbove?: ((program: string, dir: string, loose: boolean) => string | undefined) | undefined
  /** an earlier part of the command writes files: a folder's contents at run time are not what they are now */
  wroteBefore?: boolean
  /** the environment the command runs with, when known: a variable whose value is a secret counts as one */
  env?: Record<string, string | undefined> | undefined
}

export interface Verdict {
  level: Risk
  reason: string
}

/** Why deleting this absolute path (or everything in it) would be a disaster; undefined when it would not. */
export function criticalPath(abs: string, c: PlaceContext, strict = false): string | undefined {
  if (abs === "/") return "the root directory"
  if (isInsideFold(abs, c.home)) return abs.length === c.home.length ? "the home directory" : "an ancestor of the home directory"
  const real = c.realpath ? c.realpath(c.home) : c.home
  if (real !== c.home && isInsideFold(abs, real)) return abs.length === real.length ? "the home directory" : "an ancestor of the home directory"
  if (isInsideFold(abs, c.workspace)) return abs.length === c.workspace.length ? "the workspace root" : "an ancestor of the workspace"
  if (strict) return undefined
  if (abs.lastIndexOf("/") === 0) return "a top-level system directory"
  if (inSystem(abs)) return "a system directory"
  return undefined
}

const SYSTEM = ["/etc", "/boot", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/usr", "/System", "/Library", "/private/etc", "/var/lib"]

function inSystem(abs: string): boolean {
  for (const d of SYSTEM) if (isInsideFold(d, abs)) return true
  return false
}
const BROAD_GLOB = /^[*?.]*[*?][*?.]*$/
const GLOB_CHAR = /[*?[]/

/** A path with a glob in it: everything under its glob-free prefix when the glob is broad (`*`, `.*`). */
function globTarget(abs: string): { dir: string; dots: boolean } | undefined {
  if (!GLOB_CHAR.test(abs)) return undefined // most paths: no part to look for
  const parts = abs.split("/")
  const at = parts.findIndex((p) => /[*?[]/.test(p))
  if (at < 0) return undefined
  if (!BROAD_GLOB.test(parts[at]!)) return undefined
  return { dir: parts.slice(0, at).join("/") || "/", dots: parts[at]!.startsWith(".") }
}

function parentOf(p: string): string {
  const i = p.lastIndexOf("/")
  return i <= 0 ? "/" : p.slice(0, i)
}

/** How bad a delete of one target is. `strong`: recursive or forced. */
export function deleteVerdict(target: Word, cwd: Cwd, c: PlaceContext, strong: boolean, recursive: boolean): Verdict {
  if (target.placeholder) {
    return recursive ? { level: "high", reason: "deletes recursively paths chosen at run time" } : { level: "medium", reason: "deletes paths chosen at run time" }
  }
  if (target.value === undefined) {
    const worst = { ...target, value: target.text.replace(EXPANSION, "") }
    const paths = resolveWord(worst, cwd, c.home) ?? []
    const hit = paths.map((p) => critical(p, c, true)).find(Boolean)
    if (strong && (hit || !worst.value)) return { level: "critical", reason: `deletes a path that is not static and could be ${hit ?? "anything"}` }
    return recursive ? { level: "high", reason: `deletes recursively a path that is not static (${target.text})` } : { level: "medium", reason: `deletes ${target.text}` }
  }
  if (strong && target.hollow && target.value.replace(/\/+$/, "") === "") {
    return { level: "critical", reason: `deletes a path built on an empty or unset variable (${target.text})` }
  }
  const paths = resolveWord(target, cwd, c.home)
  if (paths === null) {
    if (strong && /^(\.{1,2}|\*|\.\*)(\/|$)/.test(target.value)) return { level: "critical", reason: `deletes ${target.value} from an unknown directory` }
    return { level: recursive ? "high" : "medium", reason: `deletes ${target.value} from an unknown directory` }
  }
  let worst: Verdict = { level: "safe", reason: "" }
  for (const p of c.through ? judged(paths, { ...c, realpath: undefined }, false) : paths) {
    const v = onePath(p, target, c, strong, recursive)
    if (rank(v.level) > rank(worst.level)) worst = v
  }
  const anywhere = c.through && unknownLink(paths, c)
  if (anywhere && rank(worst.level) < rank("high")) worst = { level: "high", reason: `deletes ${anywhere}` }
  return worst
}

function onePath(p: string, target: Word, c: PlaceContext, strong: boolean, recursive: boolean): Verdict {
  const why = critical(p, c, false)
  if (why && strong) return { level: "critical", reason: `deletes ${why} (${target.text})` }
  if (target.hollow && strong) return { level: "critical", reason: `deletes a path built on an empty or unset variable (${target.text})` }
  if (!isInside(c.workspace, p)) return { level: "high", reason: `deletes outside the workspace: ${p}` }
  if (recursive) return { level: "high", reason: `deletes recursively inside the workspace: ${target.text}` }
  return { level: "medium", reason: `deletes in the workspace: ${target.text}` }
}

/** The reason a path, or the glob contents of a path, is critical. */
function critical(p: string, c: PlaceContext, strict: boolean): string | undefined {
  const glob = globTarget(p)
  if (glob) {
    const inDir = criticalPath(glob.dir, c, true)
    if (inDir) return `everything in ${inDir}`
    if (glob.dots) {
      const up = criticalPath(parentOf(glob.dir), c, true)
      if (up) return `${up} (through ..)`
    }
    return undefined
  }
  return criticalPath(p, c, strict)
}

const EXPANSION = /\$\{[^}]*\}|\$\([^)]*\)|\$\(\([^)]*\)\)|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9@*#?$!-]|`[^`]*`/g

// the caller's output (/dev/fd/1, /dev/fd/2: what fds.ts leaves of a descriptor the command did not redirect)
const NOT_WRITES = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/fd/1", "/dev/fd/2"])
const DISKS = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md|dm-|mapper\/|loop)/

/** How bad a write to this target is; undefined for the harmless ones (/dev/null). */
export function writeVerdict(target: Word, cwd: Cwd, c: PlaceContext): Verdict | undefined {
  if (target.value === undefined) return { level: "high", reason: `writes to a path that is not static (${target.text})` }
  const paths = resolveWord(target, cwd, c.home)
  if (paths === null) {
    // /proc/PID/cwd/x: another process's current directory, anywhere on the machine
    if (target.value.startsWith("/proc/")) return { level: "high", reason: `writes ${target.value} in another process's directory` }
    return { level: "medium", reason: `writes ${target.value} in an unknown directory` }
  }
  let worst: Verdict | undefined
  for (const p of judged(paths, c, target.glob)) {
    const v = writeOne(p)
    if (v && (!worst || rank(v.level) > rank(worst.level))) worst = v
  }
  const anywhere = c.through && unknownLink(paths, c)
  if (anywhere && (!worst || rank(worst.level) < rank("high"))) worst = { level: "high", reason: `writes ${anywhere}` }
  return worst

  function writeOne(p: string): Verdict | undefined {
    if (NOT_WRITES.has(p)) return undefined
    // opening /dev/fd/N for writing opens anew the file behind N: one the command did not open is any file
    if (throughUnknownFd(p)) return { level: "high", reason: `writes through ${p}, a descriptor this command does not open: it can be any file the caller holds open` }
    if (p.startsWith("/dev/tcp/") || p.startsWith("/dev/udp/")) return { level: "high", reason: `sends data over the network through ${p}` }
    if (DISKS.test(p)) return { level: "critical", reason: `writes to the disk device ${p}` }
    // what is dangerous is compared ignoring case (a case-insensitive file system writes ~/.BASHRC as
    // ~/.bashrc, /ETC/hosts as /etc/hosts); what is safe (inside the workspace) is compared exactly
    if (isInsideFold("/etc", p) || isInsideFold("/boot", p) || isInsideFold("/private/etc", p)) return { level: "critical", reason: `writes to the system file ${p}` }
    const startup = startupFile(p, c.home)
    if (startup) return { level: "critical", reason: startup }
    // HOME through a link: the real paths a call's writes resolve to are below the home's real path
    const real = c.realpath ? c.realpath(c.home) : c.home
    const viaLink = real !== c.home ? startupFile(p, real) : undefined
    if (viaLink) return { level: "critical", reason: `${viaLink} (the home directory ${c.home} leads to ${real})` }
    if (isInside(c.workspace, p)) return { level: "medium", reason: `writes ${p}` }
    if (c.tmp.some((t) => isInside(t, p))) return { level: "medium", reason: `writes the temporary file ${p}` }
    if (inSystem(p) || p.startsWith("/dev/")) return { level: "critical", reason: `writes to the system path ${p}` }
    return { level: "high", reason: `writes outside the workspace: ${p}` }
  }
}

/** The paths a write really reaches: each path, what a glob in it could match, and where a symlink leads. */
export function judged(paths: string[], c: PlaceContext, glob: boolean): string[] {
  const out: string[] = []
  for (const p of paths) {
    out.push(p)
    const folded = unicodeFold(p)
    if (folded) out.push(folded)
    if (glob) out.push(...globCandidates(p))
    if (c.realpath) {
      const real = c.realpath(p)
      if (real !== p) out.push(real)
    }
    const through = c.through?.(p)
    if (through) out.push(...through.paths)
  }
  return out
}

/** Why a path may lead anywhere: it is (or is below) a link this command makes to a place not known. */
export function unknownLink(paths: readonly string[], c: PlaceContext): string | undefined {
  for (const p of paths) {
    const l = c.through?.(p)?.unknown
    if (l) return `${p} through ${l.at}, which ${l.how} in this command may make a link to anywhere`
  }
  return undefined
}
