// Resuming a run somewhere else than where its last segment ran (another host or another CCODE_HOME,
// as a shared PostgreSQL store allows): only onto the workspace that segment left, the same
// repository, commit and files, or not at all. Each segment records where it runs when it starts
// and, when it ends cleanly, a mark of the workspace it leaves; a segment that never ended (a crash)
// left no mark, and its run resumes only where it ran (its calls in flight and their processes can
// be checked only there).
import { hostname } from "node:os"
import { sha256 } from "../base/hash.ts"
import { describeDiff, diffFingerprints, type Fingerprint } from "../guards/index.ts"

/** Where a segment ran and, once it ended, what it left (kept in the checkpoint). */
export interface Segment {
  host: string
  home: string
  workspace?: WorkspaceMark
}

/** A workspace in brief: equal marks, equal workspaces (same root, tracking, commit and file contents). */
export interface WorkspaceMark {
  root: string
  kind: Fingerprint["kind"]
  /** git: the checked-out commit */
  head?: string
  /** over every file's path and content hash (git: the files that differ from HEAD) */
  digest: string
  files: number
}

export function segmentHere(home: string): Segment {
  return { host: hostname(), home }
}

/** Pure. */
export function workspaceMark(fingerprint: Fingerprint): WorkspaceMark {
  const files = Object.keys(fingerprint.files).sort()
  const listing = files.map((path) => `${path}\0${fingerprint.files[path]?.hash ?? "-"}`).join("\n")
  return { root: fingerprint.root, kind: fingerprint.kind, ...(fingerprint.head ? { head: fingerprint.head } : {}), digest: sha256(listing), files: files.length }
}

/** Is `here` somewhere else than where `last` ran? A run from before segments were recorded is taken as local. */
export function isElsewhere(last: Segment | undefined, here: Segment): boolean {
  return last !== undefined && (last.host !== here.host || last.home !== here.home)
}

/**
 * Why the run cannot continue here, or undefined when it can. Pure. `stored`: the full fingerprint
 * the last segment left, when it can be read here (it names the files that differ).
 */
export function elsewhereRefusal(runId: string, last: Segment, now: Fingerprint, stored?: Fingerprint): string | undefined {
  const where = `host ${last.host}, CCODE_HOME ${last.home}`
  if (!last.workspace) {
    return `run ${runId} last ran on ${where} and did not end cleanly there (no record of the workspace it left); resume it there, where its calls in flight can be checked`
  }
  const mark = workspaceMark(now)
  const before = last.workspace
  const differences: string[] = []
  if (before.root !== mark.root) differences.push(`workspace ${before.root} there, ${mark.root} here`)
  if (before.kind !== mark.kind) differences.push(`the workspace is ${before.kind === "git" ? "" : "not "}a git repository there, ${mark.kind === "git" ? "is" : "is not"} here`)
  if (before.head !== mark.head) differences.push(`commit ${before.head ?? "(none)"} there, ${mark.head ?? "(none)"} here`)
  if (!differences.length && before.digest !== mark.digest) {
    const diff = stored && stored.root === now.root ? diffFingerprints(stored, now) : undefined
    differences.push(diff?.changed ? describeDiff(diff) : `the files differ (${before.files} file(s) recorded there, ${mark.files} here)`)
  }
  if (!differences.length) return undefined
  return `run ${runId} cannot resume here: the workspace is not the one its last segment left on ${where} — ${differences.join("; ")}. Resume it there, or make this workspace the same (same repository, commit and files)`
}
