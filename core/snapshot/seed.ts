// A cold start for the shadow repository of a git work tree: start from a copy of the user's index,
// so the first snapshot hashes only what differs from it instead of every file. The blobs of files
// that did not differ stay in the user's repository and are copied over only when a restore needs
// them (not git alternates: writing through those touches the user's objects' mtimes). Reads the
// user's repository, never writes it. Skipped whenever the user's blobs may not be the bytes on disk
// (filters, eol conversion, attributes) or the index is not a plain one (split, sparse, flagged).
import { copyFileSync, existsSync, lstatSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { safeGit } from "../git/safe-git.ts"
import { readIndexFile } from "./index-file.ts"
import { writeObject } from "./objects.ts"
import { SnapshotError, type ShadowRepo } from "./repo.ts"

/** $GIT_DIR/ccode-seeded-from: the user's git directory whose blobs the snapshots may refer to */
const SEEDED_FROM = "ccode-seeded-from"

/** Seed `repo` (just created, empty) from the git work tree at its workspace, when that is safe. True when seeded. */
export async function seedFromUserRepo(repo: ShadowRepo): Promise<boolean> {
  const root = repo.workspace
  const userGit = join(root, ".git")
  if (!isDirectory(userGit) || !existsSync(join(userGit, "index")) || existsSync(join(userGit, "info", "attributes"))) return false
  const opts = { cwd: root, filters: [] as string[], timeoutMs: 30_000 }
  const [top, config] = await Promise.all([
    safeGit(["rev-parse", "--show-toplevel"], opts),
    // anything that makes a blob differ from the file's bytes, or an index that is not one plain file
    safeGit(["config", "-z", "--get-regexp", "^(filter\\..*|core\\.(autocrlf|eol|attributesfile|splitindex|sparsecheckout)|index\\.sparse)$"], opts),
  ])
  if (top.exitCode !== 0 || top.stdout.trim() !== root) return false
  if (config.stdout.length || config.exitCode > 1) return false
  const index = join(repo.gitDir, "index")
  const origin = join(repo.gitDir, SEEDED_FROM)
  try {
    writeFileSync(origin, `${userGit}\n`)
    copyFileSync(join(userGit, "index"), index)
    // the same mtime as the user's index: git's check for racily clean entries works as it does there
    const { atime, mtime } = statSync(join(userGit, "index"))
    utimesSync(index, atime, mtime)
    // the copy is read as it is (not the user's index, which git may be rewriting meanwhile): one that is
    // not plain (split: its shared part is not here; sparse), entries git is told not to look at
    // (assume-unchanged, skip-worktree) that would never be staged again, or a .gitattributes anywhere
    const copy = readIndexFile(index)
    if (!copy || copy.required.length) throw new Error("not a plain index")
    if (copy.entries.some((e) => e.stage !== 0 || e.assumeValid || e.skipWorktree || e.path === ".gitattributes" || e.path.endsWith("/.gitattributes"))) {
      throw new Error("flagged entries, or attributes")
    }
    return true
  } catch {
    rmSync(index, { force: true })
    rmSync(origin, { force: true })
    return false
  }
}

/** Copy into the shadow repository the blobs among `oids` it does not hold, from the repository it was seeded from. */
export async function fetchMissing(repo: ShadowRepo, oids: readonly string[]): Promise<void> {
  if (!oids.length) return
  const check = await repo.git(["cat-file", "--batch-check=%(objectname) %(objecttype)"], { input: `${[...new Set(oids)].join("\n")}\n`, check: false })
  const missing = check.stdout.split("\n").filter((line) => line.endsWith(" missing")).map((line) => line.split(" ")[0]!)
  if (!missing.length) return
  const origin = join(repo.gitDir, SEEDED_FROM)
  const userGit = existsSync(origin) ? readFileSync(origin, "utf8").trim() : ""
  if (!userGit || !isDirectory(userGit)) throw new SnapshotError(`${missing.length} file(s) of the snapshot are not in ${repo.gitDir}, and the repository it was seeded from (${userGit || "unknown"}) is gone`)
  const batch = await safeGit(["cat-file", "--batch"], { cwd: repo.workspace, gitDir: userGit, filters: [], input: `${missing.join("\n")}\n`, timeoutMs: 10 * 60_000 })
  const bytes = batch.stdoutBytes
  let at = 0
  for (const oid of missing) {
    const end = bytes.indexOf(10, at)
    const header = new TextDecoder().decode(bytes.subarray(at, end)).split(" ")
    if (header[1] !== "blob") throw new SnapshotError(`blob ${oid} of a snapshot is missing from ${repo.gitDir} and from ${userGit}; was that repository's history rewritten and pruned?`)
    const size = Number(header[2])
    if (writeObject(repo.gitDir, "blob", bytes.subarray(end + 1, end + 1 + size)) !== oid) throw new SnapshotError(`blob ${oid} from ${userGit} does not hash to its name`)
    at = end + 1 + size + 1
  }
}

function isDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory()
  } catch {
    return false
  }
}
