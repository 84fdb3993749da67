// Folders a sandboxed step must not plant where none existed. bwrap can only mount over a path that
// exists, so a missing `.git` cannot be made read-only: a step could `git init` one whose config runs
// a program (core.fsmonitor, core.hooksPath) on the user's next git command, outside any sandbox.
// The same for the folders another agent or ccode itself reads code or hooks from. I/O: stat only.
import { existsSync, renameSync } from "node:fs"
import { join } from "node:path"
import { isInside } from "../base/paths.ts"

/** Workspace folders that make the next git command, agent or ccode run code of their choosing. */
export const PLANTABLE = [".git", ".ccode", ".claude", ".gemini", ".vscode", ".idea"] as const

/** The plantable folders missing now (and not writable by policy): what to check after the step. */
export function missingPlantable(workspace: string, writable: readonly string[]): string[] {
  return PLANTABLE.filter((name) => {
    const path = join(workspace, name)
    return !existsSync(path) && !writable.some((w) => isInside(w, path) && w !== workspace)
  })
}

/** Of the folders missing before the step, those that exist now. */
export function planted(workspace: string, missingBefore: readonly string[]): string[] {
  return missingBefore.filter((name) => existsSync(join(workspace, name)))
}

/**
 * Move planted folders aside (`.git` -> `.git.blocked-<stamp>`): kept for a person to review, but no
 * longer where git or an agent would read them. Returns the new names.
 */
export function setAside(workspace: string, names: readonly string[], stamp: string): string[] {
  return names.map((name) => {
    const aside = `${name}.blocked-${stamp}`
    renameSync(join(workspace, name), join(workspace, aside))
    return aside
  })
}
