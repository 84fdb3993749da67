// Commits a run made in the workspace's own repository: undo restores files, never history, so it
// lists these with the command that would revert them. Read only; through safe git (nothing the
// repository configures runs).
import { safeGit } from "../git/safe-git.ts"

export interface RunCommit {
  hash: string
  subject: string
}

/** Commits (newest first) whose commit time falls within [from, to] (ms), on the checked-out branch. */
export async function commitsDuring(workspace: string, from: number, to: number): Promise<RunCommit[]> {
  const log = await safeGit(
    ["log", `--since=@${Math.floor(from / 1000)}`, `--until=@${Math.ceil(to / 1000) + 1}`, "--format=%H%x09%s", "HEAD"],
    { cwd: workspace, check: false },
  ).catch(() => undefined)
  if (!log || log.exitCode !== 0) return [] // not a repository, or no commits yet
  return log.stdout.split("\n").filter(Boolean).map((line) => {
    const [hash, ...subject] = line.split("\t")
    return { hash: hash!, subject: subject.join("\t") }
  })
}
