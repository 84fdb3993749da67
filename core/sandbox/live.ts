// A run's shared sandbox: one bwrap kept alive, whose pid 1 is `ccode __sandbox-hold`, that calls
// join with nsenter (its namespaces and root) instead of each starting a bwrap of its own (7-10 ms
// a call). Joined only by a call whose layout is the one it was started with and whose mounted paths
// are still the same files (identity below); one call at a time; everything a call started is killed
// before the call ends. Never weaker than a bwrap per call: whatever cannot be checked is not shared.
import { accessSync, constants, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync } from "node:fs"
import { isInside } from "../base/paths.ts"
import { bwrapArgv, FILTER_FD } from "./args.ts"
import type { ProcessTable, SandboxLayout } from "./types.ts"

/** How long the holder may take to say it is ready (bun's start-up on a busy machine). */
const START_TIMEOUT_MS = 5000
const END_ROUNDS = 200
const SYSTEM_DIRS = ["/usr/bin", "/bin", "/usr/sbin", "/sbin"]

export interface LiveSandbox {
  /** the layout it was started with, cwd aside (a call's cwd is its own chdir) */
  key: string
  /** dev and inode (and ctime, for files) of every path mounted or hidden, when it was started */
  identity: string
  /** the argv that joins it, up to the working directory */
  join: (cwd: string) => string[]
  /** a call is joined to it now */
  busy: boolean
  /** the holder or bwrap ended, or a call's leftovers could not be ended: never joined again */
  dead: boolean
  /** host pid of its pid 1 (the holder) */
  init: number
  processes: ProcessTable
  stop(): Promise<void>
}

/** The layout a live sandbox is reused for: everything but the working directory. */
export function layoutKey(layout: SandboxLayout): string {
  return JSON.stringify({ ...layout, cwd: "" })
}

/**
 * What the mounts were made of: a path replaced on the host since (a secret renamed over, a .git/config
 * rewritten through a rename, a hidden file removed and linked back) has another inode or ctime, and the
 * live sandbox's mount would still sit on the old one. And the host's mount table: a file system mounted
 * on the host since is not in the live sandbox, where a bwrap started now would show it (read-only).
 * Undefined when a path cannot be looked at.
 */
export function layoutIdentity(layout: SandboxLayout): string | undefined {
  const paths = [...layout.writable, ...layout.pinned, ...layout.readOnly, ...layout.hidden.map((h) => h.path), "/dev/null"]
  const own = new Set(layout.hidden.filter((h) => h.own).map((h) => h.path))
  const out: string[] = []
  for (const path of paths) {
    try {
      const stat = statSync(path, { bigint: true })
      // a directory's ctime moves with every entry made in it; its inode is its one dentry (so is ccode's database's)
      out.push(`${stat.dev}:${stat.ino}${stat.isDirectory() || own.has(path) ? "" : `:${stat.ctimeNs}`}`)
    } catch {
      return undefined
    }
  }
  const mounts = statText("/proc/self/mountinfo")
  return mounts === undefined ? undefined : `${out.join(",")}\n${mounts}`
}

export interface JoinTools {
  nsenter: string
  setpriv: string
  env: string
  unshare: string
}

/** nsenter, setpriv, env and unshare from the system's own folders (never from PATH, which the workspace may lead). */
export function joinTools(): JoinTools | undefined {
  const find = (name: string) => SYSTEM_DIRS.map((dir) => `${dir}/${name}`).find((path) => {
    try {
      accessSync(path, constants.X_OK)
      return true
    } catch {
      return false
    }
  })
  const nsenter = find("nsenter")
  const setpriv = find("setpriv")
  const env = find("env")
  const unshare = find("unshare")
  return nsenter && setpriv && env && unshare ? { nsenter, setpriv, env, unshare } : undefined
}

/**
 * Start a live sandbox for this layout, or undefined when it cannot be shared safely: a layout with a
 * network proxy (per call), a holder that a call could rewrite (ccode inside a writable root), a holder
 * that does not become a non-dumpable pid 1, a join that does not drop every capability.
 */
export async function startLive(layout: SandboxLayout, hold: string[], tools: JoinTools, processes: ProcessTable): Promise<LiveSandbox | undefined> {
  if (layout.proxy || layout.network === "proxy") return undefined
  if (hold.some((path) => path.startsWith("/") && layout.writable.some((w) => isInside(w, realOr(path))))) return undefined
  const identity = layoutIdentity(layout)
  if (identity === undefined) return undefined
  const argv = bwrapArgv(layout, hold)
  // pid 1 is the holder itself: no bwrap init a command could ptrace and keep running between calls
  argv.splice(argv.indexOf(layout.bwrap) + 1, 0, "--as-pid-1")
  const since = processes.bootTicks()
  const child = Bun.spawn(argv, { stdin: "pipe", stdout: "pipe", stderr: "ignore", env: { PATH: "/usr/bin:/bin" }, detached: true })
  // never what keeps ccode running: it is stopped at the run's end, and dies with ccode in any case
  child.unref()
  const tag = `sandbox:${child.pid}`
  // its own group, known to every step's end: never taken for a step's escape
  processes.track(tag, child.pid, since)
  const live: LiveSandbox = {
    key: layoutKey(layout), identity, join: () => [], busy: false, dead: false, init: 0, processes,
    async stop() {
      live.dead = true
      child.kill("SIGKILL")
      await child.exited
      processes.forget(tag)
      await untilGone(live.init, processes)
    },
  }
  void child.exited.then(() => {
    live.dead = true
  })
  const ready = await readyLine(child.stdout, START_TIMEOUT_MS)
  live.init = holderPid(child.pid) ?? 0
  if (!ready || !live.init || live.dead) {
    await live.stop()
    return undefined
  }
  // only in ccode's own user namespace (ccode runs as root), never for another user: there bwrap makes
  // user namespaces, and the kernel keeps one user keyring (@u) per uid and user namespace, so a key
  // one call adds would be found by every later call (a bwrap per call makes new ones, and a new
  // keyring, each time), and nothing here can empty it from outside reliably. (Joining as another user
  // went through the user namespaces with nsenter --user: in the history of core/sandbox/userns.ts.)
  const ownUser = readlinkOr("/proc/self/ns/user")
  if (!ownUser || readlinkOr(`/proc/${live.init}/ns/user`) !== ownUser) {
    await live.stop()
    return undefined
  }
  // the working directory is the holder's (`--wd` alone: the start's cwd, inside), then the call's through
  // env when it is another folder: nsenter opens a `--wd=DIR` (and keeps its own cwd) before it enters,
  // which would leave the call in a folder of the host's mount tree, where every relative path escapes
  // the sandbox's read-only mounts
  const startCwd = { path: layout.cwd, id: fileId(layout.cwd) }
  live.join = (cwd) => [
    // the set-id filter (setid-filter.ts), opened on the host (the run's folder is hidden inside) and
    // loaded inside by a bwrap that only binds the sandbox's own tree onto itself (about 3 ms)
    ...(layout.seccomp ? ["/bin/sh", "-p", "-c", `exec "$@" ${FILTER_FD}<"$0"`, layout.seccomp] : []),
    tools.nsenter, `--target=${live.init}`, "--mount", "--pid", "--net", "--ipc", "--root", "--wd", "--",
    // an IPC namespace of the call's own (SysV shared memory, semaphores, message queues, POSIX
    // message queues): nothing one call leaves there is found by the next
    tools.unshare, "--ipc", "--",
    ...(layout.seccomp ? [layout.bwrap, "--dev-bind", "/", "/", "--seccomp", String(FILTER_FD), "--"] : []),
    tools.setpriv, "--nnp", "--bounding-set=-all", "--inh-caps=-all", "--ambient-caps=-all", "--pdeathsig=KILL", "--",
    // the holder's own folder, unless it was removed and made again since (then the holder's is the old one)
    ...(cwd === startCwd.path && startCwd.id !== undefined && fileId(cwd) === startCwd.id ? [] : [tools.env, `--chdir=${cwd}`, "--"]),
  ]
  if (!(await joinDropsEverything(live.join(layout.cwd), readlinkOr(`/proc/${live.init}/ns/user`), readlinkOr(`/proc/${live.init}/ns/ipc`), layout.seccomp !== undefined))) {
    await live.stop()
    return undefined
  }
  return live
}

/**
 * After a call: SIGKILL every process in the sandbox but its pid 1 until its pid namespace's /proc lists
 * nothing else, zombies included (the holder reaps them): "clean", and /dev/shm emptied. A process is
 * never judged by its state or name: a thread group whose main thread exited shows Z while its other
 * threads run, a stopped or traced one shows T, and any of them can rename itself. Otherwise the
 * sandbox is stopped, which ends everything in it: "ended" when it had ended by itself (its holder
 * killed), "stuck" when its /proc could not be read or kept a process (never worth starting another for
 * this run).
 */
export async function endCall(live: LiveSandbox): Promise<"clean" | "ended" | "stuck"> {
  for (let round = 0; round < END_ROUNDS && !live.dead; round++) {
    const left = listedInNamespace(live.init)
    if (left === 0) {
      if (emptyShm(live.init)) return "clean"
      break
    }
    if (left === undefined) break
    for (const pid of live.processes.withDescendants([live.init])) if (pid !== live.init) send(pid)
    // one not under the holder on the host (a join's process whose nsenter has not ended yet): found by namespace
    if (round >= 5) for (const pid of inPidNamespace(live.init)) if (pid !== live.init) send(pid)
    await Bun.sleep(round < 20 ? 1 : 10)
  }
  // its holder gone (killed, crashed): the sandbox ended by itself, and bwrap's exit may not be seen yet
  const ended = live.dead || !live.processes.isLive(live.init)
  await live.stop()
  return ended ? "ended" : "stuck"
}

/** Processes of the namespace other than its pid 1, whatever their state, from its own /proc; undefined when unreadable. */
function listedInNamespace(init: number): number | undefined {
  try {
    return readdirSync(`/proc/${init}/root/proc`).filter((entry) => entry !== "1" && /^\d+$/.test(entry)).length
  } catch {
    return undefined
  }
}

/** Host pids of every process in the holder's pid namespace (a scan of the host's /proc). */
function inPidNamespace(init: number): number[] {
  const ns = readlinkOr(`/proc/${init}/ns/pid`)
  if (!ns) return []
  const out: number[] = []
  for (const entry of readdirSync("/proc")) {
    if (/^\d+$/.test(entry) && readlinkOr(`/proc/${entry}/ns/pid`) === ns) out.push(Number(entry))
  }
  return out
}

/**
 * Empty the sandbox's /dev/shm (its own tmpfs under a read-only /dev), from the host, once nothing runs
 * in the sandbox: what a call left there is not there for the next. False when it cannot be emptied.
 */
function emptyShm(init: number): boolean {
  const shm = `/proc/${init}/root/dev/shm`
  try {
    for (const entry of readdirSync(shm)) rmSync(`${shm}/${entry}`, { recursive: true, force: true })
    return readdirSync(shm).length === 0
  } catch {
    return false
  }
}

/** The probe: a join that has no capability, no new privileges, is in the holder's pid and user namespaces, and in an IPC namespace of its own. */
async function joinDropsEverything(join: string[], holderUser: string | undefined, holderIpc: string | undefined, seccomp: boolean): Promise<boolean> {
  try {
    const probe = Bun.spawn([...join, "/bin/sh", "-c", "readlink /proc/self/ns/user /proc/self/ns/ipc; cat /proc/self/status"], { stdin: "ignore", stdout: "pipe", stderr: "ignore", env: { PATH: "/usr/bin:/bin" }, timeout: START_TIMEOUT_MS, killSignal: "SIGKILL" })
    const [text, code] = await Promise.all([new Response(probe.stdout).text(), probe.exited])
    const [user, ipc] = text.split("\n")
    if (!holderUser || user !== holderUser || !holderIpc || !ipc?.startsWith("ipc:") || ipc === holderIpc) return false
    const field = (name: string) => new RegExp(`^${name}:\\s*(\\S+)`, "m").exec(text)?.[1]
    // the sandbox's own /proc: a process there is in its pid namespace, and sees one level of pids
    const nspid = /^NSpid:\s*\d+\s*$/m.test(text)
    const none = (cap: string) => /^0+$/.test(field(cap) ?? "x")
    // a uid other than 0 gains nothing from the bounding set with no new privileges (its exec grants no
    // capability; setpriv, itself run without any, cannot empty it there); uid 0 would, at every exec
    const root = /^Uid:\s*0\s/m.test(text)
    // the set-id filter loaded (2: a seccomp filter) when the layout has one
    const filtered = !seccomp || field("Seccomp") === "2"
    return code === 0 && nspid && filtered && field("NoNewPrivs") === "1" && ["CapInh", "CapPrm", "CapEff", "CapAmb"].every(none) && (none("CapBnd") || !root)
  } catch {
    return false
  }
}

async function readyLine(stream: ReadableStream<Uint8Array>, ms: number): Promise<boolean> {
  const reader = stream.getReader()
  const timer = Bun.sleep(ms).then(() => undefined)
  let text = ""
  try {
    while (!text.includes("\n")) {
      const next = await Promise.race([reader.read(), timer])
      if (!next || next.done) return false
      text += new TextDecoder().decode(next.value)
    }
    return text === "ready\n"
  } finally {
    reader.cancel().catch(() => undefined)
  }
}

// bwrap's one child is the holder (pid 1 inside)
function holderPid(bwrap: number): number | undefined {
  try {
    const pid = Number(readFileSync(`/proc/${bwrap}/task/${bwrap}/children`, "utf8").trim().split(" ")[0])
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

async function untilGone(pid: number, processes: ProcessTable): Promise<void> {
  for (let i = 0; pid && i < 1000 && processes.isLive(pid); i++) await Bun.sleep(1)
}

function fileId(path: string): string | undefined {
  try {
    const stat = statSync(path, { bigint: true })
    return `${stat.dev}:${stat.ino}`
  } catch {
    return undefined
  }
}

function statText(path: string): string | undefined {
  try {
    return readFileSync(path, "latin1")
  } catch {
    return undefined
  }
}

function readlinkOr(path: string): string | undefined {
  try {
    return readlinkSync(path)
  } catch {
    return undefined
  }
}

function realOr(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

function send(pid: number): void {
  try {
    process.kill(pid, "SIGKILL")
  } catch {
    // gone already
  }
}
