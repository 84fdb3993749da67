import { describe, expect, test } from "bun:test"
import { keyAction, parseKeys } from "../../../cli/ui/panel/keys.ts"

describe("keys from a raw terminal", () => {
  test("letters, arrows (both encodings), Enter, Ctrl-C and page keys are told apart", () => {
    expect(parseKeys("p\x1b[A\x1bOB\r\x03\x1b[5~\x1b[6~")).toEqual([{ char: "p" }, "up", "down", "enter", "ctrl-c", "pageup", "pagedown"])
  })
  test("an unknown escape sequence is swallowed whole: its letters never act as keys", () => {
    // F5 is ESC [ 1 5 ~ ; a right arrow ESC [ C must not become a "C"
    expect(parseKeys("\x1b[15~\x1b[Cq")).toEqual([{ char: "q" }])
  })
  test("a lone Escape is a key", () => {
    expect(parseKeys("\x1b")).toEqual(["escape"])
  })
})

describe("what a key does", () => {
  test("while the run runs: p pause, c and r continue, b breakpoint, h help, q stop, arrows select", () => {
    const run = (c: string) => keyAction({ char: c }, "run").type
    expect(["p", "c", "r", "b", "h", "?", "q", "Q"].map(run)).toEqual(["pause", "continue", "continue", "breakpoint", "help", "help", "stop", "stop"])
    expect(keyAction("up", "run")).toEqual({ type: "select", by: -1 })
    expect(keyAction("down", "run")).toEqual({ type: "select", by: 1 })
    expect(keyAction({ char: "z" }, "run").type).toBe("none")
  })
  test("Ctrl-C stops in every mode, as it does without the panel", () => {
    for (const mode of ["run", "help", "choice", "text"] as const) expect(keyAction("ctrl-c", mode).type).toBe("stop")
  })
  test("help closes on any key but q, which still stops", () => {
    expect(keyAction({ char: "x" }, "help").type).toBe("close")
    expect(keyAction("enter", "help").type).toBe("close")
    expect(keyAction({ char: "q" }, "help").type).toBe("stop")
  })
  test("in a question: digits answer directly, Enter the highlighted choice, p asks for a pause after it, b does nothing", () => {
    expect(keyAction({ char: "3" }, "choice")).toEqual({ type: "choose", index: 2 })
    expect(keyAction("enter", "choice")).toEqual({ type: "choose" })
    expect(keyAction({ char: "p" }, "choice").type).toBe("pause")
    expect(keyAction({ char: "b" }, "choice").type).toBe("none")
    expect(keyAction("pagedown", "choice")).toEqual({ type: "scroll", by: 10 })
  })
  test("typing an answer: letters are text (q is a letter here), Backspace erases, Enter answers", () => {
    expect(keyAction({ char: "q" }, "text")).toEqual({ type: "type", text: "q" })
    expect(keyAction("backspace", "text").type).toBe("erase")
    expect(keyAction("enter", "text").type).toBe("choose")
  })
})
