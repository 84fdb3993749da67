// Reads a git index file (versions 2 to 4) straight from disk: the listing of a shadow index and the
// flags that say whether a user's index can seed one, without a git process printing 100,000 lines
// to be parsed again. Read only. Anything it does not fully understand (a bad checksum, a SHA-256
// repository, an extension git requires) makes it answer undefined: the caller asks git instead.
import { readFileSync } from "node:fs"

export interface IndexEntry {
  path: string
  /** git mode as text: 100644, 100755, 120000, 160000 */
  mode: string
  oid: string
  /** 0 normally; 1-3 while a merge conflict is unresolved */
  stage: number
  /** assume-unchanged: git does not look at the file */
  assumeValid: boolean
  skipWorktree: boolean
}

export interface IndexFile {
  version: number
  entries: IndexEntry[]
  /** extensions git must understand to use the index (split index "link", sparse "sdir", ...) */
  required: string[]
}

const HEADER = 12
const HASH = 20

/** The index at `path`; undefined when it is missing or not one this reader can vouch for. */
export function readIndexFile(path: string): IndexFile | undefined {
  let bytes: Buffer
  try {
    bytes = readFileSync(path)
  } catch {
    return undefined
  }
  return parseIndex(bytes)
}

/** Pure: the index in `bytes`. */
export function parseIndex(bytes: Buffer): IndexFile | undefined {
  if (bytes.length < HEADER + HASH || bytes.toString("latin1", 0, 4) !== "DIRC") return undefined
  const version = bytes.readUInt32BE(4)
  if (version < 2 || version > 4) return undefined
  const body = bytes.length - HASH
  const checksum = new Bun.CryptoHasher("sha1").update(bytes.subarray(0, body)).digest() as Buffer
  if (!checksum.equals(bytes.subarray(body))) return undefined // another hash (SHA-256), or torn
  const count = bytes.readUInt32BE(8)
  const entries: IndexEntry[] = new Array(count)
  const decoder = new TextDecoder()
  let at = HEADER
  let previous: Buffer<ArrayBufferLike> = Buffer.alloc(0)
  for (let i = 0; i < count; i++) {
    if (at + 62 > body) return undefined
    const mode = bytes.readUInt32BE(at + 24)
    const oid = bytes.toString("hex", at + 40, at + 60)
    const flags = bytes.readUInt16BE(at + 60)
    let nameAt = at + 62
    let extended = 0
    if (flags & 0x4000) {
      if (version < 3) return undefined
      extended = bytes.readUInt16BE(nameAt)
      nameAt += 2
    }
    let name: Buffer<ArrayBufferLike>
    if (version === 4) {
      // the name is the previous one less N bytes from its end, plus what follows up to a NUL; no padding
      let strip = 0
      let byte: number
      let first = true
      do {
        if (nameAt >= body) return undefined
        byte = bytes[nameAt++]!
        strip = first ? byte & 0x7f : ((strip + 1) * 128) | (byte & 0x7f)
        first = false
      } while (byte & 0x80)
      const end = bytes.indexOf(0, nameAt)
      if (end < 0 || end >= body || strip > previous.length) return undefined
      name = Buffer.concat([previous.subarray(0, previous.length - strip), bytes.subarray(nameAt, end)])
      at = end + 1
    } else {
      const end = bytes.indexOf(0, nameAt)
      if (end < 0 || end >= body) return undefined
      name = bytes.subarray(nameAt, end)
      // entries are padded with 1 to 8 NULs to a multiple of 8 bytes
      at += ((nameAt - at + name.length + 8) & ~7)
    }
    previous = name
    entries[i] = {
      path: decoder.decode(name),
      mode: mode.toString(8),
      oid,
      stage: (flags >> 12) & 3,
      assumeValid: (flags & 0x8000) !== 0,
      skipWorktree: (extended & 0x4000) !== 0,
    }
  }
  const required: string[] = []
  while (at + 8 <= body) {
    const signature = bytes.toString("latin1", at, at + 4)
    const size = bytes.readUInt32BE(at + 4)
    if (signature[0]! >= "a" && signature[0]! <= "z") required.push(signature)
    at += 8 + size
  }
  if (at !== body) return undefined
  return { version, entries, required }
}
