// Which warm hook server a call belongs to, and whether its socket may be trusted: the socket's name is
// made of everything that must give a separate server (the binary, the user and its groups, the
// namespaces and root the process sees the machine through, the data folder and the store), and its
// folder must be the user's own, mode 0700, not a link, in a parent only the user (or root) can change.
// No other user can then connect, nor put a socket there for us to connect to.
import { lstatSync, readFileSync, readlinkSync, statSync } from "node:fs"
import { hostname } from "node:os"
import { hookSocketDirFor } from "../../core/base/hooksockets.ts"
import { ccodeHome, dbTarget } from "../home.ts"

/** Longest unix socket path the kernel takes (sun_path is 108 bytes with its NUL). */
const MAX_SOCKET_PATH = 107

export interface BinaryIdentity {
  dev: number
  ino: number
  size: number
  mtimeMs: number
}

/** The running binary's file as it is now (/proc/self/exe is the file this process was started from). */
export function binaryIdentity(path = "/proc/self/exe"): BinaryIdentity {
  const s = statSync(path)
  return { dev: s.dev, ino: s.ino, size: s.size, mtimeMs: s.mtimeMs }
}

export function sameBinary(a: BinaryIdentity, b: BinaryIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs
}

/** The socket of this binary, user and store; undefined when its path would be too long for a socket. */
export function socketPath(env: Record<string, string | undefined>, dbFlag: string | undefined, binary: BinaryIdentity, uid: number): string | undefined {
  const home = ccodeHome(env)
  const key = [uid, binary.dev, binary.ino, binary.size, binary.mtimeMs, home, dbTarget(dbFlag, env), ...processView()].join("\0")
  const name = new Bun.CryptoHasher("sha256").update(key).digest("hex").slice(0, 32)
  const path = `${hookSocketDirFor(env, home)}/${name}.sock`
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH ? path : undefined
}

/**
 * What a decision may depend on that the environment does not carry: the groups and capabilities (file
 * access), and the mount, network, user, pid, ipc and uts namespaces and the root directory (a container
 * or chroot sharing the data folder sees other files). The server and its workers inherit the first client's; a caller
 * that differs in any of them gets another server.
 */
function processView(): string[] {
  const links = ["ns/mnt", "ns/net", "ns/user", "ns/pid", "ns/ipc", "ns/uts", "root"].map((l) => {
    try {
      return readlinkSync(`/proc/self/${l}`)
    } catch {
      return `${l}:?`
    }
  })
  // the machine too: a data folder on a shared file system is seen by other machines' processes
  return [hostname(), String(process.getgid!()), process.getgroups!().sort((a, b) => a - b).join(","), ...links, privileges()]
}

// the capability sets, no_new_privs and seccomp mode: a process that may read what others of the same
// uid may not (CAP_DAC_READ_SEARCH) decides with its own view of the files
function privileges(): string {
  try {
    return readFileSync("/proc/self/status", "utf8").split("\n").filter((l) => /^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs|Seccomp):/.test(l)).join(";")
  } catch {
    return "status:?"
  }
}

/** Why the folder of `socket` must not be used (undefined: it is ours alone): it must be a real folder,
 *  not a link, owned by `uid`, with no permission for group or others. */
export function unsafeDir(dir: string, uid: number): string | undefined {
  const s = lstatSync(dir, { throwIfNoEntry: false })
  // a missing folder is made by the server, unless the parent it would be made in is not safe either
  if (!s) return unsafeParent(dir, uid, true) ?? `${dir} does not exist`
  if (s.isSymbolicLink() || !s.isDirectory()) return `${dir} is not a folder`
  if (s.uid !== uid) return `${dir} is owned by uid ${s.uid}, not ${uid}`
  if ((s.mode & 0o777) !== 0o700) return `${dir} has mode ${(s.mode & 0o777).toString(8)}, not 700`
  return unsafeParent(dir, uid, false)
}

// whoever may rename entries of the parent could swap the folder between the check and connect()
function unsafeParent(dir: string, uid: number, missingIsFine: boolean): string | undefined {
  const parent = dir.slice(0, dir.lastIndexOf("/")) || "/"
  const p = lstatSync(parent, { throwIfNoEntry: false })
  if (!p) return missingIsFine ? undefined : `${parent} is not a folder`
  if (p.isSymbolicLink() || !p.isDirectory()) return `${parent} is not a folder`
  if ((p.uid !== uid && p.uid !== 0) || (p.mode & 0o022) !== 0) return `${parent} may be changed by another user`
  return undefined
}

/** Why the socket file must not be connected to (undefined: a socket of ours): not a link, a socket, ours. */
export function unsafeSocket(path: string, uid: number): string | undefined {
  const s = lstatSync(path, { throwIfNoEntry: false })
  if (!s) return `${path} does not exist`
  if (!s.isSocket()) return `${path} is not a socket`
  if (s.uid !== uid) return `${path} is owned by uid ${s.uid}, not ${uid}`
  return undefined
}
