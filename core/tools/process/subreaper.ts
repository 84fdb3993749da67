// Makes ccode the subreaper of everything its steps start (Linux prctl PR_SET_CHILD_SUBREAPER):
// a `setsid`/double-fork escape is reparented to ccode instead of init, so it stays findable and
// can be reaped after it is killed. Best effort: elsewhere, escapes are found by their tag alone.
import { readdirSync, readFileSync } from "node:fs"
import { startedNamespace } from "./table.ts"

const PR_SET_CHILD_SUBREAPER = 36
const WNOHANG = 1

interface Libc {
  prctl(option: number, arg2: number, arg3: number, arg4: number, arg5: number): number
  waitpid(pid: number, status: null, options: number): number
}

let libc: Libc | null | undefined

function load(): Libc | null {
  if (libc !== undefined) return libc
  libc = null
  if (process.platform !== "linux") return libc
  try {
    // bun:ffi is loaded only here, on first use: nothing else pays for it
    const { dlopen, FFIType } = require("bun:ffi") as typeof import("bun:ffi")
    const lib = dlopen("libc.so.6", {
      prctl: { args: [FFIType.i32, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64], returns: FFIType.i32 },
      waitpid: { args: [FFIType.i32, FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
    })
    libc = lib.symbols as unknown as Libc
  } catch {
    libc = null
  }
  return libc
}

let enabled: boolean | undefined

/** Turn ccode into a subreaper (once); true when the kernel accepted it. */
export function becomeSubreaper(): boolean {
  if (enabled !== undefined) return enabled
  const lib = load()
  enabled = lib ? lib.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) === 0 : false
  return enabled
}

/**
 * Collect the exit status of orphans that were reparented to ccode and have been killed, so they do
 * not linger as zombies. Only pids ccode did not spawn itself are passed here (Bun reaps its own).
 */
export function reapOrphans(pids: number[]): void {
  const lib = load()
  if (!lib) return
  for (const pid of pids) {
    if (parentOf(pid) !== process.pid) continue
    try {
      lib.waitpid(pid, null, WNOHANG)
    } catch {
      // already reaped
    }
  }
}

/**
 * Reap the zombies among ccode's children that were the first process (pid 1) of a pid namespace
 * of their own: a sandboxed step's inner bwrap. bwrap's outer process, the one Bun started, exits as
 * soon as pid 1 reports the command's status, without waiting for pid 1 to end; pid 1 is then
 * reparented to ccode (the subreaper) and would stay a zombie until ccode exits, one per step. Bun
 * never starts a process in a new pid namespace, so no exit status Bun waits for is taken here.
 * `children`: ccode's direct children (from /proc). Returns how many were reaped.
 */
export function reapNamespaceInits(children: readonly number[]): number {
  const lib = load()
  if (!lib) return 0
  let reaped = 0
  for (const pid of children) {
    if (!isZombie(pid) || !startedNamespace(pid)) continue
    try {
      if (lib.waitpid(pid, null, WNOHANG) === pid) reaped++
    } catch {
      // already reaped
    }
  }
  return reaped
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.charAt(stat.lastIndexOf(")") + 2) === "Z"
  } catch {
    return false
  }
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
  } catch {
    return undefined
  }
}

/**
 * Reap zombies that were part of a step's process group and were reparented to ccode (a background
 * child that died of the group's SIGTERM before its pid was collected). The group leader is Bun's own
 * child and is left to Bun. Returns how many members of the group are still there.
 */
export function reapGroupZombies(pgid: number): number {
  const lib = load()
  if (!lib) return 0
  // no process of the group left, zombies included (a zombie keeps its group until it is reaped): skip
  // reading the whole process table, which every step's end would otherwise pay
  if (!groupExists(pgid)) return 0
  let entries: string[]
  try {
    entries = readdirSync("/proc")
  } catch {
    return 0
  }
  let left = 0
  for (const name of entries) {
    const pid = Number(name)
    if (!Number.isInteger(pid) || pid === pgid) continue
    let stat: string
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    } catch {
      continue
    }
    const [state, ppid, pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    if (Number(pgrp) !== pgid) continue
    if (state !== "Z" || Number(ppid) !== process.pid) {
      left++ // still dying, or not yet reparented to ccode
      continue
    }
    try {
      lib.waitpid(pid, null, WNOHANG)
    } catch {
      // already reaped
    }
  }
  return left
}

function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}
