import { expect, test } from "bun:test"
import { queryAudit } from "../../core/audit/query.ts"
import { buildReport, renderReport } from "../../core/audit/report.ts"
import { sampleRun, storeWith } from "./helpers.ts"

const rows = queryAudit(storeWith([...sampleRun("r1"), ...sampleRun("r2")]), { runs: ["r1"] })
const report = buildReport({ id: "r1", task: "fix-tests", status: "failed", exit_code: 1 }, rows, ["src/a.ts"])

test("the report counts rows by type, decision and risk", () => {
  expect(report.rows).toBe(9)
  expect(report.counts.by_type).toEqual({ session_start: 1, decision: 3, tool_call: 2, permission: 1, state_change: 1, session_end: 1 })
  expect(report.counts.by_decision).toEqual({ allow: 1, deny: 1, ask: 1 })
  expect(report.counts.by_risk).toEqual({ low: 1, critical: 1, medium: 1 })
})

test("every denial and approval says who and why; guards, failures and duration are there", () => {
  expect(report.denials.map((d) => [d.actor, d.reason])).toEqual([
    ["policy", "denied by rule no-force-push"],
    ["guard", "same call repeated 3 times"],
  ])
  expect(report.approvals.map((a) => [a.actor, a.action])).toEqual([["policy", "decide"], ["user", "approve:approval"]])
  expect(report.guards.map((g) => g.action)).toEqual(["guard:loop"])
  expect(report.errors.map((e) => [e.tool, e.result, e.reason])).toEqual([["write_file", "failed", "EACCES"]])
  expect(report.duration_ms).toBe(1500)
  const md = renderReport(report)
  expect(md).toContain("# Audit report: run r1 (fix-tests)")
  expect(md).toContain("- by decision: allow 1, ask 1, deny 1")
  expect(md).toContain("| user | write_file | approve:approval | approved |  | write src/a.ts — approved at the prompt |")
  expect(md).toContain("## Files changed\n\n- src/a.ts")
})
