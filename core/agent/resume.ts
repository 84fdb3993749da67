// Resuming an agent run: calls that were in flight when the process died are matched to the open
// turn by their key; idempotent ones run again, others wait for a person. Replaces the scripted
// driver's reconcile, whose waiting/pending maps are keyed by plan item.
import type { RunContext } from "../runner/context.ts"
import { newId } from "../runner/ids.ts"
import { endLeftovers } from "../runner/leftovers.ts"
import { openCalls } from "./conversation.ts"
import { attachHistory } from "./history.ts"
import { saveAgent } from "./save.ts"
import type { AgentState } from "./types.ts"
import { applyInFlight, requestInFlight } from "./waiting.ts"

export async function reconcileAgent(ctx: RunContext): Promise<void> {
  // intents are committed without a checkpoint: new calls number on from the last one stored
  ctx.state.callSeq = Math.max(ctx.state.callSeq, await ctx.store.lastCallSeq(ctx.runId))
  const agent = ctx.state.agent ? await attachHistory(ctx.store, ctx.runId, ctx.state.agent) : undefined
  const open = new Map((agent ? openCalls(agent) : []).map((c) => [c.key, c]))
  for (const row of await ctx.store.inFlightCalls(ctx.runId)) {
    const call = row.itemId ? open.get(row.itemId) : undefined
    if (!agent || !call || agent.waiting) {
      ctx.recorder.stage({ callPatches: [{ id: row.id, patch: { status: "abandoned", finishedAt: Date.now(), errorMessage: "in flight at a crash; its turn had moved on" } }] })
      continue
    }
    if (ctx.registry.get(row.tool)?.tool.idempotent) {
      await endLeftovers(ctx, row, "kill")
      // safe to run again: the driver makes a fresh call for it
      ctx.recorder.stage({ callPatches: [{ id: row.id, patch: { status: "abandoned", finishedAt: Date.now(), errorMessage: "in flight at a crash; run again (idempotent)" } }] })
      continue
    }
    // its processes may outlive the ccode that died: --approve-all ends them, a person chooses
    if ((ctx.human.interactive || ctx.approveAll) && (await endLeftovers(ctx, row, ctx.approveAll ? "kill" : undefined))) {
      // `resume --approve-all` settles a call found in flight now like any pending request: run it again
      const answer = ctx.approveAll ? "rerun" : await ctx.human.inFlight(ctx.runId, call.key, `${call.tool} ${JSON.stringify(call.args)}`)
      if (answer !== "later") {
        applyInFlight(ctx, agent, call, { callId: row.id, seq: row.seq }, answer)
        continue
      }
    }
    await requestInFlight(ctx, agent, call, { callId: row.id, seq: row.seq, pgid: row.pgid }, newId("q"))
  }
  ctx.state.stoppedBy = undefined
  await saveAgent(ctx, agent)
}
