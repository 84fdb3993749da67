// The entries of a repository's index, and the submodule paths it records (entries of mode 160000, "gitlinks"): git status
// and git diff run git status inside each one that is checked out, under THAT repository's config,
// whether or not .gitmodules names it. Reads the index (versions 2 to 4, SHA-1 or SHA-256 names);
// an index it cannot read is reported, never taken as "no submodules". Pure but for the read.
import { readFileSync, statSync } from "node:fs"

const MAX_INDEX_BYTES = 64 * 1024 * 1024
const GITLINK = 0o160000

/** An index entry: its path, mode and the work-tree file's size and mtime (seconds) when it was staged. */
export interface IndexEntry {
  path: string
  mode: number
  size: number
  mtime: number
}

/** The gitlink paths of an index file ([] when there is no index), or why it could not be read. */
export function gitlinkPaths(indexFile: string): string[] | { why: string } {
  const entries = indexEntries(indexFile)
  return Array.isArray(entries) ? entries.filter((e) => (e.mode & 0o170000) === GITLINK).map((e) => e.path) : entries
}

let cached: { file: string; key: string; entries: IndexEntry[] } | undefined

/** Every entry of an index file ([] when there is no index), or why it could not be read; the last
 *  answer is kept while the file's stat data stays the same. */
export function indexEntries(indexFile: string): IndexEntry[] | { why: string } {
  let st
  try {
    st = statSync(indexFile, { throwIfNoEntry: false })
  } catch {
    // a path through a file (ENOTDIR): no index there
    return []
  }
  if (!st) return []
  if (!st.isFile() || st.size > MAX_INDEX_BYTES) return { why: `${indexFile} (not an index ccode reads)` }
  const key = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`
  if (cached?.file === indexFile && cached.key === key) return cached.entries
  let buf: Buffer
  try {
    buf = readFileSync(indexFile)
  } catch {
    return { why: `${indexFile} (unreadable)` }
  }
  const entries = parseIndex(buf, 20) ?? parseIndex(buf, 32)
  if (!entries) return { why: `${indexFile} (an index ccode cannot read)` }
  cached = { file: indexFile, key, entries }
  return entries
}

// the entries as read-cache.c writes them: 40 bytes of stat data and mode, the object name, 16 bits of
// flags (and 16 more with the extended bit, version 3 and up), the path; versions 2 and 3 pad each entry
// with NULs to a multiple of 8, version 4 writes the path as "drop N bytes of the previous one, add this"
function parseIndex(buf: Buffer, hashLen: number): IndexEntry[] | undefined {
  if (buf.length < 12 || buf.toString("latin1", 0, 4) !== "DIRC") return undefined
  const version = buf.readUInt32BE(4)
  if (version < 2 || version > 4) return undefined
  const count = buf.readUInt32BE(8)
  const end = buf.length - hashLen
  const out: IndexEntry[] = []
  let at = 12
  let previous = ""
  for (let n = 0; n < count; n++) {
    const start = at
    if (at + 40 + hashLen + 2 > end) return undefined
    const mode = buf.readUInt32BE(at + 24)
    const mtime = buf.readUInt32BE(at + 8)
    const size = buf.readUInt32BE(at + 36)
    const flags = buf.readUInt16BE(at + 40 + hashLen)
    at += 40 + hashLen + 2
    if (flags & 0x4000) {
      if (version < 3) return undefined
      at += 2
    }
    let path: string
    if (version === 4) {
      let c = buf[at++]
      if (c === undefined) return undefined
      let drop = c & 127
      while (c & 128) {
        c = buf[at++]
        if (c === undefined) return undefined
        drop = ((drop + 1) << 7) + (c & 127)
      }
      const nul = buf.indexOf(0, at)
      if (nul < 0 || nul >= end || drop > previous.length) return undefined
      path = previous.slice(0, previous.length - drop) + buf.toString("utf8", at, nul)
      at = nul + 1
    } else {
      const nul = buf.indexOf(0, at)
      if (nul < 0 || nul >= end) return undefined
      path = buf.toString("utf8", at, nul)
      at = start + ((nul - start + 8) & ~7)
    }
    if (!path) return undefined
    out.push({ path, mode, size, mtime })
    previous = path
  }
  // then extensions (a 4-byte signature and a 4-byte size each) up to the checksum; a split index
  // ("link") keeps entries in another file, not read here
  while (at < end) {
    if (at + 8 > end) return undefined
    const sig = buf.toString("latin1", at, at + 4)
    if (sig === "link" || !/^[A-Za-z]{4}$/.test(sig)) return undefined
    at += 8 + buf.readUInt32BE(at + 4)
  }
  return at === end ? out : undefined
}
