// The entries of a repository's index, and the submodule paths it records (mode 160000, "gitlinks"): git status
// and git diff run git status inside each one that is checked out, under THAT repository's config,
// whether or not .gitmodules names it. Reads the index (versions 2 to 4, SHA-1 or SHA-256 names);
// an index it cannot read is reported, never taken as "no submodules". Pure but for the read; the
// last answer per index file is kept while the file's stat data say it is the same file, unchanged.
import { statSync, type BigIntStats } from "node:fs"
import { readRegularBytes } from "./readsafe.ts"

const MAX_INDEX_BYTES = 64 * 1024 * 1024
const GITLINK = 0o160000

type Answer = string[] | { why: string }

/** An index entry: its path, mode, and the work-tree file's size and mtime (seconds) when it was staged. */
export interface IndexEntry {
  path: string
  mode: number
  size: number
  mtime: number
}

interface Read {
  entries: readonly IndexEntry[]
  gitlinks: string[]
}

/**
 * The gitlink paths of an index file ([] when there is no index), or why it could not be read.
 * An index whose stat data (device, inode, size, mtime, ctime, to the nanosecond) are those of the
 * last read is not read again: every git decision asked, and a 100,000-file index took 10 ms to read.
 * `read`: how the file is read (tests count the reads).
 */
export function gitlinkPaths(indexFile: string, read: (path: string) => Buffer = readRegularBytes): Answer {
  const r = indexRead(indexFile, read)
  return "why" in r ? r : r.gitlinks
}

/** Every entry of an index file ([] when there is no index), or why it could not be read (kept like
 *  the gitlinks, from the same read). */
export function indexEntries(indexFile: string, read: (path: string) => Buffer = readRegularBytes): readonly IndexEntry[] | { why: string } {
  const r = indexRead(indexFile, read)
  return "why" in r ? r : r.entries
}

const NONE: Read = { entries: [], gitlinks: [] }

function indexRead(indexFile: string, read: (path: string) => Buffer): Read | { why: string } {
  let st: BigIntStats | undefined
  try {
    st = statSync(indexFile, { bigint: true, throwIfNoEntry: false })
  } catch {
    // a path through a file (ENOTDIR): no index there
    return NONE
  }
  if (!st) return NONE
  if (!st.isFile() || st.size > MAX_INDEX_BYTES) return { why: `${indexFile} (not an index ccode reads)` }
  const key = stamp(st)
  const known = remembered.get(indexFile)
  if (known?.key === key) return known.answer
  let buf: Buffer
  try {
    buf = read(indexFile)
  } catch {
    return { why: `${indexFile} (unreadable)` }
  }
  const entries = parseIndex(buf, 20) ?? parseIndex(buf, 32)
  const answer: Read | { why: string } = entries
    ? { entries: Object.freeze(entries), gitlinks: entries.filter((e) => (e.mode & 0o170000) === GITLINK).map((e) => e.path) }
    : { why: `${indexFile} (an index ccode cannot read)` }
  remember(indexFile, st, key, answer)
  return answer
}

// Every write to a file sets its ctime to the clock's time, which no program can set back; the clock
// ticks coarsely (a few ms), so two writes of the same size in one tick could leave the same stat
// data: a file changed this recently is read every time, and kept only once it has been still for
// RACY_NS before it was looked at (as git does with racily clean entries).
const RACY_NS = 2_000_000_000n
const REMEMBERED_FILES = 16
const remembered = new Map<string, { key: string; answer: Read | { why: string } }>()

function stamp(st: BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`
}

function remember(indexFile: string, st: BigIntStats, key: string, answer: Read | { why: string }): void {
  const now = BigInt(Date.now()) * 1_000_000n
  if (now - st.ctimeNs < RACY_NS || now - st.mtimeNs < RACY_NS) {
    remembered.delete(indexFile)
    return
  }
  if (remembered.size >= REMEMBERED_FILES && !remembered.has(indexFile)) remembered.clear()
  if ("gitlinks" in answer) Object.freeze(answer.gitlinks)
  remembered.set(indexFile, { key, answer })
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
