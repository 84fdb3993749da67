// Ending a step's processes: its group, its escapes and their descendants, until none is left.
// Also the registry of steps running in this process, so a second Ctrl-C can SIGKILL them all
// synchronously before ccode exits (nothing is left behind holding the workspace).
import { existsSync } from "node:fs"
import { reapGroupZombies, reapNamespaceInits, reapOrphans } from "./subreaper.ts"
import { childrenOf, isLive, sandboxEnding, stepProcesses, taggedProcesses } from "./table.ts"

const ROUNDS = 20
const ROUND_PAUSE_MS = 10

const running = new Map<string, { pgid: number; since: number }>()

/**
 * Remember a running step (tag -> its group, and `since`: bootTicks() read just before it was
 * spawned, which no process of the step started before) until `forget`.
 */
export function track(tag: string, pgid: number, since: number): void {
  running.set(tag, { pgid, since })
}

export function forget(tag: string): void {
  running.delete(tag)
}

/** Send a signal to the group and every escape of one step, once. Returns the pids signalled. */
export function signalStep(tag: string, pgid: number | undefined, signal: NodeJS.Signals): number[] {
  if (pgid !== undefined) send(-pgid, signal)
  const pids = stepProcesses(tag, pgid, orphansOf(tag))
  for (const pid of pids) send(pid, signal)
  return pids
}

/**
 * SIGKILL a step's group and escapes, again and again until nothing of it is left (a process whose
 * parent was just killed is reparented a moment later, and is found in the next round).
 */
export async function killStep(tag: string, pgid: number | undefined): Promise<void> {
  const killed = new Set<number>()
  for (let round = 0; round < ROUNDS; round++) {
    const pids = signalStep(tag, pgid, "SIGKILL")
    for (const pid of pids) killed.add(pid)
    if (!pids.length) break
    await untilDead(pids, ROUND_PAUSE_MS)
  }
  await reapKilled([...killed])
  // members of the group that died of an earlier signal are not in `killed`: reap them as they come
  for (let round = 0; pgid !== undefined && round < 40 && reapGroupZombies(pgid) > 0; round++) await Bun.sleep(25)
  // a sandboxed step's pid 1 that was already dead when the step ended (so not among the killed):
  // ccode inherited it as a zombie; left there, every step would add one to ccode's children. One
  // still dropping its namespaces is reaped as soon as it is a zombie, without holding the step up
  const children = childrenOf(process.pid) ?? []
  // (looked for first: one that turns into a zombie between the two is reaped by either)
  const stillEnding = children.filter((pid) => sandboxEnding(pid))
  reapNamespaceInits(children)
  reapWhenDone(stillEnding)
}

const REAP_EVERY_MS = 20
const REAP_FOR_MS = 60_000
const ending = new Map<number, number>()
let reaper: ReturnType<typeof setInterval> | undefined

/** Reap these sandbox inits (ccode's children, ending) once each is a zombie, in the background; a later step's end reaps any left. */
function reapWhenDone(pids: readonly number[]): void {
  for (const pid of pids) ending.set(pid, performance.now() + REAP_FOR_MS)
  if (!ending.size || reaper) return
  reaper = setInterval(() => {
    reapNamespaceInits([...ending.keys()])
    for (const [pid, until] of ending) if (!sandboxEnding(pid) || performance.now() > until) ending.delete(pid)
    if (ending.size) return
    clearInterval(reaper)
    reaper = undefined
  }, REAP_EVERY_MS)
  // never what keeps ccode alive
  reaper.unref()
}

/**
 * Wait until every signalled process is dead (gone, a zombie, or a sandbox's init ending with its
 * namespace empty: isLive), polling every millisecond, for at most `ms`. A process's children are
 * reparented before it turns into a zombie, so the next round, started as soon as this returns, finds
 * whatever they left behind: what a fixed pause of `ms` found, without waiting it out when they died
 * at once (a sandboxed step's bwrap init, still ending by itself as the step ends, was killed and
 * waited for at every step's end, and its namespaces take 5-40 ms to drop on a busy machine).
 */
async function untilDead(pids: readonly number[], ms: number): Promise<void> {
  const deadline = performance.now() + ms
  while (pids.some(isLive)) {
    if (performance.now() >= deadline) return
    await Bun.sleep(1)
  }
}

/**
 * Reap what was killed. A SIGKILLed process dies, and an orphan is reparented to ccode, a moment
 * after the signal: one WNOHANG pass right away can miss it, and it would stay a zombie of a
 * long-lived ccode (`ccode mcp`). Bounded: at most about a second.
 */
async function reapKilled(pids: number[]): Promise<void> {
  for (let round = 0; round < 40; round++) {
    reapOrphans(pids)
    // a sandbox's init still dropping its namespaces is not waited for: a later step's end reaps it
    if (!pids.some((pid) => existsSync(`/proc/${pid}`) && !sandboxEnding(pid))) return
    await Bun.sleep(25)
  }
}

/** A step of an earlier ccode process (found by its tag anywhere on the machine): its live pids. */
export function leftoverProcesses(tag: string): number[] {
  return taggedProcesses(tag)
}

/** SIGKILL what is left of an earlier process's step, until nothing carries its tag. */
export async function killLeftover(tag: string, pgid: number | null): Promise<void> {
  for (let round = 0; round < ROUNDS; round++) {
    if (pgid !== null) send(-pgid, "SIGKILL")
    const pids = taggedProcesses(tag)
    for (const pid of pids) send(pid, "SIGKILL")
    if (!pids.length) return
    await Bun.sleep(ROUND_PAUSE_MS * 5)
  }
}

function orphansOf(tag: string): { since: number; otherGroups: Set<number> } | undefined {
  const step = running.get(tag)
  if (!step) return undefined
  const otherGroups = new Set([...running].filter(([other]) => other !== tag).map(([, s]) => s.pgid))
  return { since: step.since, otherGroups }
}

/** Second Ctrl-C: SIGKILL every running step's group and escapes now, synchronously. */
export function killAllNow(): void {
  for (const [tag, { pgid }] of running) {
    send(-pgid, "SIGKILL")
    for (let round = 0; round < 3; round++) if (!signalStep(tag, pgid, "SIGKILL").length) break
  }
}

function send(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal)
  } catch {
    // gone already
  }
}
