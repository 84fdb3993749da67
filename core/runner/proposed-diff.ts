// What a write_file / edit_file call would change, as a unified diff, for the approval prompt.
// Reads the current file only inside the workspace (never shows a file outside it) and only when small.
import { lstatSync, readFileSync } from "node:fs"
import { relative } from "node:path"
import { isInside } from "../base/paths.ts"
import { resolveToolPath } from "../tools/paths.ts"
import { unifiedDiff } from "./unified-diff.ts"

const MAX_BYTES = 512 * 1024

/** undefined: not a file tool, or nothing sensible to show (the raw arguments are shown instead). */
export function proposedDiff(tool: string, args: Record<string, unknown>, cwd: string, workspace: string): string | undefined {
  if ((tool !== "write_file" && tool !== "edit_file") || typeof args.path !== "string") return undefined
  let path: string
  try {
    path = resolveToolPath(args.path, cwd, workspace, true)
  } catch {
    return undefined
  }
  if (!isInside(workspace, path)) return undefined
  const before = readSmall(path)
  if (before === null) return undefined
  const name = relative(workspace, path)
  if (tool === "write_file") return typeof args.content === "string" ? unifiedDiff(before ?? "", args.content, name, before === undefined) : undefined
  if (before === undefined || typeof args.old_string !== "string" || typeof args.new_string !== "string" || !args.old_string) return undefined
  // the same replacement the tool makes; a missing or ambiguous match is left for the tool to report
  const count = before.split(args.old_string).length - 1
  if (count === 0 || (count > 1 && !args.replace_all)) return undefined
  const after = args.replace_all ? before.split(args.old_string).join(args.new_string) : before.replace(args.old_string, () => args.new_string as string)
  return unifiedDiff(before, after, name)
}

/** The file's text; undefined: no file yet; null: not something to diff (folder, binary, too big). */
function readSmall(path: string): string | undefined | null {
  let size: number
  try {
    const st = lstatSync(path)
    if (!st.isFile()) return null
    size = st.size
  } catch {
    return undefined
  }
  if (size > MAX_BYTES) return null
  const bytes = readFileSync(path)
  if (bytes.includes(0)) return null
  return bytes.toString("utf8")
}
