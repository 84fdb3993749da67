// Containers that store their files' bytes as they are, beyond ustar tar and zip: a tar without the
// `ustar` magic (v7, told by its header checksum), cpio (newc, crc, odc, binary) and filesystem images
// (ext2/3/4, ISO 9660, FAT), whose bytes a plain read prints; and containers whose members are not read here
// (7z, rar, cab, xar, squashfs), which may store them too. Pure over the bytes given (no fs).

/** What the first bytes of a file (up to 2 KiB; `iso`: the 5 bytes at 32769) make it. */
export type Container = "tar" | "cpio" | "image" | "other" | undefined

export function containerKind(head: Buffer, iso?: Buffer): Container {
  if (head.length >= 6 && /^07070[127]$/.test(head.subarray(0, 6).toString("latin1"))) return "cpio"
  if (head.length >= 2 && ((head[0] === 0xc7 && head[1] === 0x71) || (head[0] === 0x71 && head[1] === 0xc7))) return "cpio"
  if (isTarHeader(head)) return "tar"
  if (head.length >= 1082 && head[1080] === 0x53 && head[1081] === 0xef) return "image"
  if (iso?.toString("latin1") === "CD001") return "image"
  if (head.length >= 512 && head[510] === 0x55 && head[511] === 0xaa && (head.subarray(54, 57).toString("latin1") === "FAT" || head.subarray(82, 85).toString("latin1") === "FAT")) return "image"
  const magic = head.subarray(0, 6).toString("latin1")
  if (magic === "7z\xbc\xaf\x27\x1c" || magic.startsWith("Rar!\x1a\x07") || magic.startsWith("MSCF") || magic.startsWith("xar!") || magic.startsWith("hsqs")) return "other"
  return undefined
}

/** Whether 512 bytes are a tar header by its checksum (v7 tar has no magic): the sum of the bytes with the
 *  checksum field read as spaces, stored in octal at 148. */
export function isTarHeader(h: Buffer): boolean {
  if (h.length < 512 || h[0] === 0) return false
  const stored = h.subarray(148, 156).toString("latin1").replace(/[\0 ]+$/, "").trim()
  if (!/^[0-7]{1,7}$/.test(stored)) return false
  let sum = 0
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i]!
  return sum === parseInt(stored, 8)
}

const MAX_MEMBERS = 20000

/** The member names of a cpio archive (newc/crc: hex fields, odc: octal, binary: 16-bit words, either
 *  byte order), or why they could not be listed. */
export function cpioNames(read: (at: number, n: number) => Buffer, size: number): { names: string[] } | { unknown: string } {
  const names: string[] = []
  let at = 0
  while (at + 26 <= size) {
    const h = read(at, 110)
    const magic = h.subarray(0, 6).toString("latin1")
    let nameAt: number, nameLen: number, body: number, pad: number
    if (magic === "070701" || magic === "070702") {
      const field = (i: number) => parseInt(h.subarray(6 + i * 8, 14 + i * 8).toString("latin1"), 16)
      nameLen = field(11)
      body = field(6)
      nameAt = at + 110
      pad = 4
    } else if (magic === "070707") {
      nameLen = parseInt(h.subarray(59, 65).toString("latin1"), 8)
      body = parseInt(h.subarray(65, 76).toString("latin1"), 8)
      nameAt = at + 76
      pad = 1
    } else if ((h[0] === 0xc7 && h[1] === 0x71) || (h[0] === 0x71 && h[1] === 0xc7)) {
      const le = h[0] === 0xc7
      const word = (o: number) => (le ? h.readUInt16LE(o) : h.readUInt16BE(o))
      nameLen = word(20)
      body = word(22) * 0x10000 + word(24)
      nameAt = at + 26
      pad = 2
    } else return { unknown: "a cpio header that cannot be read" }
    if (!Number.isFinite(nameLen) || !Number.isFinite(body) || nameLen < 1 || body < 0) return { unknown: "a cpio header that cannot be read" }
    const name = read(nameAt, nameLen).toString("utf8").replace(/\0+$/, "")
    if (name === "TRAILER!!!") break
    names.push(name)
    if (names.length > MAX_MEMBERS) return { unknown: `more than ${MAX_MEMBERS} members` }
    // newc pads the header and name, and the data, to 4 bytes; binary to 2
    const dataAt = Math.ceil((nameAt + nameLen) / pad) * pad
    at = Math.ceil((dataAt + body) / pad) * pad
  }
  return { names }
}

/** The names of the cpio headers (newc, crc, odc) found anywhere in the bytes (a cpio stored in a tar). */
export function cpioStored(data: Buffer, max: number): string[] {
  const names: string[] = []
  for (let i = data.indexOf("07070", 0, "latin1"); i >= 0 && names.length < max; i = data.indexOf("07070", i + 5, "latin1")) {
    const magic = data.subarray(i, i + 6).toString("latin1")
    const one = magic === "070707" ? [76, 59, 6, 8] : magic === "070701" || magic === "070702" ? [110, 94, 8, 16] : undefined
    if (!one || i + one[0]! > data.length) continue
    const len = parseInt(data.subarray(i + one[1]!, i + one[1]! + one[2]!).toString("latin1"), one[3])
    if (!(len > 1 && len <= 4096) || i + one[0]! + len > data.length) continue
    const name = data.subarray(i + one[0]!, i + one[0]! + len).toString("utf8").replace(/\0+$/, "")
    if (name && name !== "TRAILER!!!") names.push(name)
  }
  return names
}

const MAX_NAMES = 50000

/** The words of a filesystem image that can be file names: runs of printable bytes without `/` (ext2/3/4
 *  directory entries, ISO 9660's Rock Ridge names; its plain `_ENV.;1` also read as `.env`), UTF-16 runs
 *  (ISO's Joliet names, big-endian) and FAT's long names (UTF-16LE pieces of 13 characters, joined). */
export function imageNames(data: Buffer): { names: string[] } | { unknown: string } {
  const names = new Set<string>()
  // a name's length byte before it can be printable itself (ISO records): the word without it counts too
  const add = (word: string) => {
    one(word)
    if (word.length > 1) one(word.slice(1))
  }
  const one = (word: string) => {
    names.add(word)
    const iso = word.replace(/;\d+$/, "").replace(/\.$/, "")
    if (iso !== word || /^[A-Z0-9_.]+$/.test(word)) {
      names.add(iso.toLowerCase())
      // mkisofs writes a leading dot as `_`
      if (iso.startsWith("_")) names.add(`.${iso.slice(1).toLowerCase()}`)
    }
  }
  const printable = (b: number) => b > 0x20 && b < 0x7f && b !== 0x2f
  let start = -1
  for (let i = 0; i <= data.length; i++) {
    if (i < data.length && printable(data[i]!)) {
      if (start < 0) start = i
      continue
    }
    if (start >= 0 && i - start <= 255) add(data.subarray(start, i).toString("latin1"))
    start = -1
    if (names.size > MAX_NAMES) return { unknown: `more than ${MAX_NAMES} names` }
  }
  // UTF-16 names at either alignment, either byte order: a run of (0, printable) or (printable, 0) pairs
  for (const [from, big] of [[0, 1], [1, 1], [0, 0], [1, 0]] as const) {
    let word = ""
    for (let i = from; i + 1 < data.length; i += 2) {
      const c = data[big ? i + 1 : i]!
      if (data[big ? i : i + 1]! === 0 && printable(c)) word += String.fromCharCode(c)
      else {
        if (word.length > 1 && word.length <= 255) add(word)
        word = ""
      }
    }
    if (names.size > MAX_NAMES) return { unknown: `more than ${MAX_NAMES} names` }
  }
  for (const name of fatLongNames(data)) add(name)
  return names.size > MAX_NAMES ? { unknown: `more than ${MAX_NAMES} names` } : { names: [...names] }
}

// FAT long-name entries (attribute 0x0F at 11, 32-byte aligned) hold 13 UTF-16LE characters each, the last
// piece first; the piece numbered 1 ends a name
function fatLongNames(data: Buffer): string[] {
  const out: string[] = []
  let name = ""
  for (let i = 0; i + 32 <= data.length && out.length < MAX_NAMES; i += 32) {
    if (data[i + 11] !== 0x0f || data[i + 12] !== 0 || data[i + 26] !== 0 || data[i + 27] !== 0) {
      name = ""
      continue
    }
    let piece = ""
    for (const at of [1, 3, 5, 7, 9, 14, 16, 18, 20, 22, 24, 28, 30]) {
      const c = data.readUInt16LE(i + at)
      if (c === 0 || c === 0xffff) break
      piece += String.fromCharCode(c)
    }
    name = piece + name
    if ((data[i]! & 0x1f) === 1) {
      out.push(name)
      name = ""
    }
  }
  return out
}
