// What stays on the terminal after the panel closes: the plan with its marks and how the run ended.
// Pure: lines out, the caller writes them.
import type { RunLook } from "../../../core/runner/control.ts"
import type { Paint } from "./layout.ts"
import type { PanelModel } from "./model.ts"

const MAX_ITEMS = 30
const MARKS: Record<string, string> = { done: "✓", failed: "✗", skipped: "↷", active: "▶", blocked: "■", ready: "·", pending: "○" }

export function summaryLines(m: PanelModel, look: RunLook | undefined, finished: Record<string, unknown> | undefined, p: Paint): string[] {
  const items = look?.items ?? []
  const lines = items.slice(0, MAX_ITEMS).map((i) => {
    const mark = MARKS[i.state] ?? "?"
    const paint = i.state === "done" ? p.green : i.state === "failed" ? p.red : p.gray
    return `${paint(mark)} ${i.id}${i.note ? p.gray(`  ${i.note}`) : ""}`
  })
  if (items.length > MAX_ITEMS) lines.push(p.gray(`… ${items.length - MAX_ITEMS} more steps (ccode runs show ${m.runId ?? ""})`))
  if (!finished) return [...lines, p.yellow(`${m.runId ?? "run"} stopped before it finished`)]
  const tail = (finished.tail as string[] | undefined) ?? []
  if (tail.length && m.current) lines.push(p.red(`── ${m.current.step ?? m.current.tool} failed; last lines of its output:`), ...tail.map((t) => `  ${t}`))
  const status = String(finished.status)
  const paint = status === "completed" ? p.green : status === "paused" ? p.yellow : p.red
  lines.push(`${paint(status)} ${p.gray(`exit ${String(finished.exit_code)} · ${String(finished.steps)} ${look?.driver === "agent" ? "turns" : "steps done"} · ${String(finished.denied)} denied`)}${finished.message ? ` — ${String(finished.message)}` : ""}`)
  if (finished.summary_path) lines.push(p.gray(`summary: ${String(finished.summary_path)}`))
  return lines
}
