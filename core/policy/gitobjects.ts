// Git objects a command names by id (`git cat-file -p 8fa3b80`, `git show <blob id>`): a blob's content is
// printed, so the blob is placed: the paths the index and the history (every ref and reflog) hold it at.
// A blob nothing holds (a `.env` staged and then unstaged: a dangling object `git fsck` lists) has no name
// to judge: it is reported as such, for the caller to ask. Runs git with the hardened argv and environment
// ccode's own git calls use (no configured program runs). Side effects: runs git (one call per blob).
import { safeGitArgv, safeGitEnv } from "../git/safe-git.ts"

const TIMEOUT_MS = 3_000
const MAX_OBJECTS = 16

export interface PlacedObjects {
  /** the repository-relative paths the named blobs are held at */
  paths: string[]
  /** why a named blob could not be placed (no commit or index entry holds it, or git could not say) */
  unplaced?: string
}

/** Where the blobs among `names` (revisions as a command gives them) are held in the repository at `top`. */
export function placeObjects(top: string, names: readonly string[]): PlacedObjects {
  if (names.length > MAX_OBJECTS) return { paths: [], unplaced: `it names more than ${MAX_OBJECTS} objects to look up` }
  if (names.some((n) => /[\n\r\0]/.test(n))) return { paths: [], unplaced: "it names an object with a line break in its name" }
  // peeled (`^{}`): a tag naming a blob prints the blob too
  const check = run(top, ["cat-file", "--batch-check=%(objectname) %(objecttype)"], names.map((n) => `${n}^{}\n`).join(""))
  if (typeof check === "string") return { paths: [], unplaced: `${check} looking up the objects it names` }
  const blobs = new Set<string>()
  for (const line of check.out.split("\n")) {
    const m = /^([0-9a-f]{40,64}) blob$/.exec(line)
    if (m) blobs.add(m[1]!)
  }
  if (!blobs.size) return { paths: [] }
  const index = run(top, ["ls-files", "-s", "-z"])
  if (typeof index === "string") return { paths: [], unplaced: `${index} reading the index` }
  const paths = new Set<string>()
  for (const oid of blobs) {
    const before = paths.size
    for (const e of index.out.split("\0")) {
      const m = /^\d+ ([0-9a-f]+) \d+\t(.*)$/s.exec(e)
      if (m?.[1] === oid) paths.add(m[2]!)
    }
    const history = run(top, ["log", "--all", "--reflog", "-m", `--find-object=${oid}`, "--name-only", "--format=", "-z", "--no-renames"])
    if (typeof history === "string") return { paths: [...paths], unplaced: `${history} placing blob ${oid.slice(0, 12)} in the history` }
    for (const n of history.out.split(/[\0\n]/)) if (n) paths.add(n)
    if (paths.size === before) {
      return { paths: [...paths], unplaced: `blob ${oid.slice(0, 12)} is held by no commit, reflog entry or index entry (a file staged and dropped before any commit): its file name is not known, it could be a credential file` }
    }
  }
  return { paths: [...paths] }
}

// git's output, or why there is none (a failure says nothing about what the command would print)
function run(top: string, args: string[], input?: string): { out: string } | string {
  try {
    const r = Bun.spawnSync(["git", "-c", "safe.directory=*", ...safeGitArgv(args, [])], {
      cwd: top, env: safeGitEnv(process.env, {}), stdin: input === undefined ? "ignore" : Buffer.from(input), stdout: "pipe", stderr: "ignore", timeout: TIMEOUT_MS,
    })
    if (r.exitedDueToTimeout) return `git took longer than ${TIMEOUT_MS / 1000}s`
    if (r.exitCode !== 0) return "git failed"
    return { out: r.stdout.toString("utf8") }
  } catch {
    return "git could not be run"
  }
}
