// Folders a sandboxed step must not plant where none existed. bwrap can only mount over a path that
// exists, so a missing `.git` cannot be made read-only: a step could `git init` one whose config runs
// a program (core.fsmonitor, core.hooksPath) on the user's next git command, outside any sandbox.
// The same for the folders another agent or ccode itself reads code or hooks from. I/O: stat, and
// rename (or delete) of what a step planted.
import { randomBytes } from "node:crypto"
import { existsSync, lstatSync, renameSync, rmSync } from "node:fs"
import { join } from "node:path"
import { isInside } from "../base/paths.ts"

/** Workspace folders that make the next git command, agent or ccode run code of their choosing. */
export const PLANTABLE = [".git", ".ccode", ".claude", ".gemini", ".vscode", ".idea"] as const

/** The plantable folders missing now (and not writable by policy): what to check after the step. */
export function missingPlantable(workspace: string, writable: readonly string[]): string[] {
  return PLANTABLE.filter((name) => {
    const path = join(workspace, name)
    return !lexists(path) && !writable.some((w) => isInside(w, path) && w !== workspace)
  })
}

/** Of the folders missing before the step, those that exist now. */
export function planted(workspace: string, missingBefore: readonly string[]): string[] {
  return missingBefore.filter((name) => lexists(join(workspace, name)))
}

/**
 * Move planted folders aside (`.git` -> `.git.blocked-<stamp>-<random>`): kept for a person to review,
 * but no longer where git or an agent would read them. The name is unguessable, so a step cannot have
 * pre-created it (a file or full folder there would make the rename fail); when no name can be taken
 * the planted entry is deleted instead (fail closed: it never stays where it was). Returns what became
 * of each: the new name, or "<name> (deleted)".
 */
export function setAside(workspace: string, names: readonly string[], stamp: string, suffix: () => string = randomSuffix): string[] {
  return names.map((name) => moveAside(workspace, name, stamp, suffix))
}

/** An unguessable part for a name a step must not be able to pre-create. */
export const randomSuffix = (): string => randomBytes(6).toString("hex")

const TRIES = 4

function moveAside(workspace: string, name: string, stamp: string, suffix: () => string): string {
  const from = join(workspace, name)
  for (let i = 0; i < TRIES; i++) {
    const aside = `${name}.blocked-${stamp}-${suffix()}`
    // rename(2) never follows the planted entry: a symlink `.git` is moved as the link itself
    if (!existsSync(join(workspace, aside)) && tryRename(from, join(workspace, aside))) return aside
  }
  // rmSync does not follow a symlink at the top, nor links inside a folder it deletes
  rmSync(from, { recursive: true, force: true })
  if (lexists(from)) throw new Error(`the step planted ${from}, which could be neither moved aside nor deleted; delete it before running git or an agent here`)
  return `${name} (deleted)`
}

function tryRename(from: string, to: string): boolean {
  try {
    renameSync(from, to)
    return true
  } catch {
    return false
  }
}

function lexists(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}
