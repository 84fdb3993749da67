// The member names of an archive on disk, for judging what an extraction writes: tar (plain or gzip,
// GNU long names and pax `path` records) and zip (its central directory). Bounded in bytes read and
// members listed: past a bound, or for a format not read here (xz, bzip2, zstd, 7z...), the answer is
// "not listed" and the caller fails closed. Side effects: reads one file.
import { closeSync, readSync, statSync } from "node:fs"
import { openRegular } from "../base/readsafe.ts"
import { constants as zlibConstants, gunzipSync } from "node:zlib"
import { containerKind, cpioNames, cpioStored, isTarHeader } from "./archiveformats.ts"
import { partitionStarts } from "./partitions.ts"

/** `missing`: no such file (the extraction fails, unless an earlier part of the command makes it). */
/** `whole`: names also taken as they stand, whatever -pN strips (a diff's `Index:` lines) */
export type Listing = { names: string[]; whole?: string[] } | { unknown: string; missing?: true }

const MAX_MEMBERS = 20000
const MAX_GZIP_BYTES = 32 * 1024 * 1024
const MAX_TAR_BYTES = 256 * 1024 * 1024

/** The names (and link targets) of the archive's members, or why they could not be listed. */
export function archiveMembers(path: string): Listing {
  const st = statSync(path, { throwIfNoEntry: false })
  if (!st) return { unknown: "it does not exist yet", missing: true }
  if (!st.isFile()) return { unknown: "it is not a plain file" }
  const head = readAt(path, 0, 4)
  if (head[0] === 0x1f && head[1] === 0x8b) {
    if (st.size > MAX_GZIP_BYTES) return { unknown: `a compressed archive larger than ${MAX_GZIP_BYTES >> 20} MiB` }
    let data: Buffer
    try {
      data = gunzipSync(readAt(path, 0, st.size), { maxOutputLength: MAX_TAR_BYTES })
    } catch {
      return { unknown: "it does not decompress within the bound" }
    }
    const read = (at: number, n: number) => data.subarray(at, at + n)
    return containerKind(data.subarray(0, 512)) === "cpio" ? cpioNames(read, data.length) : tarNames(read, data.length)
  }
  if (head[0] === 0x50 && head[1] === 0x4b) return zipNames(path, st.size)
  if (st.size >= 8 && readAt(path, 0, 8).toString("latin1") === "!<arch>\n") return arNames(path, st.size)
  if (st.size >= 512 && readAt(path, 257, 5).toString("latin1") === "ustar") return tarNames((at, n) => readAt(path, at, n), st.size)
  // v7 tar (no magic: its header checksum) and cpio store members as tar does
  const kind = containerKind(readAt(path, 0, 512))
  if (kind === "cpio") return cpioNames((at, n) => readAt(path, at, n), st.size)
  if (kind === "tar") return tarNames((at, n) => readAt(path, at, n), st.size)
  return { unknown: "a format ccode does not list (only tar, cpio, ar, their gzip forms and zip)" }
}

/** What kind of archive a plain file is: one archiveMembers lists (zip, tar of any kind, ar, cpio, or gzip
 *  whose first block inflates to a tar or cpio header), a filesystem image, or another container that may
 *  store its files as they are; undefined for none (or a file that cannot be read). Reads 2 KiB (and 5 bytes
 *  at 32769), or inflates at most 64 KiB of a gzip. */
export function archiveKind(path: string, size: number): "listed" | "image" | "other" | undefined {
  try {
    const head = readAt(path, 0, 2048)
    if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 3 && head[3] === 4) return "listed"
    if (size >= 512 && head.subarray(257, 262).toString("latin1") === "ustar") return "listed"
    if (size >= 8 && head.subarray(0, 8).toString("latin1") === "!<arch>\n") return "listed"
    if (head[0] === 0x1f && head[1] === 0x8b) {
      // the start of the stream only: a truncated input still inflates what it holds
      const start = gunzipSync(readAt(path, 0, 64 * 1024), { finishFlush: zlibConstants.Z_SYNC_FLUSH, maxOutputLength: 1 << 20 })
      const kind = start.length >= 262 && start.subarray(257, 262).toString("latin1") === "ustar" ? "tar" : containerKind(start.subarray(0, 2048))
      return kind === "tar" || kind === "cpio" ? "listed" : undefined
    }
    const kind = containerKind(head, size >= 32774 ? readAt(path, 32769, 5) : undefined)
    if (kind) return kind === "tar" || kind === "cpio" ? "listed" : kind
    return partitioned(path, size)
  } catch {
    return undefined
  }
}

// a disk image: what sits at each partition's start (a filesystem, an archive) is read as an image (its
// names are looked for in all of its bytes)
function partitioned(path: string, size: number): "image" | "other" | undefined {
  let found: "image" | "other" | undefined
  for (const at of partitionStarts((a, n) => readAt(path, a, n), size)) {
    const kind = containerKind(readAt(path, at, 2048), size >= at + 32774 ? readAt(path, at + 32769, 5) : undefined)
    if (kind === "image" || kind === "tar" || kind === "cpio") return "image"
    if (kind === "other") found = "other"
  }
  return found
}

function readAt(path: string, at: number, n: number): Buffer {
  const fd = openRegular(path)
  try {
    const buf = Buffer.alloc(n)
    const got = readSync(fd, buf, 0, n, at)
    return buf.subarray(0, got)
  } finally {
    closeSync(fd)
  }
}

// 512-byte headers: name (0..100), size (124, octal), type (156), link name (157..257), ustar prefix (345..500)
function tarNames(read: (at: number, n: number) => Buffer, size: number): Listing {
  const names: string[] = []
  let at = 0
  let longName: string | undefined
  while (at + 512 <= size) {
    const h = read(at, 512)
    if (h.length < 512 || h.every((b) => b === 0)) break
    const body = parseInt(text(h, 124, 12).trim() || "0", 8)
    if (!Number.isFinite(body) || body < 0) return { unknown: "a header that cannot be read" }
    const type = String.fromCharCode(h[156]!)
    const data = at + 512
    at = data + Math.ceil(body / 512) * 512
    if (type === "L") {
      longName = text(read(data, body), 0, body)
      continue
    }
    if (type === "x") {
      const path = /(?:^|\n)\d+ path=([^\n]*)/.exec(read(data, body).toString("utf8"))
      if (path) longName = path[1]
      continue
    }
    if (type === "g" || type === "K") continue
    const prefix = text(h, 345, 155)
    const name = longName ?? (prefix ? `${prefix}/${text(h, 0, 100)}` : text(h, 0, 100))
    longName = undefined
    names.push(name)
    // a link member: what it points to is written through later members, or read: judged too
    if (type === "1" || type === "2") names.push(`${name}/../${text(h, 157, 100)}`)
    if (names.length > MAX_MEMBERS) return { unknown: `more than ${MAX_MEMBERS} members` }
  }
  return { names }
}

// ar (`!<arch>`, .a/.deb): 60-byte headers, the name in the first 16 bytes (GNU ends it with `/`, a long
// one is `/N` into the `//` table), the size at 48 in decimal
function arNames(path: string, size: number): Listing {
  if (size > MAX_TAR_BYTES) return { unknown: `an ar archive larger than ${MAX_TAR_BYTES >> 20} MiB` }
  const names: string[] = []
  let table = ""
  let at = 8
  while (at + 60 <= size) {
    const h = readAt(path, at, 60)
    const raw = h.subarray(0, 16).toString("latin1").trimEnd()
    const body = parseInt(h.subarray(48, 58).toString("latin1").trim() || "-1", 10)
    if (!Number.isFinite(body) || body < 0) return { unknown: "an ar header that cannot be read" }
    if (raw === "//") table = readAt(path, at + 60, body).toString("latin1")
    else if (raw !== "/" && raw !== "/SYM64/") {
      const long = /^\/(\d+)$/.exec(raw)
      const bsd = /^#1\/(\d+)$/.exec(raw)
      names.push(long ? table.slice(Number(long[1])).split(/\/?\n/)[0]! : bsd ? readAt(path, at + 60, Number(bsd[1])).toString("utf8").replace(/\0+$/, "") : raw.replace(/\/$/, ""))
    }
    if (names.length > MAX_MEMBERS) return { unknown: `more than ${MAX_MEMBERS} members` }
    at += 60 + body + (body % 2)
  }
  return { names }
}

const MAX_SCAN_BYTES = 32 * 1024 * 1024

/** Names of archives stored (uncompressed) inside the file: a tar header (`ustar` at 257) or a zip local
 *  header anywhere in its bytes. A plain read prints a nested archive's members as they are. */
export function storedNames(path: string, size: number): string[] {
  if (size > MAX_SCAN_BYTES) return []
  let data: Buffer
  try {
    data = readAt(path, 0, size)
    // a compressed tar: the archives stored in it print as they are once it is inflated (`zcat x.tgz`)
    if (data[0] === 0x1f && data[1] === 0x8b) data = gunzipSync(data, { maxOutputLength: MAX_SCAN_BYTES })
  } catch {
    return []
  }
  const names = new Set<string>()
  for (let i = data.indexOf("ustar", 257, "latin1"); i >= 0 && names.size < MAX_MEMBERS; i = data.indexOf("ustar", i + 5, "latin1")) {
    if (i < 257 || i - 257 + 512 > data.length) continue
    const h = data.subarray(i - 257, i - 257 + 512)
    const prefix = text(h, 345, 155)
    const name = prefix ? `${prefix}/${text(h, 0, 100)}` : text(h, 0, 100)
    if (name) names.add(name)
  }
  // a v7 tar (headers on 512-byte blocks, told by their checksum) and cpio headers stored inside
  for (let at = 0; at + 512 <= data.length && names.size < MAX_MEMBERS; at += 512) {
    const h = data.subarray(at, at + 512)
    if (h[0] !== 0 && data.indexOf("ustar", at + 257, "latin1") !== at + 257 && isTarHeader(h)) names.add(text(h, 0, 100))
  }
  for (const name of cpioStored(data, MAX_MEMBERS)) names.add(name)
  const local = Buffer.from([0x50, 0x4b, 0x03, 0x04])
  for (let i = data.indexOf(local); i >= 0 && names.size < MAX_MEMBERS; i = data.indexOf(local, i + 4)) {
    if (i + 30 > data.length) break
    const n = data.readUInt16LE(i + 26)
    if (n > 0 && i + 30 + n <= data.length) names.add(data.subarray(i + 30, i + 30 + n).toString("utf8"))
  }
  return [...names]
}

function text(b: Buffer, at: number, n: number): string {
  const s = b.subarray(at, at + n)
  const end = s.indexOf(0)
  return s.subarray(0, end < 0 ? s.length : end).toString("utf8")
}

// the end-of-central-directory record (in the last 64 KiB) gives the central directory's place
function zipNames(path: string, size: number): Listing {
  const tailLen = Math.min(size, 65557)
  const tail = readAt(path, size - tailLen, tailLen)
  const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  if (eocd < 0) return { unknown: "a zip file without its directory" }
  const count = tail.readUInt16LE(eocd + 10)
  const dirSize = tail.readUInt32LE(eocd + 12)
  const dirAt = tail.readUInt32LE(eocd + 16)
  if (count === 0xffff || dirAt === 0xffffffff) return { unknown: "a zip64 archive" }
  if (count > MAX_MEMBERS) return { unknown: `more than ${MAX_MEMBERS} members` }
  const dir = readAt(path, dirAt, dirSize)
  const names: string[] = []
  let at = 0
  for (let i = 0; i < count; i++) {
    if (at + 46 > dir.length || dir.readUInt32LE(at) !== 0x02014b50) return { unknown: "a zip directory that cannot be read" }
    const n = dir.readUInt16LE(at + 28)
    const extra = dir.readUInt16LE(at + 30)
    const comment = dir.readUInt16LE(at + 32)
    names.push(dir.subarray(at + 46, at + 46 + n).toString("utf8"))
    at += 46 + n + extra + comment
  }
  return { names }
}

const MAX_DIFF_BYTES = 8 * 1024 * 1024

/** The file names a diff (unified, context, git) writes: `+++`/`---` and `***` headers, git's `diff --git`,
 *  `rename to`/`copy to` lines, GNU patch's `Index:` line (/dev/null skipped, quotes and a timestamp
 *  after a tab dropped); headers that name nothing and no Index line leave the targets unknown. */
export function diffTargets(path: string): Listing {
  const st = statSync(path, { throwIfNoEntry: false })
  if (!st) return { unknown: "it does not exist yet", missing: true }
  if (!st.isFile()) return { unknown: "it is not a plain file" }
  if (st.size > MAX_DIFF_BYTES) return { unknown: `a diff larger than ${MAX_DIFF_BYTES >> 20} MiB` }
  const names = new Set<string>()
  let empty = false
  const whole = new Set<string>()
  for (const line of readAt(path, 0, st.size).toString("utf8").split("\n")) {
    // GNU patch's `Index: NAME` names the file when the ---/+++ names are empty or missing
    const m = /^(?:\+\+\+|---|\*\*\*) (.+)$/.exec(line) ?? /^(?:rename|copy) to (.+)$/.exec(line) ?? /^Index: (.+)$/.exec(line)
    const name = m ? unquote(m[1]!.split("\t")[0]!.trim()) : ""
    if (name && line.startsWith("Index: ")) whole.add(name)
    if (name) names.add(name)
    else if (m || /^(?:\+\+\+|---|\*\*\*)\s*$/.test(line)) empty = true
    const git = /^diff --git (\S+) (\S+)$/.exec(line)
    if (git) for (const n of [git[1]!, git[2]!]) names.add(unquote(n))
    if (names.size > MAX_MEMBERS) return { unknown: `more than ${MAX_MEMBERS} files` }
  }
  names.delete("/dev/null")
  // a header with no name and no Index line: patch takes the name from elsewhere (a prompt, the operand)
  if (empty && names.size === 0) return { unknown: "a diff header names no file" }
  return whole.size ? { names: [...names], whole: [...whole] } : { names: [...names] }
}

function unquote(name: string): string {
  return name.startsWith('"') && name.endsWith('"') ? name.slice(1, -1).replace(/\\(.)/g, "$1") : name
}
