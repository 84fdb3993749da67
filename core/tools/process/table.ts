// Finding a step's processes in the process table: its process group, the escapes that ccode
// (as subreaper) inherited, and their descendants. Every step process carries the call id in its
// environment (CCODE_CALL_ID), which is how an escape from the group is recognised as the step's.
import { readdirSync, readFileSync } from "node:fs"

export const TAG_VARIABLE = "CCODE_CALL_ID"

interface Stat {
  ppid: number
  pgid: number
  zombie: boolean
  /** start time, in clock ticks since boot */
  start: number
  /** the kernel has begun ending it (PF_EXITING): it runs no more code of its own */
  exiting: boolean
}

const PF_EXITING = 0x4

/** ppid, pgid and zombie state of a process, or undefined when it is gone. */
export function statOf(pid: number | string): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ")
    return {
      ppid: Number(fields[1]), pgid: Number(fields[2]), zombie: fields[0] === "Z" || fields[0] === "X", start: Number(fields[19]),
      exiting: (Number(fields[6]) & PF_EXITING) !== 0,
    }
  } catch {
    return undefined
  }
}

/** A process of a step still to be killed or waited for: there, not a zombie, and not a sandbox's init on its way out. */
export function isLive(pid: number): boolean {
  const stat = statOf(pid)
  return stat !== undefined && !stat.zombie && !sandboxEnding(pid, stat)
}

/**
 * A sandbox's pid 1 that is ending with nothing left in its namespace. Every thread of it is exiting
 * (the kernel marks a thread so before it tears down what it held, and never lets it run its own code
 * again) and it has no child: every other process of a pid namespace descends from its init, so the
 * namespace holds none. What remains is the kernel dropping the sandbox's namespaces (unmounting its
 * mounts waits for RCU grace periods, 1 ms on an idle machine, 5-40 ms on a busy one), which no
 * process of the step takes part in: the step is over, and the init is reaped once it is a zombie.
 */
export function sandboxEnding(pid: number, stat = statOf(pid)): boolean {
  if (!stat || stat.zombie || !stat.exiting || !startedNamespace(pid)) return false
  let threads: string[]
  try {
    threads = readdirSync(`/proc/${pid}/task`)
  } catch {
    return false
  }
  return threads.every((tid) => statOf(`${pid}/task/${tid}`)?.exiting === true) && childrenOf(pid)?.length === 0
}

let ownLevels: number | undefined

/** True when the process is pid 1 of a pid namespace nested in ccode's (its NSpid ends in 1, one level deeper). */
export function startedNamespace(pid: number): boolean {
  ownLevels ??= namespacePids("self")?.length ?? 0
  const pids = namespacePids(String(pid))
  // a zombie keeps its pid numbers (NSpid) until it is reaped
  return pids !== undefined && ownLevels > 0 && pids.length > ownLevels && pids[pids.length - 1] === "1"
}

/** The process's pid in each pid namespace it is in, outermost first (status: NSpid). */
function namespacePids(pid: string): string[] | undefined {
  try {
    const line = /^NSpid:\s*(.*)$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return line ? line[1]!.trim().split(/\s+/) : undefined
  } catch {
    return undefined
  }
}

/**
 * Now, in the clock of a process's start time (`start` above: 1/100 s since boot, the USER_HZ of
 * every Linux); +Infinity where there is no /proc. Read from /proc/uptime, which never waits: reading
 * the stat of a process that is still starting (a bwrap setting up its namespaces) waited for it,
 * 1.5 ms a sandboxed step.
 */
export function bootTicks(): number {
  try {
    const [seconds, hundredths] = readFileSync("/proc/uptime", "latin1").split(" ")[0]!.split(".")
    const ticks = Number(seconds) * 100 + Number(hundredths)
    return Number.isFinite(ticks) ? ticks : Number.POSITIVE_INFINITY
  } catch {
    return Number.POSITIVE_INFINITY
  }
}

/** True when the process was started with CCODE_CALL_ID=<tag>. */
export function carriesTag(pid: number, tag: string): boolean {
  return carriesVariable(pid, TAG_VARIABLE, tag)
}

/** Live processes (not ccode itself) started with NAME=VALUE in their environment. */
export function processesWithEnv(name: string, value: string): number[] {
  const out: number[] = []
  for (const entry of safeReaddir("/proc")) {
    const pid = Number(entry)
    if (!Number.isInteger(pid) || pid === process.pid) continue
    const stat = statOf(pid)
    if (stat && !stat.zombie && carriesVariable(pid, name, value)) out.push(pid)
  }
  return out
}

function carriesVariable(pid: number, name: string, value: string): boolean {
  try {
    const environ = readFileSync(`/proc/${pid}/environ`)
    const needle = Buffer.from(`\0${name}=${value}\0`)
    // entries are NUL-separated: match a whole entry, the first one included
    return Buffer.concat([Buffer.from([0]), environ, Buffer.from([0])]).includes(needle)
  } catch {
    return false
  }
}

/** Direct children of a process (all its threads), from /proc; undefined when the kernel does not list them. */
export function childrenOf(pid: number): number[] | undefined {
  try {
    const out: number[] = []
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim()
      if (text) for (const child of text.split(" ")) out.push(Number(child))
    }
    return out
  } catch {
    return undefined
  }
}

/** A process and all its live descendants. */
export function withDescendants(roots: number[]): number[] {
  const seen = new Set<number>()
  const queue = [...roots]
  while (queue.length) {
    const pid = queue.pop()!
    if (seen.has(pid)) continue
    seen.add(pid)
    for (const child of childrenOf(pid) ?? []) queue.push(child)
  }
  return [...seen]
}

/**
 * The live processes of a step that ran in this ccode process: members of its group, children ccode
 * inherited as subreaper that carry its tag, and their descendants. Cheap: reads ccode's own
 * children, not the whole table (a full scan is the fallback when /proc lists no children).
 */
export function stepProcesses(tag: string, pgid?: number, orphans?: { since: number; otherGroups: Set<number> }): number[] {
  const mine = childrenOf(process.pid)
  if (!mine) return [...new Set([...taggedProcesses(tag), ...(pgid === undefined ? [] : groupMembers(pgid))])]
  const ownGroup = orphans ? statOf(process.pid)?.pgid : undefined
  const roots = mine.filter((pid) => {
    const stat = statOf(pid)
    if (!stat || stat.zombie || sandboxEnding(pid, stat)) return false
    if ((pgid !== undefined && stat.pgid === pgid) || carriesTag(pid, tag)) return true
    // an escape that dropped its tag (env -u): ccode inherited it, it left ccode's own group (ccode's
    // own helpers, git and MCP servers, stay in it), it belongs to no other running step, and it
    // started after this step did
    return orphans !== undefined && stat.pgid !== ownGroup && !orphans.otherGroups.has(stat.pgid) && stat.start >= orphans.since
  })
  const found = new Set(withDescendants(roots))
  if (pgid !== undefined) for (const pid of groupMembers(pgid)) found.add(pid)
  return [...found].filter((pid) => pid !== process.pid && isLive(pid))
}

/** Every live process on the machine that carries the tag, and its descendants (a full /proc scan). */
export function taggedProcesses(tag: string): number[] {
  const out: number[] = []
  for (const name of safeReaddir("/proc")) {
    const pid = Number(name)
    if (!Number.isInteger(pid) || pid === process.pid) continue
    const stat = statOf(pid)
    if (!stat || stat.zombie || sandboxEnding(pid, stat)) continue
    if (carriesTag(pid, tag)) out.push(pid)
  }
  return withDescendants(out).filter((pid) => pid !== process.pid && isLive(pid))
}

/** Is any process of the group alive (zombies aside)? */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
  return groupMembers(pgid).length > 0 || childrenOf(process.pid) === undefined
}

function groupMembers(pgid: number): number[] {
  try {
    process.kill(-pgid, 0)
  } catch {
    return []
  }
  const out: number[] = []
  for (const name of safeReaddir("/proc")) {
    const pid = Number(name)
    if (!Number.isInteger(pid)) continue
    const stat = statOf(pid)
    if (stat && !stat.zombie && stat.pgid === pgid) out.push(pid)
  }
  return out
}

function safeReaddir(path: string): string[] {
  try {
    return readdirSync(path)
  } catch {
    return []
  }
}
