// Which user namespaces a join into a live sandbox goes through. Unprivileged, bwrap makes two: the
// sandbox's mount, pid, network and IPC namespaces belong to an outer one, and its processes live in a
// nested one, so nothing inside holds a capability over the sandbox's own mounts. A join must end in
// that nested one too: a process left in the outer one, whose uid owns the nested one, would hold every
// capability over it (over the holder's memory among them), whatever its own capability sets say.
import { dlopen, FFIType } from "bun:ffi"
import { closeSync, openSync, readlinkSync } from "node:fs"

const NS_GET_PARENT = 0xb702

/**
 * none: the sandbox is in ccode's own user namespace (ccode runs as root). one: in a user namespace
 * whose parent is ccode's. two: nested in one whose parent is ccode's; `outer` names that one (a
 * descriptor of ccode's, open until `close`). Undefined: anything else, not joined.
 */
export type UserJoin = { kind: "none" } | { kind: "one" } | { kind: "two"; outer: string; close(): void }

export function userJoin(init: number): UserJoin | undefined {
  const own = linkOr("/proc/self/ns/user")
  const user = linkOr(`/proc/${init}/ns/user`)
  if (!own || !user) return undefined
  if (user === own) return { kind: "none" }
  const parent = parentOf(`/proc/${init}/ns/user`)
  if (parent === undefined) return undefined
  const parentName = linkOr(`/proc/self/fd/${parent}`)
  if (parentName === own) {
    closeSync(parent)
    return { kind: "one" }
  }
  const grandparent = parentOf(`/proc/self/fd/${parent}`)
  const grandparentName = grandparent === undefined ? undefined : linkOr(`/proc/self/fd/${grandparent}`)
  if (grandparent !== undefined) closeSync(grandparent)
  if (grandparentName !== own) {
    closeSync(parent)
    return undefined
  }
  return { kind: "two", outer: `/proc/${process.pid}/fd/${parent}`, close: () => closeSync(parent) }
}

let ioctl: ((fd: number, request: number) => number) | undefined

// a descriptor of the user namespace that holds the one at `path` (NS_GET_PARENT), or undefined
function parentOf(path: string): number | undefined {
  let fd: number | undefined
  try {
    ioctl ??= dlopen("libc.so.6", { ioctl: { args: [FFIType.i32, FFIType.u64], returns: FFIType.i32 } }).symbols.ioctl as (fd: number, request: number) => number
    fd = openSync(path, "r")
    const parent = ioctl(fd, NS_GET_PARENT)
    return parent >= 0 ? parent : undefined
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

function linkOr(path: string): string | undefined {
  try {
    return readlinkSync(path)
  } catch {
    return undefined
  }
}
