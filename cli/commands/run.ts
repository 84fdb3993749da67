// ccode run <task.yaml>...: check every task first (exit 2 runs nothing), then run them,
// several at once with --jobs, and exit with the batch's highest-priority code.
import { RISKS, type Risk } from "../../core/base/risk.ts"
import type { RunOptions } from "../../core/runner/context.ts"
import type { RunResult } from "../../core/runner/finish.ts"
import { runBatch } from "../../core/runner/batch.ts"
import { newId } from "../../core/runner/ids.ts"
import { planRun, startRun, type PlannedRun } from "../../core/runner/lifecycle.ts"
import { parseDuration } from "../../core/base/duration.ts"
import { parseVarFlags } from "../../core/task/inputs.ts"
import { allValues, globalArgs, jsonArg, positiveInt } from "../args.ts"
import { command } from "../command.ts"
import { UsageError } from "../errors.ts"
import { batchExitCode, isInteractive, nextSteps, openSession } from "../session.ts"
import { reportBatch } from "../ui/batch.ts"
import { dryRun } from "../ui/dry-run.ts"
import { renderTable } from "../ui/table.ts"

export default command({
  meta: { name: "run", description: "Run one or more tasks under the policy (several tasks = a batch)" },
  examples: [
    "ccode run examples/quickstart/task.yaml",
    "ccode run task.yaml --non-interactive --json > events.jsonl   # pauses with exit 3 when a person is needed",
    "ccode run a.yaml b.yaml c.yaml --jobs 2 --policy ci",
    "ccode run build.yaml test.yaml lint.yaml --jobs 3 --fail-fast  # the first failure stops the others (resumable)",
    "ccode run task.yaml --dry-run                                 # show each step's decision, run nothing",
    "ccode run build.yaml --var target=release                     # a task input (docs/task.md)",
  ],
  args: {
    task: { type: "positional", description: "task file(s)", required: true },
    "non-interactive": { type: "boolean", description: "never prompt: asks follow approval.on_ask (default pause, exit 3)" },
    ...jsonArg,
    jobs: { type: "string", description: "tasks (and independent steps, up to limits.parallel) run at once", valueHint: "N" },
    policy: { type: "string", description: "extra policy file or bundled name (default|strict|ci); repeatable", valueHint: "FILE|NAME" },
    "max-steps": { type: "string", description: "limit agent turns", valueHint: "N" },
    "max-wall-time": { type: "string", description: "limit the run's wall time (counted across resumes), e.g. 30m", valueHint: "DURATION" },
    "auto-approve": { type: "string", description: "auto-approve calls up to this risk (safe|low|medium|high)", valueHint: "LEVEL" },
    yes: { type: "boolean", description: "auto-approve up to high (critical still asks)" },
    trust: { type: "boolean", description: "trust this workspace's policy and plugins for this run" },
    "dry-run": { type: "boolean", description: "decide every step, run nothing" },
    "fail-fast": { type: "boolean", description: "batch: the first failing run stops the others (interrupted, resumable); queued tasks do not start" },
    sandbox: { type: "string", description: "OS sandbox for shell calls: off | auto | required (policy sandbox.mode)", valueHint: "MODE" },
    var: { type: "string", description: "set a task input (or CCODE_VAR_NAME); repeatable", valueHint: "NAME=VALUE" },
    ...globalArgs,
  },
  async run({ args, rawArgs }) {
    const tasks = args._ as string[]
    const options = runOptions(args, rawArgs)
    const session = await openSession({ ...args, nonInteractive: args["non-interactive"] }, tasks.length > 1)
    try {
      // every task is checked before any of them runs: bad input changes nothing
      const planned: PlannedRun[] = []
      for (const task of tasks) planned.push(await planRun(session, task, options))
      if (options.dryRun) return dryRun(planned, Boolean(args.json))
      const batch = tasks.length > 1 ? newId("b") : undefined
      const failFast = Boolean(args["fail-fast"])
      const { results, entries, stoppedBy } = await runBatch(planned, { jobs: options.jobs, failFast, interrupt: session.interrupt }, (p, interrupt) =>
        startRun({ ...session, interrupt }, p, batch),
      )
      const exitCode = batchExitCode(results.map((r) => r.exitCode))
      report(results, Boolean(args.json), Boolean(args.quiet))
      if (batch) reportBatch({ batch, entries, exitCode, failFast, stoppedBy }, Boolean(args.json))
      return exitCode
    } finally {
      await session.close()
    }
  },
})

/** --auto-approve LEVEL, checked. */
export function approvalFlag(auto: string | undefined): Risk | undefined {
  if (auto !== undefined && !RISKS.includes(auto as Risk)) {
    throw new UsageError(`--auto-approve takes one of ${RISKS.join(", ")}, got "${auto}"`)
  }
  return auto as Risk | undefined
}

/** A duration flag (30s, 5m, 1h), in ms. */
export function durationFlag(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined
  const ms = parseDuration(value)
  if (ms === undefined || ms <= 0) throw new UsageError(`${flag} takes a duration like 30m or 2h, got "${value}"`)
  return ms
}

function runOptions(args: Record<string, unknown>, rawArgs: string[]): RunOptions {
  const auto = approvalFlag(args["auto-approve"] as string | undefined)
  return {
    nonInteractive: !isInteractive({ nonInteractive: Boolean(args["non-interactive"]), json: Boolean(args.json) }),
    jobs: positiveInt(args.jobs, "--jobs") ?? 1,
    dryRun: Boolean(args["dry-run"]),
    trust: Boolean(args.trust),
    policy: allValues(rawArgs, "policy"),
    autoApprove: auto as Risk | undefined,
    yes: Boolean(args.yes),
    maxSteps: positiveInt(args["max-steps"], "--max-steps"),
    ...(args.sandbox === undefined ? {} : { sandbox: String(args.sandbox) }),
    maxWallTime: durationFlag(args["max-wall-time"] as string | undefined, "--max-wall-time"),
    vars: parseVarFlags(allValues(rawArgs, "var")),
  }
}

function report(results: RunResult[], json: boolean, quiet: boolean): void {
  if (json) return
  if (results.length > 1) {
    const rows = results.map((r) => [r.runId, r.task, r.status, String(r.exitCode), r.summaryPath ?? ""])
    process.stderr.write(`\n${renderTable(["run", "task", "status", "exit", "summary"], rows)}\n`)
  }
  if (quiet) return
  for (const r of results) {
    const next = nextSteps(r)
    if (next) process.stderr.write(`${results.length > 1 ? `[${r.task}] ` : ""}${next}\n`)
  }
}
