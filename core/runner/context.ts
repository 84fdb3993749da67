// What a run holds while it runs: its store, recorder, policy, tools, state and the person (if any).
import type { Fingerprint } from "../guards/index.ts"
import type { CallSnapshots } from "../snapshot/around-call.ts"
import type { Sandbox } from "../sandbox/session.ts"
import type { PluginHooks } from "../plugins/validate.ts"
import { wallTimeUsed } from "../guards/index.ts"
import type { Call, Decision, Grant, DecideState, Policy } from "../policy/types.ts"
import type { Risk } from "../base/risk.ts"
import type { Redactor } from "../redact/index.ts"
import type { RunStore } from "../runstore/api.ts"
import type { LoadedTask } from "../task/load.ts"
import type { ToolRegistry } from "../tools/registry.ts"
import type { Declaration } from "../tools/declare.ts"
import type { Reporter } from "./events.ts"
import type { Recorder } from "./recorder.ts"
import type { PlanItem } from "./plan.ts"
import type { RunState, StepConfig } from "./state.ts"
import type { Driver } from "./driver.ts"
import type { RunControl } from "./control.ts"

/** The command-line options of a run, stored with it and reused on resume. */
export interface RunOptions {
  nonInteractive: boolean
  jobs: number
  dryRun: boolean
  trust: boolean
  policy: string[]
  autoApprove?: Risk
  yes: boolean
  maxSteps?: number
  /** --sandbox off|auto|required */
  sandbox?: string
  /** --max-wall-time, in ms */
  maxWallTime?: number
  /** --var name=value (never stored with the run: a value may be a secret; resume takes them again) */
  vars?: Record<string, string>
}

/** The policy side of a run: prepares calls (I/O) and decides them (pure). */
export interface Governor {
  policy: Policy
  /** `declaration`: what the tool says it touches (its effects and paths) */
  prepare(tool: string, args: Record<string, unknown>, cwd: string, toolRisk?: Risk, declaration?: Declaration): Promise<Call>
  decide(call: Call, state: DecideState): Decision
  /** the "allow for this run" grant for a call, never for critical */
  grantFor(call: Call, decision: Decision): Grant | undefined
}

export type ApprovalAnswer = "once" | "run" | "deny" | "stop"
export type BreakpointAnswer = "continue" | "skip" | "stop"
export type InFlightAnswer = "rerun" | "done" | "skip" | "fail"

export interface ApprovalPrompt {
  runId: string
  tool: string
  args: Record<string, unknown>
  decision: Decision
  step?: string
  grant?: Grant
  /** what the call would change (write_file / edit_file, a preview), redacted: shown instead of the raw arguments */
  diff?: string
}

/** The person at the terminal. Not interactive: every method is unavailable and runs pause instead. */
export interface Human {
  interactive: boolean
  approve(prompt: ApprovalPrompt, timeoutMs: number): Promise<ApprovalAnswer | "timeout">
  breakpoint(runId: string, step: string, title: string): Promise<BreakpointAnswer>
  /** "later": no answer now (Ctrl-C at the prompt): the call stays in flight with a pending request */
  inFlight(runId: string, step: string, title: string): Promise<InFlightAnswer | "later">
  /** an in-flight call's processes outlived the ccode that started them: kill them, or wait for them */
  stillRunning(runId: string, step: string, where: string): Promise<"kill" | "wait" | "later">
  question(runId: string, questions: string[], options?: string[]): Promise<string>
  /** continue after a guard fired, or stop */
  guard(runId: string, guard: string, reason: string): Promise<"continue" | "stop">
}

/** Nobody at the terminal: every question goes unanswered, so runs pause (or follow on_ask) instead. */
export const nobody: Human = {
  interactive: false,
  approve: async () => "timeout",
  breakpoint: async () => "stop",
  inFlight: async () => "fail",
  stillRunning: async () => "wait",
  question: async () => {
    throw new Error("nobody to ask")
  },
  guard: async () => "stop",
}

export interface RunStop {
  status: "denied" | "stopped" | "interrupted"
  reason: string
}

export interface RunContext {
  store: RunStore
  runId: string
  task: LoadedTask
  /** what proposes the calls: the task's steps, its agent, or an MCP client */
  driver: Driver
  /** the task's steps by id (scripted runs; empty for the others) */
  steps: Map<string, StepConfig>
  /** the workspace root (file tools stay inside it) */
  workspace: string
  /** the task's workdir, where tools run */
  cwd: string
  env: Record<string, string>
  registry: ToolRegistry
  governor: Governor
  recorder: Recorder
  redactor: Redactor
  human: Human
  reporter: Reporter
  options: RunOptions
  state: RunState
  /** fired on SIGINT/SIGTERM: running tools are killed */
  cancel: AbortController
  /** number of the last checkpoint written (continues from the stored one on resume) */
  checkpointSeq: number
  stop?: RunStop
  /** the plan items as last written to plan rows (same positions), to write only what changed */
  savedPlan: PlanItem[]
  /** calls of this run executing right now */
  active: number
  /** the workspace as ccode last saw it, and when */
  fingerprint?: Fingerprint
  fingerprintAt: number
  /** ccode's own files (CCODE_HOME first, then a SQLite database file), never counted as workspace changes */
  ownPaths: string[]
  /** `resume --approve-all`: calls found in flight are run again without asking */
  approveAll?: boolean
  /** plugin beforeCall/afterCall hooks, in load order */
  hooks: PluginHooks[]
  /** snapshots for undo: before the run's first mutating call, after each call that changed the workspace */
  snapshots?: CallSnapshots
  /** the OS sandbox shell calls run in (undefined: none) */
  sandbox?: Sandbox
  /** a person steering the live run (the terminal panel): pause between calls, breakpoints */
  control?: RunControl
  /** the task's input values (`${{ inputs.x }}`) */
  inputs?: Record<string, string>
  /** where steps' $CCODE_OUTPUT files are made (writable inside the sandbox too) */
  outputDir?: string
}

/** Wall time used by the whole run, across resumes. */
export function wallTime(ctx: RunContext, now = Date.now()): number {
  return wallTimeUsed(ctx.state.guards.clock, now)
}
