// What the panel shows, as plain data, and how run events and keys change it.
// Pure: no terminal, no clock (times are passed in). The plan itself is pulled from the run's look.
import type { RunEvent } from "../../../core/runner/events.ts"
import type { PlanItem } from "../../../core/runner/plan.ts"

const TAIL_LINES = 200
const NOTES = 3

/** The call running now (or the last one, kept with its output until the next starts). */
export interface Activity {
  call: string
  step?: string
  tool: string
  title: string
  started: number
  ended?: number
  status?: string
  tail: string[]
}

/** A question inside the panel: pick one of `options`, or type a line (`text` set). */
export interface Modal {
  title: string
  /** extra lines (a diff: lines starting with +/- are coloured), scrolled with PgUp/PgDn */
  body: string[]
  options: string[]
  selected: number
  scroll: number
  text?: string
}

export interface PanelModel {
  task?: string
  runId?: string
  status: string
  /** "requested": pause once the running call ends; "paused": waiting for c */
  pause: "none" | "requested" | "paused"
  /** the step the run is paused before (undefined: between agent calls) */
  pausedAt?: string
  current?: Activity
  notes: string[]
  selected?: string
  breakpoints: ReadonlySet<string>
  help: boolean
  modal?: Modal
  width?: number
}

export function initialModel(): PanelModel {
  return { status: "starting", pause: "none", notes: [], breakpoints: new Set(), help: false }
}

export function applyEvent(m: PanelModel, e: RunEvent, now: number): PanelModel {
  const f = e as Record<string, unknown>
  switch (e.type) {
    case "run.started":
      return { ...m, task: String(f.task), runId: e.run, status: "running" }
    case "run.resumed":
      return { ...m, runId: e.run, status: "running", notes: note(m, `resumed (was ${String(f.from_status)})`) }
    case "step.started": {
      const args = f.args as Record<string, unknown> | undefined
      const title = String(args?.command ?? args?.path ?? args?.pattern ?? args?.url ?? "")
      return { ...m, current: { call: String(f.call), step: f.step as string | undefined, tool: String(f.tool), title, started: now, tail: [] } }
    }
    case "step.finished": {
      const c = m.current
      return c && c.call === f.call ? { ...m, current: { ...c, ended: now, status: String(f.status) } } : m
    }
    case "decision":
      return f.decision === "deny" ? { ...m, notes: note(m, `denied: ${String(f.reason)}`) } : m
    case "guard":
      return { ...m, notes: note(m, `guard ${String(f.guard)}: ${String(f.reason)}`) }
    case "request.created":
      return { ...m, notes: note(m, `waiting for a person: ${String(f.kind)} ${String(f.step ?? f.tool ?? "")}`) }
    case "policy.warning":
    case "tool.warning":
      return { ...m, notes: note(m, `! ${String(f.message)}`) }
    case "sandbox":
      return f.message ? { ...m, notes: note(m, `! ${String(f.message)}`) } : m
    case "agent.message": {
      const text = String(f.text ?? "").trim().split("\n")[0] ?? ""
      return { ...m, notes: note(m, `turn ${String(f.turn)}: ${text}`) }
    }
    case "run.finished":
      return { ...m, status: String(f.status), pause: "none", notes: f.message ? note(m, String(f.message)) : m.notes }
    default:
      return m
  }
}

/** Live output of a call: its last lines are kept (a partial last line is completed by the next chunk). */
export function appendOutput(m: PanelModel, callId: string, chunk: string): PanelModel {
  if (!m.current || m.current.call !== callId) return m
  const tail = [...m.current.tail]
  const pieces = chunk.replace(/\r\n/g, "\n").split("\n")
  const open = tail.length > 0 && !tail[tail.length - 1]!.endsWith("\n")
  pieces.forEach((piece, i) => {
    const text = i < pieces.length - 1 ? `${piece}\n` : piece
    if (text === "") return
    if (i === 0 && open) tail[tail.length - 1] += text
    else tail.push(text)
  })
  return { ...m, current: { ...m.current, tail: tail.slice(-TAIL_LINES) } }
}

/** The item the cursor is on: the chosen one while it exists, else the first not yet started. */
export function selectedItem(m: PanelModel, items: readonly PlanItem[]): PlanItem | undefined {
  return items.find((i) => i.id === m.selected) ?? items.find((i) => waitsToRun(i)) ?? items[items.length - 1]
}

export function moveSelection(m: PanelModel, items: readonly PlanItem[], by: number): PanelModel {
  if (!items.length) return m
  const at = items.indexOf(selectedItem(m, items)!)
  const next = Math.max(0, Math.min(items.length - 1, at + by))
  return { ...m, selected: items[next]!.id }
}

/** b: a breakpoint on the selected step, only one still to run (a running or finished step cannot stop before itself). */
export function toggleBreakpoint(m: PanelModel, items: readonly PlanItem[]): { model: PanelModel; message?: string } {
  const item = selectedItem(m, items)
  if (!item) return { model: m, message: "no step to put a breakpoint on" }
  const breakpoints = new Set(m.breakpoints)
  if (breakpoints.delete(item.id)) return { model: { ...m, breakpoints, selected: item.id }, message: `breakpoint before ${item.id} removed` }
  if (!waitsToRun(item)) return { model: m, message: `${item.id} is ${item.state}: a breakpoint only stops a step that has not started` }
  breakpoints.add(item.id)
  return { model: { ...m, breakpoints, selected: item.id }, message: `breakpoint before ${item.id}: the run pauses before it` }
}

export function waitsToRun(item: PlanItem): boolean {
  return item.state === "pending" || item.state === "ready" || (item.state === "blocked" && Boolean(item.waiting))
}

function note(m: PanelModel, text: string): string[] {
  return [...m.notes, text.replace(/\s+/g, " ")].slice(-NOTES)
}
