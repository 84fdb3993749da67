// Preview, confirm, commit (docs/sandbox.md): a sandboxed shell call runs against a scratch copy of the
// workspace; its change is shown and applied only when a person approves it — at the prompt, or later
// with `ccode approve` + `ccode resume` (the scratch copy and the diff wait under the run's folder).
import { rmSync } from "node:fs"
import { join, relative } from "node:path"
import type { Call, Decision } from "../policy/types.ts"
import { applyPreview, copyWorkspace, loadPreview, previewOf, savePreview, type Preview } from "../sandbox/preview.ts"
import { errorResult } from "../tools/envelope.ts"
import type { ToolResult } from "../tools/types.ts"
import { summarizeArgs } from "./approve.ts"
import type { Proposal } from "./call.ts"
import type { RunContext } from "./context.ts"
import { newId } from "./ids.ts"
import type { PendingCall } from "./state.ts"
import type { StateWrites } from "./recorder.ts"

export type Previewed = { kind: "result"; result: ToolResult } | { kind: "waiting"; requestId: string; writes: StateWrites }

/** "unavailable": a preview was asked for a shell call but the run has no sandbox to run it in. */
export function wantsPreview(ctx: RunContext, proposal: Proposal, call: Call): boolean | "unavailable" {
  if (proposal.tool !== "shell" || !(proposal.preview || ctx.governor.policy.sandbox.preview)) return false
  return ctx.sandbox && call.sandboxed ? true : "unavailable"
}

/** Never run a call that asked to be previewed straight on the workspace. */
export function previewUnavailable(): ToolResult {
  return errorResult("PREVIEW_UNAVAILABLE", "denied", "this call asks for a preview, which needs the OS sandbox, and the sandbox is not available in this run (see the sandbox warning); nothing was run")
}

/** Run `execute` in a scratch copy and settle its change; `pending.approved` with a stored preview applies it. */
export async function previewCall(
  ctx: RunContext, proposal: Proposal, callId: string, decision: Decision, pending: PendingCall | undefined,
  execute: (view: { cwd: string; workspace: string; sandbox: NonNullable<RunContext["sandbox"]> }) => Promise<ToolResult>,
): Promise<Previewed> {
  const sandbox = ctx.sandbox!
  const dir = join(sandbox.runDir, "preview", callId)
  const stored = pending?.approved ? loadPreview(dir) : undefined
  if (stored) return { kind: "result", result: commitPreview(ctx, callId, proposal, stored.preview, stored.result as ToolResult, dir) }

  let scratch: string
  try {
    scratch = copyWorkspace(ctx.workspace, dir)
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    return { kind: "result", result: errorResult("PREVIEW_FAILED", "execution", (error as Error).message) }
  }
  const cwd = join(scratch, relative(ctx.workspace, ctx.cwd))
  const result = await execute({ cwd, workspace: scratch, sandbox: sandbox.within(scratch) })
  const preview = previewOf(ctx.workspace, scratch)
  // a failed command's half-made change is not offered; nothing to apply is nothing to ask
  if (result.status !== "ok" || preview.changes.length === 0) {
    rmSync(dir, { recursive: true, force: true })
    return { kind: "result", result }
  }
  ctx.reporter.output(ctx.runId, callId, ctx.redactor.text(`preview of ${summarizeArgs(proposal.args)}: ${describeChanges(preview)}\n${preview.diff}`))
  const reason = `preview: ${describeChanges(preview)}; approve to apply exactly this change to the workspace`
  const onAsk = ctx.governor.policy.approval.on_ask
  if (ctx.human.interactive && onAsk === "prompt") {
    const answer = await ctx.human.approve(
      { runId: ctx.runId, tool: proposal.tool, args: proposal.args, decision: { ...decision, decision: "ask", reason }, step: proposal.itemId, diff: ctx.redactor.text(preview.diff) },
      ctx.governor.policy.approval.timeout,
    )
    if (answer === "once" || answer === "run") return { kind: "result", result: commitPreview(ctx, callId, proposal, preview, result, dir) }
    if (answer !== "timeout") {
      if (answer === "stop") ctx.stop = { status: "denied", reason: `preview denied at the prompt: ${proposal.tool}` }
      return { kind: "result", result: discard(ctx, callId, proposal, dir, "the previewed change was denied at the prompt and discarded") }
    }
  }
  if (onAsk === "deny") return { kind: "result", result: discard(ctx, callId, proposal, dir, "the previewed change was discarded (approval.on_ask: deny, nobody to ask)") }
  savePreview(dir, preview, ctx.redactor.value(result))
  const requestId = newId("q")
  const changes = preview.changes.map((c) => ({ path: c.path, kind: c.kind }))
  ctx.recorder.event("request.created", {
    req: requestId, kind: "approval", call: callId, step: proposal.itemId, tool: proposal.tool, args: proposal.args, risk: decision.risk, reason, preview: { changes, diff: preview.diff },
  })
  ctx.recorder.audit({ type: "permission", actor: "policy", callId, tool: proposal.tool, action: "preview", result: "asked", risk: decision.risk, reason, data: { request: requestId, changes } })
  const detail = JSON.stringify(ctx.redactor.value({ tool: proposal.tool, args: proposal.args, risk: decision.risk, reason, preview: { changes, diff: preview.diff } }))
  const request = {
    id: requestId, runId: ctx.runId, callId, itemId: proposal.itemId ?? null, kind: "approval" as const, status: "pending" as const,
    title: ctx.redactor.text(`preview: ${proposal.tool}: ${summarizeArgs(proposal.args)}`), detail, createdAt: Date.now(),
  }
  return { kind: "waiting", requestId, writes: { requests: [request] } }
}

function commitPreview(ctx: RunContext, callId: string, proposal: Proposal, preview: Preview, result: ToolResult, dir: string): ToolResult {
  try {
    applyPreview(ctx.workspace, preview)
  } catch (error) {
    return errorResult("PREVIEW_CONFLICT", "execution", `the previewed change was not applied: ${(error as Error).message}`)
  }
  ctx.recorder.audit({ type: "permission", actor: "user", callId, tool: proposal.tool, action: "preview:apply", result: "approved", reason: `applied ${describeChanges(preview)}`, data: { changes: preview.changes.map((c) => ({ path: c.path, kind: c.kind })) } })
  rmSync(dir, { recursive: true, force: true })
  return result
}

function discard(ctx: RunContext, callId: string, proposal: Proposal, dir: string, message: string): ToolResult {
  rmSync(dir, { recursive: true, force: true })
  ctx.recorder.audit({ type: "permission", actor: "user", callId, tool: proposal.tool, action: "preview:discard", result: "denied", reason: message })
  return errorResult("DENIED", "denied", message)
}

function describeChanges(preview: Preview): string {
  const count = (kind: string) => preview.changes.filter((c) => c.kind === kind).length
  return `${count("added")} added, ${count("changed")} changed, ${count("deleted")} deleted`
}
