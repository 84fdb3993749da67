// A disk image (`disk.img`) starts with a partition table, and its filesystems sit at the partitions'
// starts (1 MiB in, usually): an MBR (0x55AA at 510; four entries at 446, logical ones chained through
// extended partitions) or a GPT ("EFI PART" in the header at sector 1, 512- or 4096-byte sectors). Pure
// over a reader of the image's bytes; bounded.

/** How many partitions are looked at. */
const MAX_PARTITIONS = 64

/** The byte offsets where the image's partitions start (none when the bytes hold no partition table). */
export function partitionStarts(read: (at: number, n: number) => Buffer, size: number): number[] {
  const out: number[] = []
  for (const sector of [512, 4096]) {
    const h = read(sector, 92)
    if (h.length < 92 || h.subarray(0, 8).toString("latin1") !== "EFI PART") continue
    const lba = Number(h.readBigUInt64LE(72))
    const count = Math.min(h.readUInt32LE(80), MAX_PARTITIONS)
    const each = h.readUInt32LE(84)
    if (each < 128 || each > 4096 || lba * sector >= size) continue
    const table = read(lba * sector, count * each)
    for (let i = 0; i + each <= table.length; i += each) {
      if (table.subarray(i, i + 16).every((b) => b === 0)) continue
      const first = Number(table.readBigUInt64LE(i + 32)) * sector
      if (first > 0 && first < size && Number.isSafeInteger(first)) out.push(first)
    }
  }
  if (out.length) return out
  const mbr = read(0, 512)
  if (mbr.length < 512 || mbr[510] !== 0x55 || mbr[511] !== 0xaa) return out
  mbrEntries(mbr, 0, 0, read, size, out, 0)
  return out
}

const EXTENDED = new Set([0x05, 0x0f, 0x85])

// the four entries of an MBR or an extended boot record at `at`; `ext`: the extended partition's start
// (logical partitions count from their own EBR, the next EBR from the extended partition's start)
function mbrEntries(rec: Buffer, at: number, ext: number, read: (at: number, n: number) => Buffer, size: number, out: number[], depth: number): void {
  for (let e = 0; e < 4 && out.length < MAX_PARTITIONS; e++) {
    const o = 446 + e * 16
    const type = rec[o + 4]!
    const lba = rec.readUInt32LE(o + 8)
    if (type === 0 || lba === 0) continue
    if (EXTENDED.has(type)) {
      const next = (depth === 0 ? lba : ext + lba) * 512
      if (depth >= MAX_PARTITIONS || next >= size) continue
      const ebr = read(next, 512)
      if (ebr.length === 512 && ebr[510] === 0x55 && ebr[511] === 0xaa) mbrEntries(ebr, next, depth === 0 ? lba : ext, read, size, out, depth + 1)
      continue
    }
    const start = at + lba * 512
    if (start < size) out.push(start)
  }
}
