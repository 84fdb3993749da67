// Path vocabulary every room shares: containment, symlink resolution of paths that may not exist yet,
// and `~` expansion. One definition each, because a second copy that drifts is a hole in a security
// check. Reads the fs (realpath, readlink) but never writes.
import { readlinkSync, realpathSync } from "node:fs"
import { basename, dirname, join } from "node:path"

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
 * realpath of the longest existing prefix, with the missing rest appended (for files about to be
 * created), physical as the kernel resolves it: `docs/..` is the parent of where docs leads. A dangling
 * symlink on the way is followed to its target: writing through it creates the
 * target, so the target is what confinement and protected-path checks must see. A relative path is
 * returned unchanged (there is no cwd to resolve it against here).
 */
export function realpathExisting(path: string, links = 0): string {
  if (!path.startsWith("/")) return path
  const missing: string[] = []
  let current = path
  for (;;) {
    try {
      // native: the libc realpath resolves `..` on disk; node's JS one normalises it away first
      return join(realpathSync.native(current), ...missing.reverse())
    } catch {
      const target = linkTarget(current)
      if (target !== undefined && links < MAX_LINKS) {
        // the target is read from where the link really is (its folder may be reached through links)
        // and its own `..` are left for the next round to resolve on disk, as the kernel does
        const from = target.startsWith("/") ? target : `${realpathExisting(dirname(current), links + 1)}/${target}`
        return realpathExisting([from, ...missing.reverse()].join("/"), links + 1)
      }
      const parent = dirname(current)
      if (parent === current) return path
      missing.push(basename(current))
      current = parent
    }
  }
}

/** realpath of a path that should exist; the path as given when it does not (or cannot be read). */
export function realpathOr(path: string): string {
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
