// Resolve a tool's path argument and keep file tools inside the workspace after resolving symlinks.
import { homedir } from "node:os"
import { resolve } from "node:path"
import { expandHome, isInside, realpathExisting } from "../base/paths.ts"
import { ToolFailure } from "./types.ts"

/** Absolute, symlink-resolved path; refuses to leave the workspace when `confine` is on. */
export function resolveToolPath(path: string, cwd: string, workspace: string, confine: boolean): string {
  if (typeof path !== "string" || path.length === 0) throw new ToolFailure("INVALID_PARAM", "param", "path must be a non-empty string")
  if (path.includes("\0")) throw new ToolFailure("INVALID_PARAM", "param", "path contains a NUL byte")
  // the same home the policy decided with (prepareCall's ctx.home), so `~/x` is the path that was checked
  const absolute = resolve(cwd, expandHome(path, homedir()))
  const real = realpathExisting(absolute)
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
