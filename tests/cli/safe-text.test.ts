import { describe, expect, test } from "bun:test"
import { terminalSafe } from "../../cli/ui/safe-text.ts"
import { fitLine } from "../../cli/ui/status-line.ts"

describe("text from steps never drives the terminal", () => {
  const attacks = {
    "window title (OSC 2, BEL)": "a\x1b]2;PWNED\x07b",
    "clipboard write (OSC 52, ST)": "a\x1b]52;c;cm0gLXJmIH4=\x1b\\b",
    "screen clear and cursor home": "a\x1b[2J\x1b[Hb",
    "8-bit CSI": "a\x9b2Jb",
    "8-bit OSC": "a\x9d0;PWNED\x07b",
    "DCS string": "a\x1bPq#0;2;0;0;0\x1b\\b",
    "lone ESC and charset switch": "a\x1b(0b\x1b",
    "carriage return overwrite, backspace, bell": "a\r\b\x07b",
  }
  for (const [name, text] of Object.entries(attacks)) {
    test(name, () => {
      expect(terminalSafe(text)).toBe("ab")
      expect(terminalSafe(text, true)).toBe("ab")
    })
  }
  test("colours pass only where asked; newlines and tabs stay", () => {
    expect(terminalSafe("\x1b[31mred\x1b[39m\tx\n")).toBe("red\tx\n")
    expect(terminalSafe("\x1b[31mred\x1b[39m\tx\n", true)).toBe("\x1b[31mred\x1b[39m\tx\n")
  })
  test("the status line and panel rows drop them too", () => {
    expect(fitLine([{ text: "out\x1b]52;c;eA==\x07put\x1b[2J" }], 40)).toBe("output")
  })
})
