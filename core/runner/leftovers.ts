// A call found in flight on resume may still be running: the ccode that started it died (kill -9),
// but its processes did not. Before anything settles such a call, what is left of it is found (by
// its call id, which every one of its processes carries) and, by a person's choice, killed or waited
// for — so a call never runs twice at the same time.
import { killLeftover, leftoverProcesses } from "../tools/process/kill.ts"
import type { RunContext } from "./context.ts"

export type LeftoverChoice = "kill" | "wait"

const WAIT_POLL_MS = 200

export interface InFlightRow {
  id: string
  tool: string
  itemId: string | null
  pgid: number | null
}

/** "still running as pgid N" when processes of the call are alive, else undefined. */
export function stillRunning(call: InFlightRow): string | undefined {
  const pids = leftoverProcesses(call.id)
  if (!pids.length) return undefined
  return call.pgid !== null ? `still running as pgid ${call.pgid}` : `still running as pid ${pids.join(", ")}`
}

/**
 * End what is left of an in-flight call: `choice` when given, else the person at the terminal picks.
 * Returns false when processes are still alive and nobody chose (the call must stay in flight).
 */
export async function endLeftovers(ctx: RunContext, call: InFlightRow, choice?: LeftoverChoice): Promise<boolean> {
  const running = stillRunning(call)
  if (!running) return true
  ctx.recorder.event("tool.warning", { call: call.id, step: call.itemId, tool: call.tool, pgid: call.pgid, message: `step ${call.itemId ?? call.id} is ${running}` })
  const chosen = choice ?? (ctx.human.interactive ? await ctx.human.stillRunning(ctx.runId, call.itemId ?? call.id, running) : undefined)
  if (!chosen || chosen === "later") return false
  ctx.recorder.audit({
    type: "permission", actor: choice ? "system" : "user", callId: call.id, tool: call.tool, action: `still_running:${chosen}`,
    result: "approved", reason: `call ${call.id} was ${running} when the run resumed; ${chosen === "kill" ? "killed" : "waited for"}`,
  })
  if (chosen === "kill") await killLeftover(call.id, call.pgid)
  else await waitForLeftover(ctx, call.id)
  return leftoverProcesses(call.id).length === 0
}

async function waitForLeftover(ctx: RunContext, tag: string): Promise<void> {
  ctx.reporter.output(ctx.runId, "", `waiting for the earlier copy of call ${tag} to end (Ctrl-C to stop waiting)\n`)
  while (leftoverProcesses(tag).length && !ctx.cancel.signal.aborted) await Bun.sleep(WAIT_POLL_MS)
}
