// --dry-run: decide every step of every task with the real policy, run nothing, store nothing.
import type { PlannedRun } from "../../core/runner/lifecycle.ts"
import { renderTable } from "./table.ts"
import { out } from "../out.ts"

export async function dryRun(planned: PlannedRun[], json: boolean): Promise<number> {
  const rows: string[][] = []
  for (const { task, prepared } of planned) {
    if (task.spec.agent) {
      // an agent's calls exist only once a model proposes them: say so rather than show nothing
      const note = "agent task: calls are decided as the model proposes them (replay a recorded run to see a policy's decisions)"
      if (json) out(`${JSON.stringify({ type: "dry_run.note", task: task.name, note })}\n`)
      rows.push([task.name, "-", "agent", "-", "-", note])
      continue
    }
    for (const step of prepared.steps) {
      const call = await prepared.governor.prepare(step.config.tool, step.config.args, prepared.cwd)
      const d = prepared.governor.decide(call, { grants: [] })
      const args = prepared.redactor.value(step.config.args)
      if (json) {
        out(`${JSON.stringify({ type: "decision", task: task.name, step: step.id, tool: step.config.tool, args, decision: d.decision, risk: d.risk, reason: d.reason, by: d.by, rules: d.rules })}\n`)
      }
      rows.push([task.name, step.id, step.config.tool, d.decision, d.risk, prepared.redactor.text(d.reason)])
    }
  }
  if (!json) {
    out(renderTable(["task", "step", "tool", "decision", "risk", "why"], rows))
    process.stderr.write("(dry run: nothing was run)\n")
  }
  return 0
}
