// Starting and resuming runs: load everything, create or reload the run, drive it, finish it.
// Every configuration problem surfaces before a run row exists.
import { join } from "node:path"
import { existsSync } from "node:fs"
import { hostname } from "node:os"
import type { RunStore } from "../runstore/api.ts"
import type { Store } from "../store/open.ts"
import { TERMINAL, type RunRow } from "../store/runs.ts"
import { loadTask, type LoadedTask } from "../task/load.ts"
import type { Driver } from "./driver.ts"
import { driverFor } from "./drivers.ts"
import { commitWithCheckpoint } from "./call.ts"
import type { Human, RunContext, RunOptions } from "./context.ts"
import { lookOf, type RunControl } from "./control.ts"
import type { Reporter } from "./events.ts"
import { finishRun, type RunResult } from "./finish.ts"
import { FailFastStop } from "./batch.ts"
import { newId } from "./ids.ts"
import { runIsLive } from "./liveness.ts"
import { reportExtras } from "../plugins/extras.ts"
import { resumeGuards } from "../guards/index.ts"
import { createCallSnapshots } from "../snapshot/around-call.ts"
import { isReadOnly } from "../tools/declare.ts"
import { createSnapshotter } from "../snapshot/index.ts"
import { localSnapshotLog, stepSnapshotLog } from "../snapshot/rows.ts"
import { holdsSnapshot } from "../snapshot/repo.ts"
import { haltOrContinue, watchEnd, watchStart } from "./guarding.ts"
import { createPlan, planOutcome, type PlanItem } from "./plan.ts"
import { prepareRun, type Prepared } from "./prepare.ts"
import { reconcile } from "./reconcile.ts"
import { ensureSummary } from "./summary.ts"
import { initialState, type RunState } from "./state.ts"
import { reportSandbox, sandboxOfRun } from "./sandbox.ts"
import { policyStamp } from "../policy/fingerprint.ts"
import { elsewhereRefusal, isElsewhere, segmentHere, type Segment } from "./elsewhere.ts"
import { fingerprintWorkspace, type Fingerprint } from "../guards/index.ts"
import { loadFingerprint } from "../guards/fingerprint-file.ts"
import { changesApproval, describeOverrides, withOverrides, type ResumeOverrides } from "./overrides.ts"

export interface RunEnv {
  /** where runs, calls, checkpoints, requests and the audit log are kept (SQLite or PostgreSQL) */
  store: RunStore
  /**
   * this machine's own SQLite database, for what stays on the machine (undo snapshots of its
   * workspace): the same file as `store` on SQLite, none when runs are kept on PostgreSQL
   */
  local?: Store
  /** CCODE_HOME: summaries, caches */
  home: string
  human: Human
  reporter: Reporter
  /** the process environment */
  env: Record<string, string | undefined>
  /** fired on SIGINT/SIGTERM */
  interrupt: AbortSignal
  /** a person steering the run live (the terminal panel) */
  control?: RunControl
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
  return planTask(env, loadTask(taskFile), options)
}

/** planRun for a task that is not a file (the MCP server's session), optionally with its own driver. */
export async function planTask(env: RunEnv, task: LoadedTask, options: RunOptions, driver?: Driver): Promise<PlannedRun> {
  return { task, prepared: await prepareRun(env, task, options, false, driver), options }
}

/** A run that has started: its row, its start in the audit trail and the events; drive it, then finish it. */
export interface OpenRun {
  ctx: RunContext
  /** plugins and MCP servers left out, for the person who started the run */
  problems: string[]
  /** ends the run (status, summary.md, audit) and stops the MCP servers it started */
  finish(): Promise<RunResult>
}

/** What started the run, for the session_start audit row (`ccode run FILE` unless said otherwise). */
export interface RunStart {
  batch?: string
  action?: string
  reason?: string
}

/** Create the run: everything a run writes before its first call, the same for every driver. */
export async function openRun(env: RunEnv, planned: PlannedRun, start: RunStart = {}): Promise<OpenRun> {
  const { task, prepared, options } = planned
  const runId = newId("r")
  const now = Date.now()
  const plan = createPlan(prepared.steps.map((s) => ({ id: s.id, title: s.title, needs: s.needs, continueOnError: s.continueOnError, conditional: s.config.if !== undefined })))
  const ctx = context(env, prepared, task, runId, options, initialState(plan, prepared.driver.guards))
  if (env.store.backend === "postgres") ctx.state.segment = segmentHere(env.home)
  ctx.recorder.event("run.started", { task: task.name, task_file: task.file, workdir: task.workdir, steps: plan.items.length, driver: ctx.driver.name })
  ctx.recorder.audit({
    type: "session_start", actor: "user", action: start.action ?? "run", reason: start.reason ?? `ccode run ${task.file}`,
    // --var values are named, never stored (one may be a secret)
    data: { options: { ...options, vars: options.vars ? Object.keys(options.vars) : undefined }, policy_warnings: prepared.governor.policy.ignored, ...policyStamp(prepared.governor.policy) },
  })
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
  await commitWithCheckpoint(ctx, {
    newRun: {
      id: runId, task: task.name, taskFile: task.file, workdir: task.workdir, status: "running",
      driver: ctx.driver.name, policyHash: prepared.policyHash, pid: process.pid, host: hostname(),
      // --var values are not stored (one may be a secret): resume takes them again, and the hash proves them
      batch: start.batch ?? null, createdAt: now, updatedAt: now, options: JSON.stringify({ options: { ...options, vars: undefined }, steps_hash: prepared.stepsHash } satisfies StoredSpec),
    },
  })
  const finish = async () => {
    try {
      return await finishRun(ctx, env.home)
    } finally {
      await prepared.extras.close()
    }
  }
  return { ctx, problems: prepared.extras.problems, finish }
}

export async function startRun(env: RunEnv, planned: PlannedRun, batch?: string): Promise<RunResult> {
  const { ctx } = await openRun(env, planned, { batch })
  return drive(ctx, env, planned.prepared)
}

export async function resumeRun(env: RunEnv, idOrPrefix: string | undefined, approveAll = false, overrides: ResumeOverrides = {}): Promise<RunResult> {
  const run = await resumable(env.store, env.home, idOrPrefix)
  const stored = JSON.parse(run.options ?? "{}") as StoredSpec
  const { options, changed } = withOverrides(stored.options, overrides)
  const spec = { ...stored, options }
  const task = loadTask(run.taskFile, { fast: true }) // its plan is checked against the stored hash below
  task.workdir = run.workdir
  // the checkpoint is the driver's: a task file that now names another driver cannot continue it
  const driver = driverFor(task)
  if (driver.name !== run.driver) {
    throw new ResumeError(`run ${run.id} was started by the ${run.driver} driver, but ${run.taskFile} now describes a${driver.name === "agent" ? "n" : ""} ${driver.name} task; restore the file, or start a new run`)
  }
  const prepared = await prepareRun(env, task, { ...spec.options, vars: overrides.vars }, true, driver)
  if (spec.steps_hash && spec.steps_hash !== prepared.stepsHash) {
    await prepared.extras.close()
    const inputs = task.spec.inputs ? " (or its inputs differ: give the run's values again with --var NAME=VALUE or CCODE_VAR_NAME)" : ""
    throw new ResumeError(`the steps in ${run.taskFile} changed since run ${run.id} started${inputs}; resume continues the plan it started with — restore the file, or start a new run`)
  }
  const checkpoint = await env.store.latestCheckpoint<RunState>(run.id)
  if (!checkpoint) throw new ResumeError(`run ${run.id} has no checkpoint to resume from`)
  // the plan comes from its rows (checkpoints written before they held it whole still carry it)
  const storedPlan = checkpoint.state.plan ?? { items: (await env.store.loadPlan(run.id)) as PlanItem[] }
  // plan rows do not keep which items have an `if:`: the task (proven unchanged by its hash) says
  const conditional = new Set(prepared.steps.filter((s) => s.config.if !== undefined).map((s) => s.id))
  const plan = { items: storedPlan.items.map((i) => (conditional.has(i.id) ? { ...i, conditional: true } : i)) }
  const ctx = context(env, prepared, task, run.id, spec.options, { ...checkpoint.state, plan }, checkpoint.seq)
  if (env.store.backend === "postgres") {
    try {
      await checkWorkspace(ctx, run.id, checkpoint.state.segment, env.home)
    } catch (error) {
      await prepared.extras.close()
      throw error
    }
    ctx.state.segment = segmentHere(env.home)
  }
  ctx.savedPlan = plan.items // as stored: nothing to write again
  ctx.state.guards = resumeGuards(ctx.state.guards, Date.now())
  if (approveAll) {
    await approvePending(ctx)
    ctx.approveAll = true
  }
  try {
    await claim(env.store, run)
  } catch (error) {
    await prepared.extras.close()
    throw error
  }
  ctx.recorder.event("run.resumed", { from_status: run.status, checkpoint: checkpoint.seq, driver: ctx.driver.name })
  ctx.recorder.audit({ type: "session_start", actor: "user", action: "resume", reason: `ccode resume ${run.id}` })
  if (Object.keys(changed).length) {
    // the person's change: kept for later resumes, in the audit, and in the resumed event
    ctx.recorder.stage({ run: { options: JSON.stringify(spec) } })
    ctx.recorder.audit({ type: "policy", actor: "user", action: "resume_override", result: "approved", reason: `resumed with ${describeOverrides(changed)}`, data: changed })
    ctx.recorder.event("policy.warning", { message: `resumed with ${describeOverrides(changed)}` })
    if (changesApproval(changed)) await ctx.driver.redecide?.(ctx)
  }
  reportExtras(ctx.recorder, prepared.extras)
  reportSandbox(ctx, prepared.sandbox)
  await ctx.driver.reconcile(ctx)
  return drive(ctx, env, prepared)
}

/** Drive the run to the end of this segment, then finish it; its plugins' servers stop either way. */
function drive(ctx: RunContext, env: RunEnv, prepared: Prepared): Promise<RunResult> {
  return driveSegment(ctx, env).finally(() => prepared.extras.close())
}

async function driveSegment(ctx: RunContext, env: RunEnv): Promise<RunResult> {
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
  env.control?.attach(ctx.runId, () => lookOf(ctx))
  try {
    // the workspace as it is now; on resume, compared with how the last segment left it
    const changed = await watchStart(ctx)
    if (changed) await haltOrContinue(ctx, changed)
    await ctx.driver.drive(ctx)
    // the fail-fast stop came while the last call ran: the run reached its own end, which is what counts
    if (failFast && ctx.stop === failFast && reachedEnd(ctx)) ctx.stop = undefined
  } catch (error) {
    // a crash of ccode itself: recorded, and the run stays resumable (its status is still `running`)
    ctx.recorder.audit({ type: "error", actor: "system", action: "internal_error", result: "error", reason: (error as Error).message ?? String(error) })
    await ctx.recorder.commit()
    throw error
  } finally {
    env.interrupt.removeEventListener("abort", onInterrupt)
    await watchEnd(ctx)
    await ctx.sandbox?.close()
  }
  return finishRun(ctx, env.home)
}

function reachedEnd(ctx: RunContext): boolean {
  if (ctx.driver.name === "agent") return Boolean(ctx.state.agent?.outcome)
  return planOutcome(ctx.state.plan) !== "running"
}

function context(env: RunEnv, prepared: Prepared, task: LoadedTask, runId: string, options: RunOptions, state: RunState, checkpointSeq = 0): RunContext {
  const recorder = prepared.recorder(runId)
  return {
    store: env.store, runId, task, driver: prepared.driver, steps: new Map(prepared.steps.map((s) => [s.id, s.config])), workspace: prepared.workspace, cwd: prepared.cwd, env: prepared.toolEnv, registry: prepared.registry,
    governor: prepared.governor, recorder, redactor: prepared.redactor, human: env.human,
    reporter: env.reporter, options, state, inputs: prepared.inputs, outputDir: join(env.home, "runs", runId, "tmp"), cancel: new AbortController(), checkpointSeq, savedPlan: [], active: 0, fingerprintAt: 0,
    ownPaths: ownPaths(env), snapshots: callSnapshots(env, prepared, runId, recorder), hooks: prepared.extras.hooks,
    sandbox: sandboxOfRun(prepared.sandbox, prepared.governor.policy, prepared.workspace, env.home, runId, env.store.backend === "sqlite" ? env.store.location : undefined),
    control: env.control,
  }
}

/**
 * Undo: a shadow repository under CCODE_HOME (on this machine, always) takes the workspace around
 * mutating calls. Its refs are recorded in this machine's SQLite file at once, or, for runs kept on
 * PostgreSQL, with the step's commit in the shared store (undo there works where the snapshots are).
 */
function callSnapshots(env: RunEnv, prepared: Prepared, runId: string, recorder: RunContext["recorder"]): RunContext["snapshots"] {
  const snapshotter = createSnapshotter({ workspace: prepared.workspace, home: env.home, exclude: env.local ? [env.local.path, env.home] : [env.home] })
  return createCallSnapshots({
    log: env.local ? localSnapshotLog(env.local) : stepSnapshotLog((id) => env.store.snapshotsOf(id), recorder, (ref) => holdsSnapshot(env.home, prepared.workspace, ref)), runId, snapshotter,
    readOnly: (tool) => isReadOnly(prepared.registry.get(tool)?.tool),
    warn: (message) => env.reporter.output(runId, "", `warning: ${message}\n`),
  })
}

/** ccode's own files, never counted as changes to the workspace: CCODE_HOME and a SQLite file elsewhere. */
function ownPaths(env: RunEnv): string[] {
  return env.store.backend === "sqlite" ? [env.home, env.store.location] : [env.home]
}

async function resumable(store: RunStore, home: string, idOrPrefix: string | undefined): Promise<RunRow> {
  const run = idOrPrefix ? await store.findRun(idOrPrefix) : undefined
  if (!idOrPrefix) throw new ResumeError("give a run id or --last")
  if (!run) throw new ResumeError(`no run ${idOrPrefix}`)
  if (TERMINAL.includes(run.status)) {
    await ensureSummary(store, run, home)
    throw new ResumeError(`run ${run.id} is ${run.status}; only paused, stopped, interrupted, denied or crashed runs can be resumed`)
  }
  if (run.status === "running" && run.pid !== null && run.host && run.host !== hostname()) {
    // a shared store: the run's process is on another machine, whose liveness cannot be seen from here
    throw new ResumeError(`run ${run.id} is marked running on host ${run.host}; ccode cannot tell from here whether it is still alive — resume it there (it may have crashed: \`ccode resume\` there checks its calls in flight)`)
  }
  if (runIsLive(run)) {
    throw new ResumeError(`run ${run.id} is still running (pid ${run.pid}); stop it first or wait`)
  }
  if (!existsSync(run.workdir)) throw new ResumeError(`run ${run.id} cannot resume: its workdir ${run.workdir} is gone`)
  return run
}

/** Resuming elsewhere than where the run last ran: only onto the workspace it left (elsewhere.ts). */
async function checkWorkspace(ctx: RunContext, runId: string, last: Segment | undefined, home: string): Promise<void> {
  if (!last || !isElsewhere(last, segmentHere(home))) return
  const now = await fingerprintWorkspace(ctx.workspace, { ignore: ctx.ownPaths })
  const refusal = elsewhereRefusal(runId, last, now, loadFingerprint(ctx.state.fingerprint as Fingerprint | undefined))
  if (refusal) throw new ResumeError(refusal)
}

/** Take the run over as it was checked: a `ccode cancel` or another resume that got there first wins. */
async function claim(store: RunStore, run: RunRow): Promise<void> {
  const claimed = await store.claimRun(run.id, { status: run.status, pid: run.pid }, { status: "running", pid: process.pid, host: hostname() })
  if (!claimed) throw new ResumeError(`run ${run.id} changed while resuming (cancelled or resumed elsewhere); see \`ccode runs show ${run.id}\``)
}

async function approvePending(ctx: RunContext): Promise<void> {
  for (const request of await ctx.store.requestsOf(ctx.runId, "pending")) {
    if (request.kind === "question") continue
    ctx.recorder.stage({ settlements: [{ id: request.id, status: "approved", settledBy: "resume --approve-all" }] })
    ctx.recorder.audit({ type: "permission", actor: "user", callId: request.callId, action: "approve", result: "approved", reason: `resume --approve-all: ${request.title}` })
  }
  // stored now, with their audit rows: reconcile reads them back as settled
  await ctx.recorder.commit()
}
