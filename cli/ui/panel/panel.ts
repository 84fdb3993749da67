// The continuous-mode panel: one object that is the run's reporter (events in), the person (questions
// asked inside the panel, answered with the same choices as the line prompt) and the run's control
// (pause between calls, breakpoints). The screen opens with the run's first event and closes when the
// run finishes, leaving a short plain summary behind.
import type { RunControl, RunLook } from "../../../core/runner/control.ts"
import type { Human } from "../../../core/runner/context.ts"
import type { Reporter, RunEvent } from "../../../core/runner/events.ts"
import { lastLines } from "../../../core/runner/output.ts"
import { approvalChoices, CHOICES } from "../human.ts"
import { style } from "../style.ts"
import { keyAction, parseKeys, type Action } from "./keys.ts"
import { NO_PAINT, renderPanel, type Paint } from "./layout.ts"
import { appendOutput, applyEvent, initialModel, moveSelection, toggleBreakpoint, type Modal, type PanelModel } from "./model.ts"
import { openScreen, type Screen } from "./screen.ts"
import { summaryLines } from "./summary.ts"
import { terminalSafe } from "../safe-text.ts"

const REPAINT_MS = 40
const CLOCK_MS = 500

export interface PanelOptions {
  /** q and Ctrl-C: what Ctrl-C does without the panel (stop with a checkpoint, exit 130) */
  interrupt(): void
  color: boolean
  out?: NodeJS.WriteStream
  input?: NodeJS.ReadStream
}

export interface Panel {
  reporter: Reporter
  human: Human
  control: RunControl
  close(): void
}

type Ask = { modal: Modal; answer(index: number | string | undefined): void }

export function openPanel(opts: PanelOptions): Panel {
  const out = opts.out ?? process.stderr
  const input = opts.input ?? process.stdin
  const paint: Paint = opts.color ? { ...style, inverse: (t) => `\x1b[7m${t}\x1b[27m` } : NO_PAINT
  let model: PanelModel = initialModel()
  let look: (() => RunLook) | undefined
  let screen: Screen | undefined
  let closed = false
  let finished: Record<string, unknown> | undefined
  let ask: Ask | undefined
  let pausedSince: number | undefined
  let queue: Promise<unknown> = Promise.resolve()
  let timer: ReturnType<typeof setTimeout> | undefined
  let clock: ReturnType<typeof setInterval> | undefined
  const waiting = new Map<() => void, string | undefined>()
  const passed = new Set<string>()

  const render = () => {
    timer = undefined
    if (!screen) return
    const now = Date.now()
    const seen = look?.()
    // the runner leaves time paused by a person out of the wall time when it goes on; show it so already
    const held = pausedSince === undefined ? 0 : now - pausedSince
    const shown = seen && held > 1000 ? { ...seen, wallMs: Math.max(0, seen.wallMs - held) } : seen
    screen.paint(renderPanel(model, shown, { width: screen.width, height: screen.height, now, paint }))
  }
  const schedule = () => {
    if (screen && !timer) timer = setTimeout(render, REPAINT_MS)
  }
  const ensureOpen = () => {
    if (screen || closed) return
    screen = openScreen(out, input, { keys: onKeys, resize: render })
    clock = setInterval(render, CLOCK_MS)
    clock.unref()
    render()
  }
  const close = () => {
    if (closed) return
    closed = true
    if (timer) clearTimeout(timer)
    if (clock) clearInterval(clock)
    for (const done of [...waiting.keys()]) done()
    if (!screen) return
    screen.close()
    screen = undefined
    out.write(summaryLines(model, look?.(), finished, paint).map((l) => `${terminalSafe(l, true)}\n`).join(""))
  }
  const cont = () => {
    pausedSince = undefined
    for (const [done, step] of waiting) {
      if (step !== undefined && model.breakpoints.has(step)) passed.add(step)
      done()
    }
    model = { ...model, pause: "none", pausedAt: undefined }
  }

  function onKeys(chunk: string): void {
    for (const key of parseKeys(chunk)) {
      // help sits over everything (a question too) until any key closes it
      const mode = model.help ? "help" : ask ? (ask.modal.text !== undefined ? "text" : "choice") : "run"
      act(keyAction(key, mode))
    }
    render()
  }
  function act(action: Action): void {
    const items = look?.().items ?? []
    const modal = ask?.modal
    switch (action.type) {
      case "stop":
        if (ask) ask.answer(undefined)
        model = { ...model, help: false, notes: [...model.notes, "stopping: the run ends with a checkpoint (q again forces)"] }
        opts.interrupt()
        return
      case "help":
        model = { ...model, help: true }
        return
      case "close":
        model = { ...model, help: false }
        return
      case "pause":
        if (model.pause === "none" && !finished) model = { ...model, pause: "requested" }
        return
      case "continue":
        if (model.pause !== "none") cont()
        return
      case "breakpoint": {
        const { model: next, message } = toggleBreakpoint(model, items)
        // set again after it was passed: it stops the run again
        for (const id of next.breakpoints) if (!model.breakpoints.has(id)) passed.delete(id)
        model = message ? { ...next, notes: [...next.notes, message].slice(-3) } : next
        return
      }
      case "select":
        if (modal && modal.text === undefined) setModal({ ...modal, selected: (modal.selected + action.by + modal.options.length) % modal.options.length })
        else if (!modal) model = moveSelection(model, items, action.by)
        return
      case "scroll":
        if (modal) setModal({ ...modal, scroll: Math.max(0, modal.scroll + action.by) })
        return
      case "type":
        if (modal?.text !== undefined) setModal({ ...modal, text: modal.text + action.text })
        return
      case "erase":
        if (modal?.text !== undefined) setModal({ ...modal, text: [...modal.text].slice(0, -1).join("") })
        return
      case "choose":
        if (!ask || !modal) return
        if (modal.text !== undefined) return ask.answer(modal.text)
        if (action.index === undefined || action.index < modal.options.length) ask.answer(action.index ?? modal.selected)
        return
    }
  }
  const setModal = (modal: Modal) => {
    if (ask) ask.modal = modal
    model = { ...model, modal }
  }

  /** Ask inside the panel, one question at a time; q / Ctrl-C gives `later` and stops the run. */
  const question = <T extends string, L extends string>(title: string, body: string[], choices: { value: T; label: string }[] | "text", later: L, timeoutMs?: number): Promise<T | L | string> =>
    oneAtATime(() =>
      new Promise<T | L | string>((resolve) => {
        if (closed) return resolve(later)
        ensureOpen()
        const modal: Modal = { title, body, options: choices === "text" ? [] : choices.map((c) => c.label), selected: 0, scroll: 0, ...(choices === "text" && { text: "" }) }
        const expire = timeoutMs === undefined ? undefined : setTimeout(() => finish("timeout"), timeoutMs)
        const finish = (value: string) => {
          if (expire) clearTimeout(expire)
          ask = undefined
          model = { ...model, modal: undefined }
          schedule()
          resolve(value)
        }
        ask = {
          modal,
          answer: (index) => finish(index === undefined ? later : typeof index === "string" ? index : choices === "text" ? later : choices[index]!.value),
        }
        model = { ...model, modal, help: false }
        render()
      }),
    )
  const oneAtATime = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = queue.then(fn, fn)
    queue = next.catch(() => undefined)
    return next
  }

  const human: Human = {
    interactive: true,
    approve: async (p, timeoutMs) => {
      const d = p.decision
      const rules = d.rules.map((r) => `${r.id} (${r.decision}, ${r.source})`).join(", ") || "none"
      const title = `${p.tool}${p.step ? ` · step ${p.step}` : ""} · risk ${d.risk}\nwhy: ${d.reason}\nrules: ${rules}`
      const body = p.diff ? p.diff.replace(/\n$/, "").split("\n") : [`args: ${JSON.stringify(p.args)}`]
      return (await question(title, body, approvalChoices(p), "timeout", timeoutMs)) as Awaited<ReturnType<Human["approve"]>>
    },
    breakpoint: async (_run, step, title) => (await question(`breakpoint before step ${step}: ${title}`, [], CHOICES.breakpoint, "stop")) as "continue" | "skip" | "stop",
    inFlight: async (_run, step, title) =>
      (await question(`step ${step} (${title}) was running when ccode stopped; it may or may not have finished`, [], CHOICES.inFlight, "later")) as Awaited<ReturnType<Human["inFlight"]>>,
    stillRunning: async (_run, step, where) =>
      (await question(`step ${step} is ${where}, left over from the ccode that stopped`, [], CHOICES.stillRunning, "later")) as "kill" | "wait" | "later",
    question: async (_run, questions, options) =>
      String(await question(questions.join("\n"), [], options?.length ? options.map((o) => ({ value: o, label: o })) : "text", "")),
    guard: async (_run, guard, reason) => (await question(`guard ${guard} fired: ${reason}`, [], CHOICES.guard, "stop")) as "continue" | "stop",
  }

  const control: RunControl = {
    attach(_runId, runLook) {
      look = runLook
      schedule()
    },
    gate(_runId, step, signal) {
      const atBreakpoint = step !== undefined && model.breakpoints.has(step) && !passed.has(step)
      if ((model.pause === "none" && !atBreakpoint) || signal.aborted || closed) return Promise.resolve()
      model = { ...model, pause: "paused", pausedAt: step }
      pausedSince ??= Date.now()
      render()
      return new Promise<void>((resolve) => {
        const done = () => {
          waiting.delete(done)
          signal.removeEventListener("abort", done)
          resolve()
        }
        waiting.set(done, step)
        signal.addEventListener("abort", done, { once: true })
      })
    },
  }

  const reporter: Reporter = {
    event(e: RunEvent) {
      if (closed) return
      ensureOpen()
      model = applyEvent(model, e, Date.now())
      if (e.type === "run.finished") {
        finished = e as Record<string, unknown>
        if (model.current?.status === "error") finished = { ...finished, tail: lastLines(model.current.tail.join(""), 10) }
        return close()
      }
      schedule()
    },
    output(_runId, callId, chunk) {
      if (closed) return
      model = callId ? appendOutput(model, callId, chunk) : { ...model, notes: [...model.notes, chunk.trim()].slice(-3) }
      schedule()
    },
  }
  return { reporter, human, control, close }
}
