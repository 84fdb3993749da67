// Path vocabulary every room shares: containment, symlink resolution of paths that may not exist yet,
// and `~` expansion. One definition each, because a second copy that drifts is a hole in a security
// check. Reads the fs (realpath, readlink) but never writes.
import { readlinkSync, realpathSync } from "node:fs"
import { basename, dirname, join, posix } from "node:path"

/**
 * Is `child` the directory `parent` itself or somewhere below it? Both must be absolute and normalised
 * (no `.`/`..` parts); a trailing slash on `parent` is allowed. Parent first: "is it inside X" reads
 * `isInside(X, path)`.
 */
export function isInside(parent: string, child: string): boolean {
  // an empty or relative parent (an unset home, say) contains nothing: "inside" must never widen
  if (!parent.startsWith("/")) return false
  if (child === parent) return true
  return child.startsWith(parent.endsWith("/") ? parent : `${parent}/`)
}

/** `~` and `~/x` under `home`; every other path (including `~user`) is returned as written. */
export function expandHome(path: string, home: string): string {
  if (path === "~") return home
  return path.startsWith("~/") ? join(home, path.slice(2)) : path
}

/**
 * `path` made absolute from `cwd`, `~` expanded, with its `..` left for the disk: after a symlink, `..`
 * leads to the parent of the link's target, not back to where the link is (realpathExisting resolves it).
 */
export function absoluteFrom(cwd: string, path: string, home: string): string {
  const given = path === "~" ? home : path.startsWith("~/") ? `${home}/${path.slice(2)}` : path
  return given.startsWith("/") ? given : `${cwd}/${given}`
}

/** How many dangling symlinks in a row are followed before the path is taken as it is (the OS says ELOOP). */
const MAX_LINKS = 40

/**
 * A path through a process's own descriptors or its own /proc entry (/dev/fd/N, /dev/stdin, /proc/self,
 * /proc/thread-self, in any spelling): where it leads depends on the process that opens it, so ccode
 * never resolves one in its own process (its own stdin or epoll fd says nothing about a command's).
 */
export function ownProcessPath(path: string): boolean {
  return (path.includes("/dev") || path.includes("/proc")) && OWN_PROCESS.test(posix.normalize(path))
}

const OWN_PROCESS = /^\/(?:dev\/(?:fd|stdin|stdout|stderr)|proc\/(?:self|thread-self))(?:\/|$)/

/**
 * realpath of the longest existing prefix, with the missing rest appended (for files about to be
 * created), physical as the kernel resolves it: `docs/..` is the parent of where docs leads. A dangling
 * symlink on the way is followed to its target: writing through it creates the
 * target, so the target is what confinement and protected-path checks must see. A relative path is
 * returned unchanged (there is no cwd to resolve it against here).
 */
export function realpathExisting(path: string, links = 0): string {
  return realpathKnown(path, links).path
}

/**
 * realpathExisting, and why the path's place is not known when the disk would not say (a path longer
 * than PATH_MAX, a loop of links, a folder ccode may not search: then its rest is only lexical, and a
 * `link/..` in it is not where the kernel goes).
 */
export function realpathKnown(path: string, links = 0): { path: string; unknown?: string } {
  if (!path.startsWith("/")) return { path }
  if (ownProcessPath(path)) return { path: posix.normalize(path) }
  const missing: string[] = []
  let current = path
  let unknown: string | undefined
  for (;;) {
    try {
      // native: the libc realpath resolves `..` on disk; node's JS one normalises it away first
      const real = join(realpathSync.native(current), ...missing.reverse())
      return unknown ? { path: real, unknown } : { path: real }
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      // ENAMETOOLONG, ELOOP, EACCES: not "missing" (dropping the name would resolve a `link/..` after it lexically)
      if (code !== "ENOENT" && code !== "ENOTDIR") unknown ??= code ?? "an error"
      const target = linkTarget(current)
      if (target !== undefined && links < MAX_LINKS) {
        // the target is read from where the link really is (its folder may be reached through links)
        // and its own `..` are left for the next round to resolve on disk, as the kernel does
        const from = target.startsWith("/") ? target : `${realpathExisting(dirname(current), links + 1)}/${target}`
        const next = realpathKnown([from, ...missing.reverse()].join("/"), links + 1)
        return unknown && !next.unknown ? { ...next, unknown } : next
      }
      const parent = dirname(current)
      if (parent === current) return unknown ? { path, unknown } : { path }
      missing.push(basename(current))
      current = parent
    }
  }
}

/** realpath of a path that should exist; the path as given when it does not (or cannot be read). */
export function realpathOr(path: string): string {
  if (ownProcessPath(path)) return path
  try {
    return realpathSync.native(path)
  } catch {
    return path
  }
}

function linkTarget(path: string): string | undefined {
  try {
    return readlinkSync(path)
  } catch {
    return undefined
  }
}
