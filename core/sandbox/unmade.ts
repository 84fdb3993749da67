// Protected paths that do not exist yet. bwrap mounts only over what exists, so a missing ~/.bashrc,
// ~/.config/ccode (user plugins run unsandboxed), ~/.local/bin or .git/hooks inside a writable root
// could be made by a step; they are looked at before and after each call, and one that appeared is
// moved aside like a planted folder (planted.ts). I/O: lstat only, about thirty paths a call.
import { lstatSync } from "node:fs"
import { isInside } from "../base/paths.ts"

/** Of `paths`, those missing now below a writable root: what to look at again after the call. */
export function unmadeProtected(paths: readonly string[], writable: readonly string[]): string[] {
  return paths.filter((p) => writable.some((w) => w !== p && isInside(w, p)) && !exists(p))
}

/** Of the paths missing before the call, those that exist now (a dangling link counts). */
export function madeSince(missingBefore: readonly string[]): string[] {
  return missingBefore.filter(exists)
}

function exists(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined
  } catch {
    // a path through a file: nothing there
    return false
  }
}
