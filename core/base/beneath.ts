// Writing below a root folder without ever leaving it: every folder on the way is opened by itself,
// without following a symlink (O_NOFOLLOW), and the next one is looked up in the folder already open
// (/proc/self/fd/<fd>/<name>: the kernel's openat), so a folder swapped for a link between a check and
// the write cannot carry the write elsewhere. Linux only (as the OS sandbox). I/O: open, mkdir, unlink.
import { chmodSync, closeSync, constants, fchmodSync, fstatSync, lstatSync, mkdirSync, openSync, rmdirSync, unlinkSync } from "node:fs"

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW

/** A path below the root is not made of real folders inside it (a link, a file, `..` on the way). */
export class OutsideRoot extends Error {}

/** An open folder below the root: `at(name)` names an entry of it, `close()` when done. */
export interface OpenDir {
  fd: number
  /** the entry `name` of this folder, looked up in the open folder (never through a link on the way) */
  at(name: string): string
  close(): void
}

/** The components of a relative path; `..`, `.`, empty or absolute parts are refused. */
export function partsOf(rel: string): string[] {
  const parts = rel.split("/")
  if (rel.startsWith("/") || parts.some((p) => p === "" || p === "." || p === "..")) throw new OutsideRoot(`${rel} is not a plain path below the folder`)
  return parts
}

/**
 * Open the folder `rel` below `root` (the root itself for ""), each component a real folder, never a
 * link. `create` makes missing ones (mode 0o755 before umask). Throws OutsideRoot naming the first
 * component that is a link or no folder; undefined when one is missing and `create` is off.
 */
export function openBeneath(root: string, rel: string, create = false): OpenDir | undefined {
  let fd = openSync(root, DIR_FLAGS)
  let done = ""
  try {
    for (const name of rel === "" ? [] : partsOf(rel)) {
      const path = `/proc/self/fd/${fd}/${name}`
      done = done ? `${done}/${name}` : name
      const st = lstatSync(path, { throwIfNoEntry: false })
      if (!st) {
        if (!create) {
          closeSync(fd)
          return undefined
        }
        mkdirSync(path)
      } else if (!st.isDirectory()) throw new OutsideRoot(`${done} is ${st.isSymbolicLink() ? "a symlink" : "not a folder"} in ${root}`)
      let next: number
      try {
        next = openSync(path, DIR_FLAGS)
      } catch (error) {
        // swapped for a link or a file after the lstat
        const code = (error as NodeJS.ErrnoException).code
        if (code === "ELOOP" || code === "ENOTDIR") throw new OutsideRoot(`${done} is no longer a folder in ${root}`)
        throw error
      }
      closeSync(fd)
      fd = next
    }
  } catch (error) {
    closeSync(fd)
    throw error
  }
  const dirFd = fd
  return { fd: dirFd, at: (name) => `/proc/self/fd/${dirFd}/${partsOf(name).join("/")}`, close: () => closeSync(dirFd) }
}

/** Run `use` with the folder of `rel` (its parent) open below `root`, and the last name; closed after. */
export function withParent<T>(root: string, rel: string, create: boolean, use: (dir: OpenDir, name: string) => T): T | undefined {
  const parts = partsOf(rel)
  const name = parts.pop()!
  const dir = openBeneath(root, parts.join("/"), create)
  if (!dir) return undefined
  try {
    return use(dir, name)
  } finally {
    dir.close()
  }
}

/** Remove the file or link `name` of an open folder (a folder there is left alone); false when nothing was there. */
export function unlinkIn(dir: OpenDir, name: string): boolean {
  const st = lstatSync(dir.at(name), { throwIfNoEntry: false })
  if (!st || st.isDirectory()) return false
  unlinkSync(dir.at(name))
  return true
}

/** Remove the empty folder `name` of an open folder; false when it is not empty or not there. */
export function rmdirIn(dir: OpenDir, name: string): boolean {
  try {
    rmdirSync(dir.at(name))
    return true
  } catch {
    return false
  }
}

/** Set the mode of `name` in an open folder itself, never of what a link there leads to (a link is skipped). */
export function chmodIn(dir: OpenDir, name: string, mode: number): void {
  let fd: number
  try {
    fd = openSync(dir.at(name), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === "ELOOP") return
    // a file its owner cannot read (mode 000): the folder is still the one opened, only the name is looked up again
    if (code === "EACCES" && !lstatSync(dir.at(name)).isSymbolicLink()) return chmodSync(dir.at(name), mode)
    throw error
  }
  try {
    if (!fstatSync(fd).isSymbolicLink()) fchmodSync(fd, mode)
  } finally {
    closeSync(fd)
  }
}
