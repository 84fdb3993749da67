// ccode's own file-system monitor: one inotify instance per run, a watch on every directory of the
// workspace, read without blocking when the runner asks "what was touched since last time?". The
// kernel queues an event during the write itself, so once a step's process has exited, a drain sees
// all it did: no timing window. Linux only; elsewhere (or past the watch limit) the caller falls back
// to looking at every file. Never runs anything the repository configures (it runs nothing at all).
import { readdirSync } from "node:fs"
import { join } from "node:path"

export interface WatchNews {
  /** workspace-relative paths touched since the last drain; a directory stands for everything below it */
  paths: string[]
  /** the repository's own state changed (HEAD, refs, index, config): what git reports may differ */
  git: boolean
  /** events were lost (queue overflow, an unreadable name, a watch that could not be added): look at everything */
  lost: boolean
}

export interface WorkspaceWatch {
  drain(): WatchNews
  close(): void
}

export interface WatchOptions {
  /** relative paths that are not part of the workspace's content (ccode's own files): no watch, no news */
  skip?: (path: string) => boolean
  /** absolute git directories (the repository's, and its common dir): their top and refs/ are watched */
  gitDirs?: string[]
}

const IN = {
  MODIFY: 0x2, ATTRIB: 0x4, CLOSE_WRITE: 0x8, MOVED_FROM: 0x40, MOVED_TO: 0x80, CREATE: 0x100, DELETE: 0x200,
  DELETE_SELF: 0x400, MOVE_SELF: 0x800, Q_OVERFLOW: 0x4000, IGNORED: 0x8000, ONLYDIR: 0x01000000,
  DONT_FOLLOW: 0x02000000, EXCL_UNLINK: 0x04000000, ISDIR: 0x40000000, NONBLOCK: 0o4000, CLOEXEC: 0o2000000,
}
const MASK = IN.MODIFY | IN.ATTRIB | IN.CLOSE_WRITE | IN.MOVED_FROM | IN.MOVED_TO | IN.CREATE | IN.DELETE | IN.DELETE_SELF |
  IN.MOVE_SELF | IN.ONLYDIR | IN.DONT_FOLLOW | IN.EXCL_UNLINK
const ENOENT = 2
const ENOTDIR = 20

type Libc = ReturnType<typeof openLibc>
let libc: Libc | null | undefined

/** Start watching `root` (an absolute, real path). Undefined when this system has no inotify or too few watches; `why` says which. */
export function watchWorkspace(root: string, opts: WatchOptions = {}): { watch?: WorkspaceWatch; why?: string } {
  if (libc === undefined) libc = process.platform === "linux" ? tryOpenLibc() : null
  if (!libc) return { why: "no inotify on this system" }
  const c = libc
  const fd = c.inotify_init1(IN.NONBLOCK | IN.CLOEXEC)
  if (fd < 0) return { why: `inotify_init1 failed (errno ${c.errno()})` }
  const skip = opts.skip ?? (() => false)
  /** watch descriptor -> workspace-relative directory ("" the root), or an absolute git directory */
  const dirs = new Map<number, { path: string; git: boolean }>()
  const touched = new Set<string>()
  let git = false
  let lost = false
  let failure: string | undefined

  const add = (absolute: string, path: string, isGit: boolean): boolean => {
    const wd = c.inotify_add_watch(fd, Buffer.from(`${absolute}\0`), MASK)
    if (wd >= 0) {
      dirs.set(wd, { path, git: isGit })
      return true
    }
    const errno = c.errno()
    if (errno === ENOENT || errno === ENOTDIR) return false // gone meanwhile: its parent's event says so
    failure = errno === 28 ? "the inotify watch limit (fs.inotify.max_user_watches) is reached" : `inotify_add_watch failed (errno ${errno})`
    lost = true
    return false
  }
  // watch first, then list: whatever appears after the watch is an event, whatever was there before is listed
  const addTree = (path: string, report: boolean) => {
    if (!add(path ? join(root, path) : root, path, false)) return
    let entries
    try {
      entries = readdirSync(path ? join(root, path) : root, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      const child = path ? `${path}/${entry.name}` : entry.name
      if (skip(child) || (!path && entry.name === ".git")) continue
      if (report) touched.add(child)
      if (entry.isDirectory()) addTree(child, report)
    }
  }
  const addGitTree = (absolute: string, depth: number) => {
    if (!add(absolute, absolute, true) || depth === 0) return
    try {
      for (const entry of readdirSync(absolute, { withFileTypes: true })) if (entry.isDirectory()) addGitTree(join(absolute, entry.name), depth - 1)
    } catch {
      // unreadable: nothing more to watch there
    }
  }

  addTree("", false)
  for (const gitDir of opts.gitDirs ?? []) {
    add(gitDir, gitDir, true)
    addGitTree(join(gitDir, "refs"), 8)
  }
  if (failure) {
    c.close(fd)
    return { why: failure }
  }

  const buffer = new Uint8Array(256 * 1024)
  const view = new DataView(buffer.buffer)
  const decoder = new TextDecoder("utf-8", { fatal: true })
  let closed = false

  const handle = (wd: number, mask: number, name: string) => {
    if (mask & IN.Q_OVERFLOW) {
      lost = true
      return
    }
    const dir = dirs.get(wd)
    if (!dir) return
    if (mask & IN.IGNORED) {
      dirs.delete(wd)
      return
    }
    if (dir.git) {
      git = true
      if (name && mask & IN.ISDIR && mask & (IN.CREATE | IN.MOVED_TO) && dir.path.includes("/refs")) addGitTree(join(dir.path, name), 8)
      return
    }
    if (!name) {
      // the directory itself went away or moved: its parent reports it by name; the root has no parent
      if (!dir.path && mask & (IN.DELETE_SELF | IN.MOVE_SELF)) lost = true
      return
    }
    const path = dir.path ? `${dir.path}/${name}` : name
    if (skip(path) || (!dir.path && name === ".git")) {
      if (!dir.path && name === ".git") git = true
      return
    }
    touched.add(path)
    if (!(mask & IN.ISDIR)) return
    // a watch follows its directory's inode: a moved directory's watches would report old names,
    // so they are forgotten here; moved back in (or renamed), it is watched again under its new name
    if (mask & (IN.MOVED_FROM | IN.DELETE)) forget(path)
    if (mask & (IN.CREATE | IN.MOVED_TO)) addTree(path, true)
  }
  const forget = (path: string) => {
    for (const [wd, dir] of dirs) if (!dir.git && (dir.path === path || dir.path.startsWith(`${path}/`))) dirs.delete(wd)
  }

  return {
    watch: {
      drain() {
        if (closed) return { paths: [], git: false, lost: true }
        for (;;) {
          const n = Number(c.read(fd, buffer, buffer.length))
          if (n <= 0) break // EAGAIN: the queue is empty
          for (let offset = 0; offset < n; ) {
            const wd = view.getInt32(offset, true)
            const mask = view.getUint32(offset + 4, true)
            const length = view.getUint32(offset + 12, true)
            let name = ""
            if (length) {
              const raw = buffer.subarray(offset + 16, offset + 16 + length)
              const end = raw.indexOf(0)
              try {
                name = decoder.decode(end < 0 ? raw : raw.subarray(0, end))
              } catch {
                lost = true // a name that is not UTF-8 cannot be named to git or the file system from here
              }
            }
            offset += 16 + length
            handle(wd, mask, name)
          }
        }
        const news = { paths: [...touched], git, lost }
        touched.clear()
        git = false
        lost = false
        return news
      },
      close() {
        if (closed) return
        closed = true
        c.close(fd)
      },
    },
  }
}

function tryOpenLibc(): Libc | null {
  try {
    return openLibc()
  } catch {
    return null
  }
}

function openLibc() {
  // required lazily: bun:ffi is only loaded by runs that watch a workspace
  const { dlopen, FFIType, ptr, read } = require("bun:ffi") as typeof import("bun:ffi")
  const lib = dlopen("libc.so.6", {
    inotify_init1: { args: [FFIType.i32], returns: FFIType.i32 },
    inotify_add_watch: { args: [FFIType.i32, FFIType.ptr, FFIType.u32], returns: FFIType.i32 },
    read: { args: [FFIType.i32, FFIType.ptr, FFIType.u64], returns: FFIType.i64 },
    close: { args: [FFIType.i32], returns: FFIType.i32 },
    __errno_location: { args: [], returns: FFIType.ptr },
  })
  const s = lib.symbols
  return {
    inotify_init1: (flags: number) => s.inotify_init1(flags) as number,
    inotify_add_watch: (fd: number, path: Buffer, mask: number) => s.inotify_add_watch(fd, ptr(path), mask) as number,
    read: (fd: number, into: Uint8Array, size: number) => s.read(fd, ptr(into), size) as number | bigint,
    close: (fd: number) => s.close(fd) as number,
    errno: () => read.i32(s.__errno_location()!, 0),
  }
}
