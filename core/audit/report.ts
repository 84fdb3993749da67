// The per-run audit report (`ccode audit report RUN`): counts, every approval and denial with who
// and why, guards fired, errors, files changed, duration. buildReport and renderReport are pure.
import type { ChainedRow } from "./chain.ts"
import { mdCell } from "./export.ts"

export interface RunInfo {
  id: string
  task?: string
  status?: string
  exit_code?: number | null
  workdir?: string
}

export interface ReportEntry {
  id: number
  ts: string
  type: string
  /** who: the actor (user, policy, guard, ...) */
  actor: string
  tool: string | null
  action: string | null
  result: string | null
  risk: string | null
  /** why */
  reason: string | null
  call: string | null
}

export interface RunReport {
  run: RunInfo
  started: string | null
  ended: string | null
  /** time spent running, summed over the run's sessions (a paused run does not count while it waits) */
  duration_ms: number
  rows: number
  counts: { by_type: Record<string, number>; by_decision: Record<string, number>; by_risk: Record<string, number> }
  approvals: ReportEntry[]
  denials: ReportEntry[]
  questions: ReportEntry[]
  guards: ReportEntry[]
  errors: ReportEntry[]
  rollbacks: ReportEntry[]
  files_changed: string[]
  last_row: { id: number; hash: string } | null
}

const DECISION_WORD: Record<string, string> = { approved: "allow", asked: "ask", denied: "deny" }

export function buildReport(run: RunInfo, rows: ChainedRow[], filesChanged: string[]): RunReport {
  const byType: Record<string, number> = {}
  const byDecision: Record<string, number> = {}
  const byRisk: Record<string, number> = {}
  const report: RunReport = {
    run, started: null, ended: null, duration_ms: durationOf(rows), rows: rows.length,
    counts: { by_type: byType, by_decision: byDecision, by_risk: byRisk },
    approvals: [], denials: [], questions: [], guards: [], errors: [], rollbacks: [], files_changed: filesChanged,
    last_row: rows.length ? { id: rows.at(-1)!.id, hash: rows.at(-1)!.hash } : null,
  }
  for (const row of rows) {
    byType[row.type] = (byType[row.type] ?? 0) + 1
    if (row.type === "decision") {
      const word = DECISION_WORD[row.result ?? ""] ?? row.result ?? "none"
      byDecision[word] = (byDecision[word] ?? 0) + 1
      if (row.risk) byRisk[row.risk] = (byRisk[row.risk] ?? 0) + 1
    }
    const entry = entryOf(row)
    if (row.actor === "guard" || row.action?.startsWith("guard:")) report.guards.push(entry)
    if (row.type === "rollback") report.rollbacks.push(entry)
    else if (row.type === "error" || (row.type === "tool_call" && (row.result === "failed" || row.result === "error"))) report.errors.push(entry)
    else if (row.result === "denied") report.denials.push(entry)
    else if (row.result === "approved") report.approvals.push(entry)
    else if (row.result === "asked" || row.action?.startsWith("answer")) report.questions.push(entry)
  }
  const starts = rows.filter((r) => r.type === "session_start")
  const ends = rows.filter((r) => r.type === "session_end")
  report.started = starts.length ? iso(starts[0]!.ts) : rows.length ? iso(rows[0]!.ts) : null
  report.ended = ends.length ? iso(ends.at(-1)!.ts) : null
  return report
}

/** Sum of session_start -> session_end spans; an unfinished session counts up to its last row. */
function durationOf(rows: ChainedRow[]): number {
  let total = 0
  let open: number | undefined
  let last: number | undefined
  for (const row of rows) {
    if (row.type === "session_start") {
      if (open !== undefined && last !== undefined) total += last - open
      open = row.ts
    } else if (row.type === "session_end" && open !== undefined) {
      total += row.ts - open
      open = undefined
    }
    last = row.ts
  }
  if (open !== undefined && last !== undefined) total += last - open
  return total
}

function entryOf(row: ChainedRow): ReportEntry {
  return {
    id: row.id, ts: iso(row.ts), type: row.type, actor: row.actor, tool: row.tool, action: row.action,
    result: row.result, risk: row.risk, reason: row.reason, call: row.callId,
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString()
}

export function renderReport(r: RunReport): string {
  const lines = [
    `# Audit report: run ${r.run.id}${r.run.task ? ` (${r.run.task})` : ""}`,
    "",
    `- status: ${r.run.status ?? "unknown (run record removed; audit rows kept)"}${r.run.exit_code !== undefined && r.run.exit_code !== null ? ` (exit code ${r.run.exit_code})` : ""}`,
  ]
  if (r.run.workdir) lines.push(`- workdir: ${r.run.workdir}`)
  lines.push(
    `- started: ${r.started ?? "-"}; ended: ${r.ended ?? "-"}; time running: ${seconds(r.duration_ms)}`,
    `- audit rows: ${r.rows}${r.last_row ? `; last row ${r.last_row.id}, hash ${r.last_row.hash}` : ""}`,
    "",
    "## Counts",
    "",
    `- by type: ${counts(r.counts.by_type)}`,
    `- by decision: ${counts(r.counts.by_decision)}`,
    `- by risk: ${counts(r.counts.by_risk)}`,
  )
  section(lines, "Denials", r.denials)
  section(lines, "Approvals", r.approvals)
  section(lines, "Questions and requests", r.questions)
  section(lines, "Guards fired", r.guards)
  section(lines, "Errors and failed calls", r.errors)
  section(lines, "Rollbacks", r.rollbacks)
  lines.push("", "## Files changed", "")
  if (!r.files_changed.length) lines.push("none")
  for (const f of r.files_changed) lines.push(`- ${mdCell(f)}`)
  return `${lines.join("\n")}\n`
}

function section(lines: string[], title: string, entries: ReportEntry[]): void {
  lines.push("", `## ${title}`, "")
  if (!entries.length) return void lines.push("none")
  lines.push("| row | time | type | who | tool | what | result | risk | why |", "|---|---|---|---|---|---|---|---|---|")
  for (const e of entries) {
    lines.push(`| ${e.id} | ${e.ts} | ${e.type} | ${e.actor} | ${mdCell(e.tool)} | ${mdCell(e.action)} | ${e.result ?? ""} | ${e.risk ?? ""} | ${mdCell(e.reason)} |`)
  }
}

function counts(map: Record<string, number>): string {
  const entries = Object.entries(map).sort(([a], [b]) => a.localeCompare(b))
  return entries.length ? entries.map(([k, v]) => `${k} ${v}`).join(", ") : "none"
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}s`
}
