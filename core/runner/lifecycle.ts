// Starting and resuming runs: load everything, create or reload the run, drive it, finish it.
// Every configuration problem surfaces before a run row exists.
import { existsSync } from "node:fs"
import { hostname } from "node:os"
import { createRedactor } from "../redact/index.ts"
import { latestCheckpoint, loadPlan } from "../store/calls.ts"
import type { Store } from "../store/open.ts"
import { requestsOf, settleRequest } from "../store/requests.ts"
import { findRun, insertRun, TERMINAL, updateRun, type RunRow } from "../store/runs.ts"
import { loadTask, type LoadedTask } from "../task/load.ts"
import { commit } from "./call.ts"
import type { Human, RunContext, RunOptions } from "./context.ts"
import type { Reporter } from "./events.ts"
import { finishRun, type RunResult } from "./finish.ts"
import { FailFastStop } from "./batch.ts"
import { newId } from "./ids.ts"
import { runIsLive } from "./liveness.ts"
import { reportExtras } from "../plugins/extras.ts"
import { resumeGuards } from "../guards/index.ts"
import { createSnapshotHook } from "../snapshot/hook.ts"
import { isReadOnly } from "../tools/declare.ts"
import { createSnapshotter } from "../snapshot/index.ts"
import { haltOrContinue, watchEnd, watchStart } from "./guarding.ts"
import { createPlan, planOutcome, type PlanItem } from "./plan.ts"
import { prepareRun, type Prepared } from "./prepare.ts"
import { reconcile } from "./reconcile.ts"
import { ensureSummary } from "./summary.ts"
import { initialState, type RunState, type StepConfig } from "./state.ts"
import { driveSteps } from "./steps.ts"
import { reportSandbox, sandboxOfRun } from "./sandbox.ts"
import { driveAgent } from "../agent/driver.ts"
import { reconcileAgent } from "../agent/resume.ts"
import { policyStamp } from "../policy/fingerprint.ts"
import { changesApproval, describeOverrides, redecideWaiting, withOverrides, type ResumeOverrides } from "./overrides.ts"

export interface RunEnv {
  store: Store
  /** CCODE_HOME: summaries, caches */
  home: string
  human: Human
  reporter: Reporter
  /** the process environment */
  env: Record<string, string | undefined>
  /** fired on SIGINT/SIGTERM */
  interrupt: AbortSignal
}

/**
 * What is stored with a run so resume continues it with the same options. The steps themselves are
 * read again from the task file (their arguments may hold secrets, which are never stored); the hash
 * proves the plan is the one the run started with.
 */
interface StoredSpec {
  options: RunOptions
  steps_hash: string
}

export class ResumeError extends Error {
  readonly exitCode = 2
}

/** A task checked and ready to run: everything that can be wrong with it has been found. */
export interface PlannedRun {
  task: LoadedTask
  prepared: Prepared
  options: RunOptions
}

/** Load and check a task and its policy and tools; throws ConfigError (exit 2) before anything is stored. */
export async function planRun(env: RunEnv, taskFile: string, options: RunOptions): Promise<PlannedRun> {
  const task = loadTask(taskFile)
  return { task, prepared: await prepareRun(env, task, options), options }
}

export async function startRun(env: RunEnv, planned: PlannedRun, batch?: string): Promise<RunResult> {
  const { task, prepared, options } = planned
  const runId = newId("r")
  const now = Date.now()
  const steps = Object.fromEntries(prepared.steps.map((s) => [s.id, s.config]))
  const plan = createPlan(prepared.steps.map((s) => ({ id: s.id, title: s.title, needs: s.needs, continueOnError: s.continueOnError })))
  const ctx = context(env, prepared, task, runId, options, initialState(plan, task.spec.agent ? "agent" : "plan"))
  ctx.recorder.event("run.started", { task: task.name, task_file: task.file, workdir: task.workdir, steps: plan.items.length, driver: task.spec.agent ? "agent" : "steps" })
  ctx.recorder.audit({ type: "session_start", actor: "user", action: "run", reason: `ccode run ${task.file}`, data: { options, policy_warnings: prepared.governor.policy.ignored, ...policyStamp(prepared.governor.policy) } })
  for (const warning of prepared.governor.policy.ignored) {
    ctx.recorder.event("policy.warning", { message: warning })
    ctx.recorder.audit({ type: "policy", actor: "policy", action: "ignored_grant", result: "denied", reason: warning })
  }
  reportExtras(ctx.recorder, prepared.extras)
  reportSandbox(ctx, prepared.sandbox)
  for (const warning of prepared.warnings) {
    ctx.recorder.event("policy.warning", { message: warning })
    ctx.recorder.audit({ type: "policy", actor: "policy", action: "load_warning", result: null, reason: warning })
  }
  if (!prepared.redactor.enabled) {
    const why = env.env.CCODE_REDACT === "0" ? "CCODE_REDACT=0" : "redaction.enabled: false in the policy"
    ctx.recorder.audit({ type: "policy", actor: "user", action: "redaction_disabled", result: "approved", reason: `secret redaction is OFF for this run (${why})` })
    ctx.recorder.event("policy.warning", { message: `secret redaction is off (${why}): outputs are stored as they are` })
  }
  commit(ctx, () =>
    insertRun(env.store, {
      id: runId, task: task.name, taskFile: task.file, workdir: task.workdir, status: "running",
      driver: task.spec.agent ? "agent" : "steps", policyHash: prepared.policyHash, pid: process.pid, host: hostname(),
      batch: batch ?? null, createdAt: now, updatedAt: now, options: JSON.stringify({ options, steps_hash: prepared.stepsHash } satisfies StoredSpec),
    }),
  )
  return drive(ctx, env, new Map(Object.entries(steps))).finally(() => prepared.extras.close())
}

export async function resumeRun(env: RunEnv, idOrPrefix: string | undefined, approveAll = false, overrides: ResumeOverrides = {}): Promise<RunResult> {
  const run = resumable(env.store, env.home, idOrPrefix)
  const stored = JSON.parse(run.options ?? "{}") as StoredSpec
  const { options, changed } = withOverrides(stored.options, overrides)
  const spec = { ...stored, options }
  const task = loadTask(run.taskFile, { fast: true }) // its plan is checked against the stored hash below
  task.workdir = run.workdir
  const prepared = await prepareRun(env, task, spec.options, true)
  if (spec.steps_hash && spec.steps_hash !== prepared.stepsHash) {
    await prepared.extras.close()
    throw new ResumeError(`the steps in ${run.taskFile} changed since run ${run.id} started; resume continues the plan it started with — restore the file, or start a new run`)
  }
  const steps = new Map(prepared.steps.map((s) => [s.id, s.config]))
  const checkpoint = latestCheckpoint<RunState>(env.store, run.id)
  if (!checkpoint) throw new ResumeError(`run ${run.id} has no checkpoint to resume from`)
  // the plan comes from its rows (checkpoints written before they held it whole still carry it)
  const plan = checkpoint.state.plan ?? { items: loadPlan(env.store, run.id) as PlanItem[] }
  const ctx = context(env, prepared, task, run.id, spec.options, { ...checkpoint.state, plan }, checkpoint.seq)
  ctx.savedPlan = plan.items // as stored: nothing to write again
  ctx.state.guards = resumeGuards(ctx.state.guards, Date.now())
  if (approveAll) {
    approvePending(ctx)
    ctx.approveAll = true
  }
  try {
    claim(env.store, run)
  } catch (error) {
    await prepared.extras.close()
    throw error
  }
  ctx.recorder.event("run.resumed", { from_status: run.status, checkpoint: checkpoint.seq, driver: task.spec.agent ? "agent" : "steps" })
  ctx.recorder.audit({ type: "session_start", actor: "user", action: "resume", reason: `ccode resume ${run.id}` })
  if (Object.keys(changed).length) {
    // the person's change: kept for later resumes, in the audit, and in the resumed event
    updateRun(env.store, run.id, { options: JSON.stringify(spec) })
    ctx.recorder.audit({ type: "policy", actor: "user", action: "resume_override", result: "approved", reason: `resumed with ${describeOverrides(changed)}`, data: changed })
    ctx.recorder.event("policy.warning", { message: `resumed with ${describeOverrides(changed)}` })
    if (!task.spec.agent && changesApproval(changed)) redecideWaiting(ctx)
  }
  reportExtras(ctx.recorder, prepared.extras)
  reportSandbox(ctx, prepared.sandbox)
  await (task.spec.agent ? reconcileAgent(ctx) : reconcile(ctx, (id) => steps.get(id)?.retries ?? ctx.governor.policy.limits.retries))
  return drive(ctx, env, steps).finally(() => prepared.extras.close())
}

async function drive(ctx: RunContext, env: RunEnv, steps: Map<string, StepConfig>): Promise<RunResult> {
  let failFast: RunContext["stop"]
  const onInterrupt = () => {
    const why = env.interrupt.reason
    if (why instanceof FailFastStop) {
      // another run of the batch failed: the running call finishes and is recorded, nothing new starts
      ctx.stop ??= failFast = { status: "interrupted", reason: `${why.message}; \`ccode resume ${ctx.runId}\` continues` }
      return
    }
    ctx.stop = { status: "interrupted", reason: "interrupted by a signal; `ccode resume` continues" }
    ctx.cancel.abort("interrupted")
  }
  if (env.interrupt.aborted) onInterrupt()
  env.interrupt.addEventListener("abort", onInterrupt, { once: true })
  try {
    // the workspace as it is now; on resume, compared with how the last segment left it
    const changed = await watchStart(ctx)
    if (changed) await haltOrContinue(ctx, changed)
    await (ctx.task.spec.agent ? driveAgent(ctx) : driveSteps(ctx, steps))
    // the fail-fast stop came while the last call ran: the run reached its own end, which is what counts
    if (failFast && ctx.stop === failFast && reachedEnd(ctx)) ctx.stop = undefined
  } catch (error) {
    // a crash of ccode itself: recorded, and the run stays resumable (its status is still `running`)
    ctx.recorder.audit({ type: "error", actor: "system", action: "internal_error", result: "error", reason: (error as Error).message ?? String(error) })
    ctx.recorder.commit()
    throw error
  } finally {
    env.interrupt.removeEventListener("abort", onInterrupt)
    await watchEnd(ctx)
  }
  return finishRun(ctx, env.home)
}

function reachedEnd(ctx: RunContext): boolean {
  if (ctx.task.spec.agent) return Boolean((ctx.state.agent as { outcome?: unknown } | undefined)?.outcome)
  return planOutcome(ctx.state.plan) !== "running"
}

/** The context of a run (exported for drivers outside this file, e.g. the MCP server's long-lived run). */
export function context(env: RunEnv, prepared: Prepared, task: LoadedTask, runId: string, options: RunOptions, state: RunState, checkpointSeq = 0): RunContext {
  // undo: a shadow repository under CCODE_HOME takes the workspace around mutating calls
  const snapshotter = createSnapshotter({ workspace: prepared.workspace, home: env.home, exclude: [env.store.path, env.home] })
  const snapshots = createSnapshotHook({
    store: env.store, runId, snapshotter,
    readOnly: (tool) => isReadOnly(prepared.registry.get(tool)?.tool),
    warn: (message) => env.reporter.output(runId, "", `warning: ${message}\n`),
  })
  return {
    store: env.store, runId, task, workspace: prepared.workspace, cwd: prepared.cwd, env: prepared.toolEnv, registry: prepared.registry,
    governor: prepared.governor, recorder: prepared.recorder(runId), redactor: prepared.redactor, human: env.human,
    reporter: env.reporter, options, state, cancel: new AbortController(), checkpointSeq, savedPlan: [], active: 0, fingerprintAt: 0,
    ownPaths: [env.home], snapshots, hooks: prepared.extras.hooks,
    sandbox: sandboxOfRun(prepared.sandbox, prepared.governor.policy, prepared.workspace, env.home, runId),
  }
}

function resumable(store: Store, home: string, idOrPrefix: string | undefined): RunRow {
  const run = idOrPrefix ? findRun(store, idOrPrefix) : undefined
  if (!idOrPrefix) throw new ResumeError("give a run id or --last")
  if (!run) throw new ResumeError(`no run ${idOrPrefix}`)
  if (TERMINAL.includes(run.status as never)) {
    ensureSummary(store, run, home)
    throw new ResumeError(`run ${run.id} is ${run.status}; only paused, stopped, interrupted, denied or crashed runs can be resumed`)
  }
  if (runIsLive(run)) {
    throw new ResumeError(`run ${run.id} is still running (pid ${run.pid}); stop it first or wait`)
  }
  if (!existsSync(run.workdir)) throw new ResumeError(`run ${run.id} cannot resume: its workdir ${run.workdir} is gone`)
  return run
}

/** Take the run over as it was checked: a `ccode cancel` or another resume that got there first wins. */
function claim(store: Store, run: RunRow): void {
  const claimed = store.tx(() =>
    store.sqlite.query("UPDATE runs SET status = 'running', pid = ?, host = ?, updated_at = ? WHERE id = ? AND status = ? AND pid IS ?").run(process.pid, hostname(), Date.now(), run.id, run.status, run.pid),
  )
  if (claimed.changes !== 1) throw new ResumeError(`run ${run.id} changed while resuming (cancelled or resumed elsewhere); see \`ccode runs show ${run.id}\``)
}

function approvePending(ctx: RunContext): void {
  for (const request of requestsOf(ctx.store, ctx.runId, "pending")) {
    if (request.kind === "question") continue
    settleRequest(ctx.store, request.id, { status: "approved", settledBy: "resume --approve-all" })
    ctx.recorder.audit({ type: "permission", actor: "user", callId: request.callId, action: "approve", result: "approved", reason: `resume --approve-all: ${request.title}` })
  }
}
