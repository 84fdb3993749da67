// A raw disk or memory device is one by what the node is, not by its name: a block node made or
// bind-mounted under another path (`mknod blk b 7 0`, docker --device /dev/sda:/dev/xvdc, /dev/zram0,
// /dev/bcache0) reads a whole disk or memory pages. The real path of such a node is given as the kernel's
// own name for it, /dev/block/MAJOR:MINOR (a block device) or /dev/mem (the memory devices), which the
// credential locations hold. A stat of the path, no read (a named pipe is never opened).
import { statSync } from "node:fs"

// character devices of memory (major 1): /dev/mem (1), /dev/kmem (2), /dev/port (4)
const MEMORY_MINORS = new Set([1, 2, 4])

/** `path` itself, or /dev/block/MAJ:MIN for a block device, /dev/mem for a memory device. */
export function deviceName(path: string): string {
  if (!path.startsWith("/") || path.startsWith("/proc/") || path.startsWith("/sys/")) return path
  let st
  try {
    st = statSync(path, { throwIfNoEntry: false })
  } catch {
    return path
  }
  if (!st || st.isFile() || st.isDirectory()) return path
  const major = Math.floor(st.rdev / 256) & 0xfff
  const minor = (st.rdev & 0xff) | ((Math.floor(st.rdev / 4096) & 0xfff00))
  if (st.isBlockDevice()) return path.startsWith("/dev/block/") ? path : `/dev/block/${major}:${minor}`
  if (st.isCharacterDevice() && major === 1 && MEMORY_MINORS.has(minor)) return "/dev/mem"
  return path
}
