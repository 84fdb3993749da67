// Commits a run made in the workspace's own repository: undo restores files, never history, so it
// lists these with the command that would revert them. The run's own: the moves of HEAD that the
// repository's reflog records while one of the run's calls was running, so a commit someone made
// between the run's calls (while it waited for an approval, say) is not listed. Read only; through
// safe git (nothing the repository configures runs).
import { existsSync, readFileSync } from "node:fs"
import { isAbsolute, join } from "node:path"
import { safeGit } from "../git/safe-git.ts"

export interface RunCommit {
  hash: string
  subject: string
}

/** A move of HEAD as the reflog records it (its time to the second). */
export interface HeadMove {
  from: string
  to: string
  /** seconds since the epoch */
  at: number
  message: string
}

/** A call's time span (ms); `finishedAt` null: it never finished (the run's end stands in). */
export interface CallSpan {
  seq: number
  startedAt: number
  finishedAt: number | null
}

/**
 * Commits (newest first) the run's calls from `fromStep` on made on the checked-out branch. Without a
 * reflog to read (a repository that keeps none), those whose commit time falls within [from, to].
 */
export async function commitsOfRun(workspace: string, calls: readonly CallSpan[], span: { fromStep: number; from: number; to: number }): Promise<RunCommit[]> {
  const reflog = await readReflog(workspace)
  if (!reflog) return commitsDuring(workspace, span.from, span.to)
  const moves = movesDuringCalls(reflog, calls.filter((c) => c.seq >= span.fromStep), span.to)
  const found: RunCommit[] = []
  // newest move first; within a move, git log lists newest first
  for (const move of moves.reverse()) {
    // only what is still in the branch's history: a commit since reset away is not there to revert
    const kept = await safeGit(["merge-base", "--all", move.to, "HEAD"], { cwd: workspace, check: false }).catch(() => undefined)
    const bases = kept?.exitCode === 0 ? kept.stdout.split("\n").filter(Boolean) : []
    if (!bases.length) continue
    const range = /^0+$/.test(move.from) ? bases : [...bases, "--not", move.from]
    for (const commit of await log(workspace, range)) if (!found.some((c) => c.hash === commit.hash)) found.push(commit)
  }
  return found
}

/**
 * The moves made while a call ran: the reflog's second contains part of the call's span. A branch
 * switched (checkout) brings no commit of the run's. Pure.
 */
export function movesDuringCalls(moves: readonly HeadMove[], calls: readonly CallSpan[], end: number): HeadMove[] {
  return moves.filter((m) => {
    if (m.from === m.to || m.message.startsWith("checkout:")) return false
    return calls.some((c) => m.at >= Math.floor(c.startedAt / 1000) && m.at <= Math.floor((c.finishedAt ?? end) / 1000))
  })
}

/** The lines of a reflog file (`old new name <email> seconds zone<TAB>message`), oldest first. Pure. */
export function parseReflog(text: string): HeadMove[] {
  const moves: HeadMove[] = []
  for (const line of text.split("\n")) {
    const m = /^([0-9a-f]{40,64}) ([0-9a-f]{40,64}) .*> (\d+) [+-]\d{4}\t?(.*)$/.exec(line)
    if (m) moves.push({ from: m[1]!, to: m[2]!, at: Number(m[3]), message: m[4]! })
  }
  return moves
}

async function readReflog(workspace: string): Promise<HeadMove[] | undefined> {
  const dir = await safeGit(["rev-parse", "--git-dir"], { cwd: workspace, check: false }).catch(() => undefined)
  if (!dir || dir.exitCode !== 0) return undefined
  const gitDir = dir.stdout.trim()
  const file = join(isAbsolute(gitDir) ? gitDir : join(workspace, gitDir), "logs", "HEAD")
  return existsSync(file) ? parseReflog(readFileSync(file, "utf8")) : undefined
}

/** Commits (newest first) whose commit time falls within [from, to] (ms), on the checked-out branch. */
export async function commitsDuring(workspace: string, from: number, to: number): Promise<RunCommit[]> {
  return log(workspace, [`--since=@${Math.floor(from / 1000)}`, `--until=@${Math.ceil(to / 1000) + 1}`, "HEAD"])
}

async function log(workspace: string, args: string[]): Promise<RunCommit[]> {
  const out = await safeGit(["log", "--format=%H%x09%s", ...args, "--"], { cwd: workspace, check: false }).catch(() => undefined)
  if (!out || out.exitCode !== 0) return [] // not a repository, no commits yet, or a commit since removed
  return out.stdout.split("\n").filter(Boolean).map((line) => {
    const [hash, ...subject] = line.split("\t")
    return { hash: hash!, subject: subject.join("\t") }
  })
}
