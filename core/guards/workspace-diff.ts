// What changed in the workspace between two fingerprints, and the pause that reports a change
// ccode did not make. Pure: fingerprints are plain JSON taken elsewhere (fingerprint.ts).
import { trip, type Trip } from "./trip.ts"

/** One file as last seen. `hash` null: the file is gone (git reports it deleted). */
export interface FileMark {
  hash: string | null
  size: number
  mtimeMs: number
  /** git: the two-letter porcelain status ("??" untracked, " M", "D ", ...) */
  status?: string
}

export interface Fingerprint {
  /** git: only files git reports as changed or untracked (a clean file matches HEAD); walk: every file */
  kind: "git" | "walk"
  root: string
  /** git: the checked-out commit ("(initial)" before the first commit) */
  head?: string
  /** by path relative to root, "/"-separated */
  files: Record<string, FileMark>
  takenAt: number
  /** the walk stopped at its file cap: files past it were not looked at */
  truncated?: boolean
  /** `files` was written to this file instead (a big walk stays out of the checkpoint) */
  stored?: string
}

export interface WorkspaceDiff {
  changed: boolean
  added: string[]
  removed: string[]
  modified: string[]
  head?: { before?: string; after?: string }
  kind?: { before: Fingerprint["kind"]; after: Fingerprint["kind"] }
}

export function diffFingerprints(before: Fingerprint, after: Fingerprint): WorkspaceDiff {
  const added: string[] = []
  const removed: string[] = []
  const modified: string[] = []
  const headMoved = before.head !== after.head
  // a git fingerprint lists changed files only, a walk lists all: across kinds only the switch itself is news
  const paths = before.kind === after.kind ? new Set([...Object.keys(before.files), ...Object.keys(after.files)]) : []
  for (const path of paths) {
    const change = after.kind === "git"
      ? gitChange(markAt(before.files, path), markAt(after.files, path), headMoved)
      : walkChange(markAt(before.files, path), markAt(after.files, path))
    if (change === "added") added.push(path)
    else if (change === "removed") removed.push(path)
    else if (change === "modified") modified.push(path)
  }
  const diff: WorkspaceDiff = { changed: false, added: added.sort(), removed: removed.sort(), modified: modified.sort() }
  if (headMoved) diff.head = { before: before.head, after: after.head }
  if (before.kind !== after.kind) diff.kind = { before: before.kind, after: after.kind }
  diff.changed = added.length + removed.length + modified.length > 0 || headMoved || diff.kind !== undefined
  return diff
}

/** The mark of `path`, and nothing else: a file named "constructor" or "__proto__" must not find the object machinery. */
export function markAt(files: Record<string, FileMark>, path: string): FileMark | undefined {
  const value: unknown = files[path]
  if (!value || typeof value !== "object" || !Object.prototype.hasOwnProperty.call(value, "hash")) return undefined
  return typeof (value as FileMark).size === "number" ? (value as FileMark) : undefined
}

/** Set a mark as the files' own property, whatever the path is called (a plain assignment to "__proto__" would not). */
export function setMark(files: Record<string, FileMark>, path: string, mark: FileMark): void {
  Object.defineProperty(files, path, { value: mark, enumerable: true, writable: true, configurable: true })
}

/** One line per kind of change, file lists shortened. */
export function describeDiff(diff: WorkspaceDiff, maxFiles = 10): string {
  const parts: string[] = []
  const list = (files: string[]) => files.slice(0, maxFiles).join(", ") + (files.length > maxFiles ? ` and ${files.length - maxFiles} more` : "")
  if (diff.modified.length) parts.push(`modified: ${list(diff.modified)}`)
  if (diff.added.length) parts.push(`added: ${list(diff.added)}`)
  if (diff.removed.length) parts.push(`removed: ${list(diff.removed)}`)
  if (diff.head) parts.push(`HEAD moved from ${diff.head.before ?? "?"} to ${diff.head.after ?? "?"}`)
  if (diff.kind) parts.push(`the workspace changed from ${diff.kind.before} to ${diff.kind.after} tracking`)
  return parts.join("; ")
}

/** The pause for a workspace that changed between two of ccode's steps. */
export function externalChangeTrip(diff: WorkspaceDiff): Trip {
  const reason =
    `The workspace changed outside ccode since the last step (${describeDiff(diff)}).` +
    " Check the changes, then `ccode resume` to go on with the workspace as it is now" +
    " (or set workspace.detect_external_changes: false in the policy)."
  return trip("external_change", "pause", reason, {
    added: diff.added,
    removed: diff.removed,
    modified: diff.modified,
    head: diff.head,
  })
}

type Change = "added" | "removed" | "modified" | undefined

function walkChange(before: FileMark | undefined, after: FileMark | undefined): Change {
  const was = before !== undefined && before.hash !== null
  const is = after !== undefined && after.hash !== null
  if (!was && is) return "added"
  if (was && !is) return "removed"
  if (was && is && before!.hash !== after!.hash) return "modified"
  return undefined
}

// In git mode a missing mark means "as in HEAD" (or not there at all), not "absent".
function gitChange(before: FileMark | undefined, after: FileMark | undefined, headMoved: boolean): Change {
  if (!before && after) {
    if (after.hash === null) return "removed"
    return after.status === "??" ? "added" : "modified"
  }
  if (before && !after) {
    if (before.hash === null) return "added" // restored from HEAD
    return before.status === "??" && !headMoved ? "removed" : "modified"
  }
  if (before && after && before.hash !== after.hash) {
    if (after.hash === null) return "removed"
    return before.hash === null ? "added" : "modified"
  }
  return undefined
}
