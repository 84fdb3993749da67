// Objects written as one git pack (a .pack and its .idx) instead of a loose file each: a snapshot's
// blob, trees and commit cost two file creations instead of one per object (and one per new objects/xx
// directory). Writes only into ccode's own shadow repository; git reads the pack as it reads its own.
import { closeSync, existsSync, openSync, renameSync, writeSync } from "node:fs"
import { join } from "node:path"
import { deflateSync } from "node:zlib"

export type ObjectType = "blob" | "tree" | "commit"

/** An object ready for a pack: its id and its content already deflated (zlib, as a pack holds it). */
export interface PackedObject {
  id: string
  type: ObjectType
  size: number
  deflated: Uint8Array
}

const TYPE_CODE: Record<ObjectType, number> = { commit: 1, tree: 2, blob: 3 }

/** The id git gives `content` as an object of `type`, and the object ready for a pack. */
export function packedObject(type: ObjectType, content: Uint8Array): PackedObject {
  let deflated: Uint8Array = deflateSync(content, { level: 1 })
  // what does not compress (random bytes, archives) grows by about 5% at level 1; stored as is, by bytes
  if (deflated.length > content.length) deflated = deflateSync(content, { level: 0 })
  return { id: objectId(type, content), type, size: content.length, deflated }
}

/** The id git gives `content` as an object of `type`: sha1("<type> <size>\0<content>"). */
export function objectId(type: ObjectType, content: string | Uint8Array): string {
  return new Bun.CryptoHasher("sha1").update(`${type} ${Buffer.byteLength(content)}\0`).update(content).digest("hex")
}

/**
 * Write `objects` (distinct ids) as objects/pack/pack-<checksum>.{pack,idx}. The .pack is written
 * first under its final name (a pack without its index is invisible to git), the .idx through a
 * temporary file and a rename: the objects appear all at once or not at all. Returns the pack's name.
 */
export function writePack(gitDir: string, objects: readonly PackedObject[]): string {
  const { pack, idx, checksum } = encodePack(objects)
  const base = join(gitDir, "objects", "pack", `pack-${checksum}`)
  // the very same pack is there already (its name is its checksum): rewriting it would truncate it under a reader
  if (existsSync(`${base}.idx`)) return `pack-${checksum}`
  writeWhole(`${base}.pack`, pack, 0o444)
  writeWhole(`${base}.idx.tmp-${process.pid}`, idx, 0o444)
  renameSync(`${base}.idx.tmp-${process.pid}`, `${base}.idx`)
  return `pack-${checksum}`
}

/** A version 2 pack of `objects` (no deltas) and its version 2 index. Pure. */
export function encodePack(objects: readonly PackedObject[]): { pack: Uint8Array; idx: Uint8Array; checksum: string } {
  const parts: Uint8Array[] = []
  const header = Buffer.alloc(12)
  header.write("PACK", 0, "latin1")
  header.writeUInt32BE(2, 4)
  header.writeUInt32BE(objects.length, 8)
  parts.push(header)
  let offset = 12
  const entries: { id: Buffer; crc: number; offset: number }[] = []
  for (const object of objects) {
    const head = entryHeader(TYPE_CODE[object.type], object.size)
    const crc = Bun.hash.crc32(object.deflated, Bun.hash.crc32(head))
    entries.push({ id: Buffer.from(object.id, "hex"), crc, offset })
    parts.push(head, object.deflated)
    offset += head.length + object.deflated.length
  }
  const hasher = new Bun.CryptoHasher("sha1")
  for (const part of parts) hasher.update(part)
  const trailer = hasher.digest() as Buffer
  parts.push(trailer)
  const pack = Buffer.concat(parts)
  return { pack, idx: encodeIndex(entries, trailer), checksum: trailer.toString("hex") }
}

/** The object's header in a pack: type and size, the size 4 bits then 7 bits a byte, low bits first. */
function entryHeader(type: number, size: number): Buffer {
  const bytes: number[] = []
  let byte = (type << 4) | (size & 0x0f)
  let rest = Math.floor(size / 16)
  while (rest > 0) {
    bytes.push(byte | 0x80)
    byte = rest & 0x7f
    rest = Math.floor(rest / 128)
  }
  bytes.push(byte)
  return Buffer.from(bytes)
}

/** Index v2: fan-out, sorted ids, their CRCs, their offsets (64-bit ones in a table of their own), checksums. */
function encodeIndex(entries: { id: Buffer; crc: number; offset: number }[], packChecksum: Buffer): Buffer {
  const sorted = [...entries].sort((a, b) => Buffer.compare(a.id, b.id))
  const n = sorted.length
  const large = sorted.filter((e) => e.offset >= 0x80000000)
  const idx = Buffer.alloc(8 + 256 * 4 + n * (20 + 4 + 4) + large.length * 8 + 40)
  idx.writeUInt32BE(0xff744f63, 0)
  idx.writeUInt32BE(2, 4)
  let at = 8
  let i = 0
  for (let byte = 0; byte < 256; byte++) {
    while (i < n && sorted[i]!.id[0]! <= byte) i++
    idx.writeUInt32BE(i, at)
    at += 4
  }
  for (const e of sorted) at += e.id.copy(idx, at)
  for (const e of sorted) at = idx.writeUInt32BE(e.crc >>> 0, at)
  let nextLarge = 0
  for (const e of sorted) at = idx.writeUInt32BE(e.offset >= 0x80000000 ? (0x80000000 | nextLarge++) >>> 0 : e.offset, at)
  for (const e of large) at = idx.writeBigUInt64BE(BigInt(e.offset), at)
  at += packChecksum.copy(idx, at)
  const own = new Bun.CryptoHasher("sha1").update(idx.subarray(0, at)).digest() as Buffer
  own.copy(idx, at)
  return idx
}

function writeWhole(path: string, data: Uint8Array, mode: number): void {
  const fd = openSync(path, "w", mode)
  try {
    for (let at = 0; at < data.length; ) at += writeSync(fd, data, at, data.length - at)
  } finally {
    closeSync(fd)
  }
}

