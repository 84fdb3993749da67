// The panel as lines of text for a terminal of a given size. Pure: model + look + size + time in,
// lines out (each at most `width` columns wide, exactly `height` lines).
import type { RunLook } from "../../../core/runner/control.ts"
import type { PlanItem } from "../../../core/runner/plan.ts"
import { formatDuration } from "../../../core/base/duration.ts"
import { fitLine } from "../status-line.ts"
import { selectedItem, type PanelModel } from "./model.ts"

export interface Paint {
  bold(t: string): string
  dim(t: string): string
  red(t: string): string
  green(t: string): string
  yellow(t: string): string
  cyan(t: string): string
  gray(t: string): string
  inverse(t: string): string
}

const plain = (t: string) => t
export const NO_PAINT: Paint = { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain, gray: plain, inverse: plain }

type Segment = { text: string; paint?: (t: string) => string }

export interface Frame {
  width: number
  height: number
  now: number
  paint: Paint
}

export const KEYS_HINT = "p pause · c continue · b breakpoint · ↑↓ select · h help · q stop"

export const HELP = [
  "Keys",
  "  p        pause after the call that is running (the panel waits; nothing new starts)",
  "  c, r     continue (after a pause or at a breakpoint)",
  "  b        toggle a breakpoint before the selected step (the run pauses before it)",
  "  ↑ ↓      select a step (also j / k)",
  "  h, ?     this help (any key closes it)",
  "  q        stop with a checkpoint: exit 130, `ccode resume` continues (same as Ctrl-C)",
  "In a question: ↑ ↓ choose, Enter or 1-9 answer, PgUp/PgDn scroll, q or Ctrl-C stops the run.",
]

export function renderPanel(m: PanelModel, look: RunLook | undefined, f: Frame): string[] {
  const p = f.paint
  const fit = (segments: Segment[]) => fitLine(segments, f.width)
  const top = [fit(header(m, look, f)), fit(budgets(look, p)), p.gray("─".repeat(Math.max(0, f.width - 1)))]
  const bottom = [fit(statusLine(m, p)), fit([{ text: KEYS_HINT, paint: p.gray }])]
  const room = Math.max(0, f.height - top.length - bottom.length)
  const middle = m.help ? HELP.map((t) => fit([{ text: t }])) : m.modal ? modalLines(m, room, f) : runLines(m, look, room, f)
  const lines = [...top, ...middle.slice(0, room)]
  while (lines.length < f.height - bottom.length) lines.push("")
  return [...lines, ...bottom].slice(0, f.height)
}

function header(m: PanelModel, look: RunLook | undefined, f: Frame): Segment[] {
  const p = f.paint
  const status = m.pause === "paused" ? "paused" : m.pause === "requested" ? "pausing" : m.status
  const colour = status === "completed" ? p.green : status === "paused" || status === "pausing" ? p.yellow : status === "running" ? p.cyan : p.red
  return [
    { text: "ccode ", paint: p.bold }, { text: `${m.task ?? ""} ` }, { text: `${m.runId ?? ""} `, paint: p.gray },
    { text: status, paint: colour }, { text: ` · ${formatDuration(look?.wallMs ?? 0)}`, paint: p.gray },
  ]
}

function budgets(look: RunLook | undefined, p: Paint): Segment[] {
  if (!look) return [{ text: "" }]
  const { usage, limits } = look
  const steps = look.driver === "agent" ? `turns ${usage.steps}/${limits.max_steps}` : `steps ${usage.steps}/${look.items.length}`
  const parts = [steps, `wall ${formatDuration(look.wallMs)}/${formatDuration(limits.max_wall_time)}`]
  if (look.driver === "agent" || limits.max_tokens !== undefined) parts.push(`tokens ${compact(usage.tokens)}${limits.max_tokens ? `/${compact(limits.max_tokens)}` : ""}`)
  if (look.driver === "agent" || limits.max_cost !== undefined) parts.push(`cost $${usage.cost.toFixed(2)}${limits.max_cost ? `/$${limits.max_cost.toFixed(2)}` : ""}`)
  return [{ text: parts.join(" · "), paint: p.gray }]
}

function runLines(m: PanelModel, look: RunLook | undefined, room: number, f: Frame): string[] {
  const p = f.paint
  const fit = (segments: Segment[]) => fitLine(segments, f.width)
  const c = m.current
  // the current call keeps up to a third of the room for its output tail; the plan gets the rest
  const tailRoom = c ? Math.max(0, Math.min(c.tail.length, Math.floor(room / 3))) : 0
  const activity = c ? 2 + tailRoom : 0
  const items = look?.items ?? []
  const planRoom = Math.max(1, room - activity)
  const lines = items.length ? planLines(m, items, planRoom, f) : [p.gray(look?.driver === "agent" ? "  (the agent has no plan yet)" : "  (no steps)")]
  if (!c) return lines
  while (lines.length < planRoom) lines.push("")
  const mark = c.ended === undefined ? p.cyan("▶") : c.status === "ok" ? p.green("✓") : p.red("✗")
  lines.push(p.gray("─".repeat(Math.max(0, f.width - 1))))
  lines.push(fit([{ text: `${mark} ` }, { text: `${c.step ?? c.tool} `, paint: p.bold }, { text: `${c.tool} · ${formatDuration((c.ended ?? f.now) - c.started)} `, paint: p.gray }, { text: c.title, paint: p.dim }]))
  for (const text of tailRoom ? c.tail.slice(-tailRoom) : []) lines.push(fit([{ text: "  │ ", paint: p.gray }, { text: text.replace(/\n$/, "").replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, "") }]))
  return lines
}

const MARKS: Record<PlanItem["state"], [string, keyof Paint | undefined]> = {
  pending: ["○", "gray"], ready: ["·", undefined], active: ["▶", "cyan"], done: ["✓", "green"],
  failed: ["✗", "red"], skipped: ["↷", "gray"], blocked: ["■", "gray"],
}

function planLines(m: PanelModel, items: readonly PlanItem[], room: number, f: Frame): string[] {
  const p = f.paint
  const selected = selectedItem(m, items)
  const at = selected ? items.indexOf(selected) : 0
  // a window over long plans that keeps the selected item in view
  const start = Math.max(0, Math.min(at - Math.floor(room / 2), items.length - room))
  const shown = items.slice(start, start + room)
  const idWidth = Math.min(24, Math.max(...shown.map((i) => [...i.id].length)))
  return shown.map((item) => {
    const [mark, colour] = item.state === "blocked" && item.waiting ? ["⏸", "yellow" as const] : MARKS[item.state]
    const id = [...item.id].length > idWidth ? `${[...item.id].slice(0, idWidth - 1).join("")}…` : item.id.padEnd(idWidth)
    const row = fitLine([
      { text: item === selected ? "›" : " " }, { text: m.breakpoints.has(item.id) ? "●" : " ", paint: p.red },
      { text: `${mark} `, paint: colour && p[colour] }, { text: `${id} `, paint: p.bold }, { text: item.title },
      { text: item.note ? `  ${item.note}` : "", paint: p.gray },
    ], f.width)
    return item === selected ? p.inverse(row) : row
  })
}

function statusLine(m: PanelModel, p: Paint): Segment[] {
  if (m.pause === "paused") {
    const where = m.pausedAt ? (m.breakpoints.has(m.pausedAt) ? `at the breakpoint before ${m.pausedAt}` : `before ${m.pausedAt}`) : "between calls"
    return [{ text: `⏸ paused ${where} — c continue · q stop (resumable)`, paint: p.yellow }]
  }
  if (m.pause === "requested") return [{ text: "⏸ pausing after the call that is running… (c cancels)", paint: p.yellow }]
  const last = m.notes[m.notes.length - 1]
  return [{ text: last ?? "", paint: p.gray }]
}

function modalLines(m: PanelModel, room: number, f: Frame): string[] {
  const p = f.paint
  const modal = m.modal!
  const fit = (segments: Segment[]) => fitLine(segments, f.width)
  const head = modal.title.split("\n").map((t, i) => fit([{ text: i === 0 ? `? ${t}` : `  ${t}`, paint: i === 0 ? p.yellow : undefined }]))
  const options = modal.text !== undefined
    ? [fit([{ text: `> ${modal.text}█` }])]
    : modal.options.map((o, i) => (i === modal.selected ? p.inverse(fit([{ text: `› ${i + 1}. ${o}` }])) : fit([{ text: `  ${i + 1}. ${o}` }])))
  const bodyRoom = Math.max(0, room - head.length - options.length - 1)
  const scroll = Math.max(0, Math.min(modal.scroll, modal.body.length - bodyRoom))
  let body = modal.body.slice(scroll, scroll + bodyRoom)
  if (modal.body.length > bodyRoom && bodyRoom > 0) {
    body = body.slice(0, bodyRoom - 1)
    body.push(`… ${modal.body.length - bodyRoom + 1} more lines (PgUp/PgDn to scroll)`)
  }
  const bodyLines = body.map((t) => {
    const paint = t.startsWith("+") && !t.startsWith("+++") ? p.green : t.startsWith("-") && !t.startsWith("---") ? p.red : t.startsWith("@@") ? p.cyan : t.startsWith("…") ? p.gray : undefined
    return fit([{ text: `  ${t}`, paint }])
  })
  return [...head, ...bodyLines, "", ...options]
}

function compact(n: number): string {
  return n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)}M` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n)
}
