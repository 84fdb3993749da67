// Path vocabulary every room shares: containment, symlink resolution of paths that may not exist yet,
// and `~` expansion. One definition each, because a second copy that drifts is a hole in a security
// check. Reads the fs (realpath, readlink) but never writes.
import { readlinkSync, realpathSync } from "node:fs"
import { basename, dirname, join, resolve } from "node:path"

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

/** How many dangling symlinks in a row are followed before the path is taken as it is (the OS says ELOOP). */
const MAX_LINKS = 40

/**
 * realpath of the longest existing prefix, with the missing rest appended (for files about to be
 * created). A dangling symlink on the way is followed to its target: writing through it creates the
 * target, so the target is what confinement and protected-path checks must see. A relative path is
 * returned unchanged (there is no cwd to resolve it against here).
 */
export function realpathExisting(path: string, links = 0): string {
  if (!path.startsWith("/")) return path
  const missing: string[] = []
  let current = path
  for (;;) {
    try {
      return join(realpathSync(current), ...missing.reverse())
    } catch {
      const target = linkTarget(current)
      if (target !== undefined && links < MAX_LINKS) {
        return realpathExisting(join(resolve(dirname(current), target), ...missing.reverse()), links + 1)
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
    return realpathSync(path)
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
