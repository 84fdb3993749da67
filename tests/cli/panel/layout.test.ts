import { describe, expect, test } from "bun:test"
import type { RunLook } from "../../../core/runner/control.ts"
import type { PlanItem } from "../../../core/runner/plan.ts"
import { KEYS_HINT, NO_PAINT, renderPanel } from "../../../cli/ui/panel/layout.ts"
import { appendOutput, applyEvent, initialModel, moveSelection, toggleBreakpoint, type PanelModel } from "../../../cli/ui/panel/model.ts"
import { colorWanted, panelFallback } from "../../../cli/ui/panel/eligible.ts"
import { summaryLines } from "../../../cli/ui/panel/summary.ts"

const item = (id: string, state: PlanItem["state"], extra: Partial<PlanItem> = {}): PlanItem => ({ id, title: `echo ${id}`, needs: [], state, attempts: 0, continueOnError: false, ...extra })
const look = (items: PlanItem[], over: Partial<RunLook> = {}): RunLook => ({
  driver: "steps", items, usage: { steps: items.filter((i) => i.state === "done").length, tokens: 0, cost: 0 }, wallMs: 12_000,
  limits: { max_steps: 50, max_wall_time: 1_800_000 }, ...over,
})
const ev = (type: string, fields: Record<string, unknown> = {}) => ({ type, ts: "", run: "r1", ...fields }) as never
const frame = (width = 60, height = 16) => ({ width, height, now: 10_000, paint: NO_PAINT })

function running(): PanelModel {
  let m = applyEvent(initialModel(), ev("run.started", { task: "build" }), 0)
  m = applyEvent(m, ev("step.started", { step: "compile", call: "c1", tool: "shell", args: { command: "make" } }), 4_000)
  return appendOutput(m, "c1", "line one\nline tw")
}

describe("the panel as lines", () => {
  const items = [item("fetch", "done"), item("compile", "active"), item("test", "ready"), item("ship", "pending")]

  test("header, budgets, plan with marks, the current step with its output tail, keys", () => {
    const lines = renderPanel(appendOutput(running(), "c1", "o\n"), look(items), frame())
    expect(lines).toHaveLength(16)
    expect(lines.slice(0, 2)).toEqual(["ccode build r1 running · 12s", "steps 1/4 · wall 12s/30m0s"])
    expect(lines.slice(3, 7)).toEqual(["  ✓ fetch   echo fetch", "  ▶ compile echo compile", "› · test    echo test", "  ○ ship    echo ship"])
    expect(lines).toContain("▶ compile shell · 6.0s make")
    expect(lines).toContain("  │ line one")
    expect(lines).toContain("  │ line two")
    expect(lines.at(-1)).toBe(`${KEYS_HINT.slice(0, 58)}…`)
  })
  test("no line is wider than the terminal, at 40 columns too", () => {
    const long = [item("a-very-long-step-identifier-that-goes-on", "ready", { title: "x".repeat(200) })]
    for (const width of [40, 80]) for (const line of renderPanel(running(), look(long), frame(width, 14))) expect([...line].length).toBeLessThanOrEqual(width - 1)
  })
  test("an agent run shows turns, tokens and cost against its budgets", () => {
    const lines = renderPanel(running(), look([], { driver: "agent", usage: { steps: 3, tokens: 12_345, cost: 0.42 }, limits: { max_steps: 50, max_wall_time: 600_000, max_tokens: 100_000, max_cost: 2 } }), frame(80))
    expect(lines[1]).toBe("turns 3/50 · wall 12s/10m0s · tokens 12.3k/100.0k · cost $0.42/$2.00")
    expect(lines).toContain("  (the agent has no plan yet)")
  })
  test("a long plan is windowed around the selected step", () => {
    const many = Array.from({ length: 200 }, (_, i) => item(`s${i}`, i < 150 ? "done" : "pending"))
    const lines = renderPanel({ ...initialModel(), status: "running" }, look(many), frame(60, 12))
    expect(lines.some((l) => l.startsWith("› ○ s150"))).toBe(true)
    expect(lines.some((l) => l.includes(" s0 "))).toBe(false)
  })
  test("paused at a breakpoint: the row carries the mark and the status line says how to go on", () => {
    const { model } = toggleBreakpoint(moveSelection(running(), items, 1), items)
    const lines = renderPanel({ ...model, pause: "paused", pausedAt: "ship" }, look(items), frame())
    expect(lines).toContain("›●○ ship    echo ship")
    expect(lines.at(-2)).toStartWith("⏸ paused at the breakpoint before ship — c continue")
  })
  test("a question with a diff: coloured by nothing, every line shown, choices numbered", () => {
    const modal = { title: "write_file · step w · risk medium", body: ["--- a/x", "+++ b/x", "@@ -1,1 +1,1 @@", "-old", "+new"], options: ["allow once", "deny"], selected: 1, scroll: 0 }
    const lines = renderPanel({ ...running(), modal }, look(items), frame())
    expect(lines.slice(3, 12)).toEqual(["? write_file · step w · risk medium", "  --- a/x", "  +++ b/x", "  @@ -1,1 +1,1 @@", "  -old", "  +new", "", "  1. allow once", "› 2. deny"])
  })
  test("a diff taller than the room says how much more there is", () => {
    const modal = { title: "t", body: Array.from({ length: 50 }, (_, i) => `+line ${i}`), options: ["allow once"], selected: 0, scroll: 0 }
    const lines = renderPanel({ ...running(), modal }, look(items), frame(60, 16))
    expect(lines.some((l) => /… \d+ more lines \(PgUp\/PgDn to scroll\)/.test(l))).toBe(true)
    expect(lines).toHaveLength(16)
  })
})

describe("panel state", () => {
  const items = [item("a", "done"), item("b", "active"), item("c", "pending")]
  test("a breakpoint goes only on a step still to run, and b again removes it", () => {
    const onRunning = toggleBreakpoint({ ...initialModel(), selected: "b" }, items)
    expect(onRunning.model.breakpoints.size).toBe(0)
    expect(onRunning.message).toContain("has not started")
    const set = toggleBreakpoint({ ...initialModel(), selected: "c" }, items)
    expect([...set.model.breakpoints]).toEqual(["c"])
    expect(toggleBreakpoint(set.model, items).model.breakpoints.size).toBe(0)
  })
  test("selection stays within the plan", () => {
    expect(moveSelection({ ...initialModel(), selected: "c" }, items, 5).selected).toBe("c")
    expect(moveSelection({ ...initialModel(), selected: "c" }, items, -9).selected).toBe("a")
  })
  test("output of another call does not land in the current step's tail; a split line is joined", () => {
    let m = running()
    m = appendOutput(m, "other", "noise\n")
    m = appendOutput(m, "c1", "o\nthree\n")
    expect(m.current!.tail).toEqual(["line one\n", "line two\n", "three\n"])
  })
  test("the summary left behind lists the plan and how the run ended", () => {
    const lines = summaryLines(running(), look(items), { status: "interrupted", exit_code: 130, steps: 1, denied: 0, message: "interrupted by a signal", summary_path: "/s.md" }, NO_PAINT)
    expect(lines).toEqual(["✓ a", "▶ b", "○ c", "interrupted exit 130 · 1 steps done · 0 denied — interrupted by a signal", "summary: /s.md"])
  })
})

describe("panel or line output", () => {
  const ok = { interactive: true, stdoutTTY: true, batch: false, quiet: false, term: "xterm", columns: 100, rows: 30 }
  test("a terminal of 40 columns and more gets the panel", () => {
    expect(panelFallback(ok)).toBeUndefined()
    expect(panelFallback({ ...ok, columns: 40, rows: 12 })).toBeUndefined()
  })
  test("every other case falls back, saying why", () => {
    expect(panelFallback({ ...ok, interactive: false })).toBe("nobody at a terminal")
    expect(panelFallback({ ...ok, stdoutTTY: false })).toBe("stdout is not a terminal")
    expect(panelFallback({ ...ok, term: "dumb" })).toBe("TERM=dumb")
    expect(panelFallback({ ...ok, term: undefined })).toBe("TERM=dumb")
    expect(panelFallback({ ...ok, columns: 39 })).toContain("smaller")
    expect(panelFallback({ ...ok, rows: 11 })).toContain("smaller")
    expect(panelFallback({ ...ok, batch: true })).toContain("batch")
    expect(panelFallback({ ...ok, panelEnv: "0" })).toBe("CCODE_PANEL=0")
  })
  test("NO_COLOR (any value) and TERM=dumb turn colour off", () => {
    expect(colorWanted({ TERM: "xterm" })).toBe(true)
    expect(colorWanted({ TERM: "xterm", NO_COLOR: "1" })).toBe(false)
    expect(colorWanted({ TERM: "dumb" })).toBe(false)
    expect(colorWanted({ TERM: "xterm", NO_COLOR: "" })).toBe(true)
  })
})
