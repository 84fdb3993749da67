// A credential file's blob can sit in a repository under another name: a note whose blob is a committed
// .env's (`git notes add -C ID`), an index entry that gives it a new path (`update-index --cacheinfo`).
// `git log`/`git show` print notes, `git diff --cached`/`git grep --cached` print the index: the blobs
// they print are compared with the blobs the history holds under a credential's name and with the blob ids
// of the working tree's credential files on disk (a .env never committed), hashed as git hash-object does. Side effects: runs
// git (hardened, bounded) to list the history's blobs (kept while the refs stay the same), the notes and the index.
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { createHash } from "node:crypto"
import { findRepo, refsState, runGit, type Repo } from "./gitcontent.ts"
import { workspaceCredentialFiles } from "./wscreds.ts"
import { readRegularBytes } from "../base/readsafe.ts"

/** How many of the working tree's credential files are hashed, and how large each may be. */
const MAX_DISK_FILES = 500
const MAX_DISK_BYTES = 4 << 20

const MAX_NOTES = 5_000
const kept = new Map<string, { key: string; blobs: Map<string, string> | string }>()

/** Why the notes or the index print a credential's blob under another name (`high`), or why that could not be
 *  ruled out (`medium`: the notes or the history could not be listed within the bound); undefined when they
 *  do not. The index is looked at only when the history's blobs could be listed. */
export function rehomedCredential(start: string, judged: (path: string) => boolean, what: { notes?: boolean; index?: boolean }): { risk: "high" | "medium"; reason: string } | undefined {
  const why = rehomed(start, judged, what)
  if (!why) return undefined
  return why.startsWith("!") ? { risk: "medium", reason: why.slice(1) } : { risk: "high", reason: why }
}

function rehomed(start: string, judged: (path: string) => boolean, what: { notes?: boolean; index?: boolean }): string | undefined {
  const repo = findRepo(start)
  if (!repo) return undefined
  const notes = what.notes && hasNotes(repo) ? noteBlobs(repo) : []
  if (typeof notes === "string") return `!prints notes, and ${notes}: a note could be a credential file's blob`
  if (!notes.length && !what.index) return undefined
  const history = credentialBlobs(repo, judged)
  if (typeof history === "string") return notes.length ? `!prints notes, and ${history}: a note could be a credential file's blob` : undefined
  for (const oid of notes) {
    const name = history.get(oid)
    if (name) return `a note it prints is the blob of ${name} (a credential file in the history): printing the note prints the file`
  }
  let entries: { oid: string; path: string }[] = []
  if (what.index) {
    const index = runGit(repo.top, ["ls-files", "-s", "-z"])
    if (typeof index !== "string" && index.exitCode === 0) {
      for (const e of index.stdout.toString("utf8").split("\0")) {
        const m = /^\d+ ([0-9a-f]{40,64}) \d\t(.*)$/s.exec(e)
        if (m) entries.push({ oid: m[1]!, path: m[2]! })
      }
    }
  }
  for (const { oid, path } of entries) {
    const name = history.get(oid)
    if (name && name !== path) return `the index holds ${path}, whose blob is ${name}'s (a credential file in the history): printing it prints the file`
  }
  // the working tree's credential files too (a .env never committed), compared with the notes and with the
  // index entries the last commit does not hold (a file committed with .env's bytes, a .env.example it was
  // copied from, is no re-homing; and a repository with nothing staged costs no walk)
  entries = staged(repo, entries)
  if (!notes.length && !entries.length) return undefined
  const disk = diskBlobs(repo.top, judged)
  if (typeof disk === "string") return `!prints ${notes.length ? "notes" : "the index"}, and ${disk}: it could hold a credential file's blob`
  for (const oid of notes) {
    const name = disk.get(oid)
    if (name) return `a note it prints is the blob of ${name} (a credential file in the working tree): printing the note prints the file`
  }
  for (const { oid, path } of entries) {
    const name = disk.get(oid)
    if (name && name !== path) return `the index holds ${path}, whose blob is ${name}'s (a credential file in the working tree): printing it prints the file`
  }
  return undefined
}

// the index entries whose blob HEAD does not hold at that path (all of them before the first commit)
function staged(repo: Repo, entries: { oid: string; path: string }[]): { oid: string; path: string }[] {
  if (!entries.length) return entries
  const r = runGit(repo.top, ["diff-index", "--cached", "--no-renames", "--raw", "--no-abbrev", "-z", "HEAD", "--"])
  if (typeof r === "string" || r.exitCode !== 0) return entries
  const changed = new Set<string>()
  const parts = r.stdout.toString("utf8").split("\0")
  for (let i = 0; i + 1 < parts.length; i++) {
    if (!/^:\d+ \d+ [0-9a-f]+ [0-9a-f]+ \w+$/.test(parts[i]!)) continue
    changed.add(parts[++i]!)
  }
  return entries.filter((e) => changed.has(e.path))
}

// refs/notes/* as loose refs or in packed-refs (a repository without notes costs two stats)
function hasNotes(repo: Repo): boolean {
  if (existsSync(join(repo.common, "refs", "notes"))) return true
  try {
    return readFileSync(join(repo.common, "packed-refs"), "latin1").includes(" refs/notes/")
  } catch {
    return false
  }
}

function noteBlobs(repo: Repo): string[] | string {
  const refs = runGit(repo.top, ["for-each-ref", "--format=%(refname)", "refs/notes/"])
  if (typeof refs === "string" || refs.exitCode !== 0) return "its notes could not be listed"
  const out: string[] = []
  for (const ref of refs.stdout.toString("utf8").split("\n").filter(Boolean)) {
    const list = runGit(repo.top, ["notes", `--ref=${ref}`, "list"])
    if (typeof list === "string" || list.exitCode !== 0) return "its notes could not be listed"
    for (const line of list.stdout.toString("utf8").split("\n")) if (line) out.push(line.split(" ")[0]!)
    if (out.length > MAX_NOTES) return `it holds more than ${MAX_NOTES} notes`
  }
  return out
}

// blob id (sha1 and sha256 repositories) -> the credential file on disk it is (git hash-object of each)
function diskBlobs(top: string, judged: (path: string) => boolean): Map<string, string> | string {
  const found = workspaceCredentialFiles(top, judged)
  if (!found.complete) return "its working tree is too large to hash every credential file in it"
  if (found.files.length > MAX_DISK_FILES) return `its working tree holds more than ${MAX_DISK_FILES} credential files`
  const out = new Map<string, string>()
  for (const path of found.files) {
    let bytes: Buffer
    try {
      bytes = readRegularBytes(path, MAX_DISK_BYTES + 1)
    } catch {
      continue
    }
    const name = path.slice(top === "/" ? 1 : top.length + 1)
    if (bytes.length > MAX_DISK_BYTES) return `${name} is larger than ${MAX_DISK_BYTES} bytes`
    const header = Buffer.from(`blob ${bytes.length}\0`)
    for (const algo of ["sha1", "sha256"]) out.set(createHash(algo).update(header).update(bytes).digest("hex"), name)
  }
  return out
}

// blob id -> the credential name the history gives it (every ref and reflog entry), kept per refs state
function credentialBlobs(repo: Repo, judged: (path: string) => boolean): Map<string, string> | string {
  const key = refsState(repo)
  const have = kept.get(repo.gitDir)
  if (have && key !== undefined && have.key === key) return have.blobs
  const blobs = listBlobs(repo, judged)
  if (key !== undefined) kept.set(repo.gitDir, { key, blobs })
  return blobs
}

function listBlobs(repo: Repo, judged: (path: string) => boolean): Map<string, string> | string {
  const r = runGit(repo.top, ["log", "--all", "--reflog", "--raw", "--no-abbrev", "--no-renames", "--format=", "-z"])
  if (typeof r === "string") return `${r} listing the blobs of its history`
  if (r.exitCode !== 0) return "git could not list the blobs of its history"
  const out = new Map<string, string>()
  const parts = r.stdout.toString("utf8").split("\0")
  for (let i = 0; i + 1 < parts.length; i++) {
    const m = /^:\d+ \d+ ([0-9a-f]+) ([0-9a-f]+) \w+$/.exec(parts[i]!)
    if (!m) continue
    const name = parts[++i]!
    if (!judged(`${repo.top === "/" ? "" : repo.top}/${name}`)) continue
    for (const oid of [m[1]!, m[2]!]) if (!/^0+$/.test(oid)) out.set(oid, name)
  }
  return out
}
