// The long-lived run behind `ccode mcp` (driver "mcp", one per server session): every call a client
// makes goes through runCall — decided, run, checkpointed and audited like a step of a task. An `ask`
// becomes an approval request and an error result saying how to approve; the same call made again
// after `ccode approve` runs. Never executes a call the policy did not allow.
import { hashArgs, runCall, commitWithCheckpoint, type CallOutcome } from "../runner/call.ts"
import type { RunOptions } from "../runner/context.ts"
import type { RunResult } from "../runner/finish.ts"
import { openRun, planTask, type RunEnv } from "../runner/lifecycle.ts"
import { denialReason } from "../runner/requests.ts"
import type { PendingCall } from "../runner/state.ts"
import type { LoadedTask } from "../task/load.ts"
import { mcpDriver } from "./driver.ts"
import { parseYaml } from "../base/yaml.ts"
import { errorResult } from "../tools/envelope.ts"
import { ToolFailure, type Tool, type ToolResult } from "../tools/types.ts"

/** Tools that only make sense inside ccode's own agent loop (a plan, a person at ccode's terminal, the end of a run). */
const AGENT_ONLY = new Set(["ask_user", "update_plan", "finish", "scratchpad"])
const CANCELLED = "cancelled by the MCP client (notifications/cancelled)"

export interface McpSession {
  runId: string
  /** the tools served: built-ins and plugins (not other servers' tools) */
  tools: Tool[]
  /** whether this session serves a tool of that name (an unknown one is a protocol error, -32602) */
  serves(name: string): boolean
  /** `signal`: the client's notifications/cancelled for this request; the call's process group is killed */
  call(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult>
  /** what a client may see: secrets masked as everywhere else */
  redact(text: string): string
  /** plugins and servers left out, for the person who started the server */
  problems: string[]
  /** finish the run (status, summary, audit) and stop MCP servers the run started */
  close(): Promise<RunResult>
}

export interface McpSessionOptions {
  cwd: string
  options: RunOptions
  /** how to reach this database in `ccode approve` hints (the --db the server was started with) */
  dbHint?: string
}

export async function openMcpSession(env: RunEnv, opts: McpSessionOptions): Promise<McpSession> {
  const planned = await planTask(env, sessionTask(opts.cwd), opts.options, mcpDriver)
  const run = await openRun(env, planned, { action: "mcp", reason: "ccode mcp" })
  const { ctx } = run
  const { runId } = ctx

  const tools = [...ctx.registry.values()].filter((r) => !r.source.startsWith("mcp:") && !AGENT_ONLY.has(r.tool.name)).map((r) => r.tool)
  const served = new Set(tools.map((t) => t.name))
  // calls waiting for a person, by tool + arguments: the same call made again picks up the answer
  const waiting = new Map<string, PendingCall & { requestId: string }>()
  const approve = (requestId: string) => `ccode approve ${runId} ${requestId}${opts.dbHint ? ` --db ${opts.dbHint}` : ""}`
  let queue: Promise<unknown> = Promise.resolve()
  let closed: Promise<RunResult> | undefined

  const callOnce = async (name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult> => {
    if (closed) return errorResult("SESSION_CLOSED", "execution", "this ccode mcp session has ended")
    // cancelled while it waited for the call before it: never started
    if (signal?.aborted) return errorResult("CANCELLED", "execution", CANCELLED)
    if (!served.has(name)) return errorResult("NOT_FOUND", "not_found", `no tool named "${name}" here; tools/list shows the tools ccode serves`)
    if (ctx.stop) return errorResult("STOPPED", "denied", `ccode stopped this session: ${ctx.stop.reason}. A person can start \`ccode mcp\` again.`)
    const key = hashArgs(name, args)
    const earlier = waiting.get(key)
    let pending: PendingCall | undefined
    if (earlier) {
      const request = await env.store.getRequest(earlier.requestId)
      if (request?.status === "pending") {
        return errorResult("APPROVAL_PENDING", "denied", `still waiting for a person to approve this call: \`${approve(earlier.requestId)}\` (or \`ccode deny ${runId} ${earlier.requestId}\`), then call it again`)
      }
      waiting.delete(key)
      if (request?.status === "approved") pending = { callId: earlier.callId, seq: earlier.seq, approved: true, forRun: Boolean(request.forRun), ...(earlier.shown && { shown: earlier.shown }) }
      else return errorResult("DENIED", "denied", denialReason({ settledBy: request?.settledBy ?? null, answer: request?.answer ?? null }))
    }
    // one controller per call (calls run one at a time): the client's cancel stops this call only,
    // a signal to the server (ctx.cancel at that moment) still stops whatever runs
    const cancel = new AbortController()
    ctx.cancel = cancel
    const onCancel = () => cancel.abort(new ToolFailure("CANCELLED", "execution", CANCELLED))
    signal?.addEventListener("abort", onCancel, { once: true })
    try {
      const outcome = await runCall(ctx, { tool: name, args }, () => {}, pending)
      if (signal?.aborted && outcome.kind === "ran") await recordCancel(outcome.callId, name)
      return resultFor(outcome, key)
    } finally {
      signal?.removeEventListener("abort", onCancel)
    }
  }

  // the call's own row says failed/CANCELLED; this row says who cancelled it
  const recordCancel = (callId: string, tool: string) => {
    ctx.recorder.audit({ type: "state_change", actor: "user", callId, tool, action: "cancelled", result: "denied", reason: CANCELLED })
    return commitWithCheckpoint(ctx)
  }

  const resultFor = (outcome: CallOutcome, key: string): ToolResult => {
    switch (outcome.kind) {
      case "ran":
      case "denied":
        return outcome.result
      case "waiting":
        waiting.set(key, { callId: outcome.callId, seq: outcome.seq, requestId: outcome.requestId, ...(outcome.shown && { shown: outcome.shown }) })
        return errorResult(
          "APPROVAL_REQUIRED", "denied",
          `needs a person's approval (risk ${outcome.decision.risk}: ${outcome.decision.reason}). ` +
            `Ask them to run \`${approve(outcome.requestId)}\` (--for-run also allows similar calls for the rest of this session) ` +
            `or \`ccode deny ${runId} ${outcome.requestId}\`, then call the tool again with the same arguments.`,
        )
      case "halted":
        return errorResult("STOPPED", "denied", `stopped by the ${outcome.trip.guard} guard: ${outcome.trip.reason}`)
      case "interrupted":
        return errorResult("INTERRUPTED", "execution", "ccode was stopped by a signal while this call ran; it may or may not have taken effect")
    }
  }

  return {
    runId,
    tools,
    problems: run.problems,
    redact: (text) => ctx.redactor.text(text),
    // one call at a time, in arrival order: the run's checkpoints and guards see a sequence, as in a task
    serves: (name) => served.has(name),
    call(name, args, signal) {
      const next = queue.then(() => callOnce(name, args, signal))
      queue = next.catch(() => {})
      return next
    },
    close() {
      closed ??= queue.then(run.finish)
      return closed
    },
  }
}

// The run needs a task: this one has no steps, its workdir is where `ccode mcp` serves.
function sessionTask(cwd: string): LoadedTask {
  const file = "(ccode mcp)"
  // no task file chose this folder: the untrusted-task workspace limit is about what a file may pick
  return { file, dir: cwd, name: "mcp", workdir: cwd, spec: {}, steps: [], source: parseYaml("{}\n", file), sha256: "", workdirByPerson: true }
}
