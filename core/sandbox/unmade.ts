// Protected paths that do not exist yet. bwrap mounts only over what exists, so a missing ~/.bashrc,
// ~/.config/ccode (user plugins run unsandboxed), ~/.local/bin, .git/hooks or a credential folder
// (~/.kube: a kubeconfig runs programs) inside a writable root could be made by a step; they are
// looked at before and after each call, and one that appeared is moved aside like a planted folder
// (planted.ts). A dangling link counts as missing: the step could make what it leads to. I/O: lstat
// through present.ts, which asks nothing again for a path remembered missing below an unchanged folder.
import { isInside } from "../base/paths.ts"
import { lookPaths } from "./present.ts"

/** A protected path missing before the call, and whether an entry (a dangling link) stood at its name. */
export interface Unmade {
  path: string
  entry: boolean
}

/** Of `paths`, those missing now below a writable root: what to look at again after the call. */
export function unmadeProtected(paths: readonly string[], writable: readonly string[]): Unmade[] {
  const below = paths.filter((p) => writable.some((w) => w !== p && isInside(w, p)))
  const now = lookPaths(below)
  return below.flatMap((path, i) => (typeof now[i] === "string" ? [] : [{ path, entry: now[i] === null }]))
}

/** Of the paths missing before the call, those that exist now, or have an entry where there was none. */
export function madeSince(missingBefore: readonly Unmade[]): string[] {
  const now = lookPaths(missingBefore.map((m) => m.path))
  return missingBefore.filter((m, i) => typeof now[i] === "string" || (now[i] === null && !m.entry)).map((m) => m.path)
}
