// --dry-run: decide every step of every task through the same path as a real run (plugins loaded,
// tool risk functions, zod defaults), run nothing, store nothing. Exits with the code the run would
// most likely end with: 5 when a step would be denied, 3 when one would wait for a person.
import { plannedArgs } from "../../core/runner/step-inputs.ts"
import type { PlannedRun } from "../../core/runner/lifecycle.ts"
import { decideProposal } from "../../core/runner/decide-call.ts"
import type { Decision } from "../../core/policy/types.ts"
import { batchExitCode } from "../session.ts"
import { renderTable } from "./table.ts"
import { out } from "../out.ts"

export async function dryRun(planned: PlannedRun[], json: boolean): Promise<number> {
  const rows: string[][] = []
  const codes: number[] = []
  for (const { task, prepared, options } of planned) {
    // what a real run would report before its first step: ignored grants, capped timeouts, plugins left out
    for (const message of [...prepared.governor.policy.ignored, ...prepared.warnings, ...prepared.extras.problems]) {
      if (json) out(JSON.stringify({ type: "policy.warning", task: task.name, message }))
      process.stderr.write(`${task.name}: warning: ${message}\n`)
    }
    if (prepared.driver.name === "agent") {
      // an agent's calls exist only once a model proposes them: say so rather than show nothing
      const note = "agent task: calls are decided as the model proposes them (replay a recorded run to see a policy's decisions)"
      if (json) out(JSON.stringify({ type: "dry_run.note", task: task.name, note }))
      rows.push([task.name, "-", "agent", "-", "-", note])
      codes.push(0)
      continue
    }
    let code = 0
    for (const step of prepared.steps) {
      // plugin beforeCall hooks too: a step a hook denies in the run is shown denied here
      const planned = plannedArgs(step.config, prepared.inputs)
      const { decision: d } = await decideProposal({ ...prepared, hooks: prepared.extras.hooks, runId: "dry-run" }, { tool: step.config.tool, args: planned }, { callId: `dry-run:${step.id}`, state: { grants: [] } })
      const args = prepared.redactor.value(planned)
      if (json) {
        out(JSON.stringify({ type: "decision", task: task.name, step: step.id, tool: step.config.tool, args, decision: d.decision, risk: d.risk, reason: prepared.redactor.text(d.reason), by: d.by, rules: d.rules }))
      }
      rows.push([task.name, step.id, step.config.tool, d.decision, d.risk, prepared.redactor.text(d.reason)])
      code = batchExitCode([code, likelyExit(d, options.nonInteractive)])
    }
    codes.push(code)
  }
  await Promise.all(planned.map((p) => p.prepared.extras.close()))
  if (!json) {
    out(renderTable(["task", "step", "tool", "decision", "risk", "why"], rows))
    process.stderr.write("(dry run: nothing was run)\n")
  }
  return batchExitCode(codes)
}

/** A denied step ends the run with 5; an ask nobody can answer pauses it (3) or is denied (5). */
function likelyExit(d: Decision, nonInteractive: boolean): number {
  if (d.decision === "deny") return 5
  if (d.decision !== "ask") return 0
  if (d.on_ask === "deny") return 5
  if (d.on_ask === "pause" || nonInteractive) return 3
  return 0
}
