// Resolve a tool's path argument and keep file tools inside the workspace after resolving symlinks.
import { readlinkSync, realpathSync } from "node:fs"
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path"
import { ToolFailure } from "./types.ts"

/** How many dangling symlinks in a row are followed before the path is taken as it is (the OS says ELOOP). */
const MAX_LINKS = 40

/**
 * realpath of the longest existing prefix, with the missing rest appended (for files about to be
 * created). A dangling symlink on the way is followed to its target: writing through it creates
 * the target, so the target is what confinement and the protected check must see.
 */
export function realpathLoose(path: string, links = 0): string {
  const missing: string[] = []
  let current = path
  for (;;) {
    try {
      return join(realpathSync(current), ...missing.reverse())
    } catch {
      const target = linkTarget(current)
      if (target !== undefined && links < MAX_LINKS) {
        return realpathLoose(join(resolve(dirname(current), target), ...missing.reverse()), links + 1)
      }
      const parent = dirname(current)
      if (parent === current) return path
      missing.push(basename(current))
      current = parent
    }
  }
}

function linkTarget(path: string): string | undefined {
  try {
    return readlinkSync(path)
  } catch {
    return undefined
  }
}

export function isInside(root: string, path: string): boolean {
  if (path === root) return true
  const rel = relative(root, path)
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel)
}

/** Absolute, symlink-resolved path; refuses to leave the workspace when `confine` is on. */
export function resolveToolPath(path: string, cwd: string, workspace: string, confine: boolean): string {
  if (typeof path !== "string" || path.length === 0) throw new ToolFailure("INVALID_PARAM", "param", "path must be a non-empty string")
  if (path.includes("\0")) throw new ToolFailure("INVALID_PARAM", "param", "path contains a NUL byte")
  const expanded = path === "~" || path.startsWith("~/") ? join(process.env.HOME ?? "/", path.slice(1)) : path
  const absolute = resolve(cwd, expanded)
  const real = realpathLoose(absolute)
  if (confine && !isInside(workspace, real)) {
    const via = real !== absolute ? ` (it resolves to ${real})` : ""
    throw new ToolFailure(
      "OUTSIDE_WORKSPACE",
      "denied",
      `${path} is outside the workspace ${workspace}${via}; file tools stay inside it (policy workspace.confine)`,
    )
  }
  return real
}
