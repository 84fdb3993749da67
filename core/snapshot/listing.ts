// What a snapshot holds and what the workspace holds now: git's file listings plus the modes git
// does not keep (anything but 644/755) and empty directories. Reads the workspace, never writes it.
import { lstatSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { readIndexFile } from "./index-file.ts"
import type { ShadowRepo } from "./repo.ts"

export interface Entry {
  /** git mode: 100644, 100755, 120000 (symlink), 160000 (nested repository, left alone) */
  mode: string
  oid: string
}

/** Permission bits git cannot keep: files not 644/755, directories not 755, and every empty directory. */
export interface Manifest {
  files: Record<string, number>
  dirs: Record<string, number>
  empty: string[]
}

export interface Listing {
  files: Map<string, Entry>
  manifest: Manifest
}

/**
 * The workspace as it is now: the index once `adding` (a running `git add -A`) is done, and the modes
 * git does not keep. While git looks at every file, the modes of the files the index held before it
 * (nearly all of them) are read here, on the other core.
 */
export async function workspaceListing(repo: ShadowRepo, adding: Promise<void>): Promise<Listing> {
  let early: Map<string, number | undefined> | undefined
  try {
    early = readPerms(repo.workspace, indexListing(repo.gitDir)?.keys() ?? [])
  } finally {
    await adding
  }
  const others = repo.git(["ls-files", "-o", "--directory", "--exclude-standard", "-z"])
  // read while git lists the others; git itself is asked only when the file is not one to vouch for
  const files = indexListing(repo.gitDir) ?? parseStaged((await repo.git(["ls-files", "-s", "-z"])).stdout)
  const empty = (await others).stdout.split("\0").filter((p) => p.endsWith("/")).map((p) => p.slice(0, -1))
  return { files, manifest: readModes(repo.workspace, files, empty, early) }
}

function indexListing(gitDir: string): Map<string, Entry> | undefined {
  const index = readIndexFile(join(gitDir, "index"))
  if (!index || index.required.length || index.entries.some((e) => e.stage !== 0)) return undefined
  return new Map(index.entries.map((e) => [e.path, { mode: e.mode, oid: e.oid }]))
}

function parseStaged(text: string): Map<string, Entry> {
  const files = new Map<string, Entry>()
  for (const record of text.split("\0")) {
    const tab = record.indexOf("\t")
    if (tab < 0) continue
    const [mode, oid] = record.slice(0, tab).split(" ")
    files.set(record.slice(tab + 1), { mode: mode!, oid: oid! })
  }
  return files
}

/** The files of a snapshot commit. */
export async function snapshotFiles(repo: ShadowRepo, ref: string): Promise<Map<string, Entry>> {
  const listed = await repo.git(["ls-tree", "-r", "-z", "--full-tree", ref])
  const files = new Map<string, Entry>()
  for (const record of listed.stdout.split("\0")) {
    const tab = record.indexOf("\t")
    if (tab < 0) continue
    const [mode, , oid] = record.slice(0, tab).split(" ")
    files.set(record.slice(tab + 1), { mode: mode!, oid: oid! })
  }
  return files
}

export function canonicalMode(gitMode: string): number {
  return gitMode === "100755" ? 0o755 : 0o644
}

export const DIR_MODE = 0o755

function readPerms(root: string, paths: Iterable<string>): Map<string, number | undefined> {
  const perms = new Map<string, number | undefined>()
  for (const path of paths) perms.set(path, permOf(join(root, path)))
  return perms
}

function readModes(root: string, files: Map<string, Entry>, listedEmpty: string[], early: Map<string, number | undefined>): Manifest {
  const empty = listedEmpty.flatMap((dir) => [dir, ...subdirectories(root, dir)])
  const manifest: Manifest = { files: {}, dirs: {}, empty }
  for (const [path, entry] of files) {
    if (entry.mode !== "100644" && entry.mode !== "100755") continue
    const perm = early.has(path) ? early.get(path) : permOf(join(root, path))
    if (perm !== undefined && perm !== canonicalMode(entry.mode)) manifest.files[path] = perm
  }
  for (const dir of directoriesOf(files.keys(), empty)) {
    const perm = permOf(join(root, dir))
    if (perm !== undefined && perm !== DIR_MODE) manifest.dirs[dir] = perm
  }
  return manifest
}

/** git lists only the top of a tree of empty directories; the ones below it count too. */
function subdirectories(root: string, dir: string): string[] {
  const found: string[] = []
  try {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === ".git") continue
      const sub = `${dir}/${entry.name}`
      found.push(sub, ...subdirectories(root, sub))
    }
  } catch {
    // unreadable: nothing more to record
  }
  return found
}

export function permOf(path: string): number | undefined {
  try {
    return lstatSync(path).mode & 0o7777
  } catch {
    return undefined
  }
}

/** Every directory a listing needs: parents of its files, its empty directories and their parents. Pure. */
export function directoriesOf(files: Iterable<string>, empty: readonly string[]): Set<string> {
  const dirs = new Set<string>()
  // every directory enters with all its parents, so meeting a known one ends the climb
  const add = (dir: string) => {
    for (let d = dir; d && !dirs.has(d); d = d.slice(0, Math.max(0, d.lastIndexOf("/")))) dirs.add(d)
  }
  for (const dir of empty) add(dir)
  for (const path of files) add(path.slice(0, Math.max(0, path.lastIndexOf("/"))))
  return dirs
}
