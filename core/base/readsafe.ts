// Reading a file the workspace (or an archive unpacked into it) controls, on the way to a decision. Only a
// regular file is read, and it is opened without blocking: a named pipe would block open() until a writer
// came, so the guard would hang and a host that gives up on a slow hook would run the call unchecked; a
// link to /dev/zero would never end. At most `max` bytes are read. Side effect: the read.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs"

/** Thrown for anything but a regular file (a named pipe, a device, a socket, a folder). */
export class NotRegularFile extends Error {
  readonly code = "ENOTREGULAR"
}

const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY

/** The text of a regular file, its first `max` bytes; throws as readFileSync does (ENOENT, EACCES, ...)
 *  and NotRegularFile for anything else than a regular file. */
export function readRegular(path: string, max = 4 << 20): string {
  return readRegularBytes(path, max).toString("utf8")
}

/** A descriptor open on a regular file (without blocking); the caller closes it. Throws like openSync,
 *  and NotRegularFile for anything else. */
export function openRegular(path: string): number {
  const fd = openSync(path, FLAGS)
  if (fstatSync(fd).isFile()) return fd
  closeSync(fd)
  throw new NotRegularFile(`${path} is not a regular file`)
}

/** The same as bytes. */
export function readRegularBytes(path: string, max = 64 << 20): Buffer {
  const fd = openRegular(path)
  try {
    const st = fstatSync(fd)
    const size = Math.min(st.size, max)
    const buf = Buffer.allocUnsafe(size)
    let at = 0
    while (at < size) {
      const n = readSync(fd, buf, at, size - at, at)
      if (n === 0) break
      at += n
    }
    return buf.subarray(0, at)
  } finally {
    closeSync(fd)
  }
}
